import { connect } from 'node:net';
import { createServer } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import {
  exchange,
  FIRST_TEN_USERNAMES,
  getCode,
  postCodeExchange,
  postForm,
  postJson,
  signIn,
  TestGateway,
} from './helpers.js';

/** Sends raw bytes and returns whatever comes back before the server closes or 2 s pass. */
function rawRequest(origin: string, bytes: string): Promise<string> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.setTimeout(2000, () => socket.destroy());
    socket.write(bytes);
  });
}

describe('HTTP robustness and routing', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('answers unknown API routes with the platform 404 and wrong methods with 405', async () => {
    const missing = await fetch(`${emu.api}/nope/nothing`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json');
    expect(await missing.json()).toEqual({ message: '404: Not Found', code: 0 });
    const wrong = await fetch(`${emu.api}/oauth2/token`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect((await fetch(`${emu.http}/favicon.ico`)).status).toBe(404);
  });

  it('tells a game in another process where everything is, with no secrets, at /emulator.json', async () => {
    const reply = await fetch(`${emu.http}/emulator.json`);
    expect(reply.status).toBe(200);
    const text = await reply.text();
    expect(JSON.parse(text)).toEqual({
      http: emu.http,
      api: emu.api,
      gateway: emu.gateway,
      dashboard: emu.dashboard,
      applicationId: emu.applicationId,
      applicationPublicKey: emu.applicationPublicKey,
      autoConsent: true,
      users: emu.users.map((user) => ({ id: user.id, username: user.username })),
    });
    expect(text).not.toContain(emu.botToken);
    expect(text).not.toContain(emu.clientSecret);
  });

  it('serves the unversioned /api alias and HEAD', async () => {
    const grant = await getCode(emu);
    const response = await postCodeExchange(emu, grant, {}, `${emu.http}/api/oauth2/token`);
    expect(response.status).toBe(200);
    const head = await fetch(`${emu.api}/gateway`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('refuses oversized bodies with 413 in each route style', async () => {
    const big = 'x'.repeat(100 * 1024);
    const oauth = await rawRequest(
      emu.http,
      `POST /api/v10/oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${big.length}\r\n\r\n${big}`,
    );
    expect(oauth).toMatch(/^HTTP\/1\.1 413/);
    expect(oauth).toContain('"error":"invalid_request"');
    const api = await rawRequest(
      emu.http,
      `POST /api/v10/partner-sdk/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`,
    );
    expect(api).toMatch(/^HTTP\/1\.1 413/);
    expect(api).toContain('"code":40005');
    // Still serving.
    expect((await fetch(`${emu.api}/gateway`)).status).toBe(200);
  });

  it('survives garbage, bad encodings and broken JSON', async () => {
    expect(await rawRequest(emu.http, 'GARBAGE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(
      await rawRequest(
        emu.http,
        `GET /api/v10/gateway HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
    ).toMatch(/^HTTP\/1\.1 4/);
    const badUtf8 = await fetch(`${emu.api}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: Buffer.from([0x67, 0x3d, 0xff, 0xfe]),
    });
    expect(badUtf8.status).toBe(400);
    const form = await postJson(`${emu.api}/partner-sdk/token`, 'not an object');
    expect(form.status).toBe(400);
    const prototype = await postForm(`${emu.api}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: emu.applicationId,
      refresh_token: '__proto__',
    });
    expect(((await prototype.json()) as { error: string }).error).toBe('invalid_grant');
    const ctor = await fetch(`${emu.api}/users/@me`, { headers: { Authorization: 'Bearer constructor' } });
    expect(ctor.status).toBe(401);
    expect((await fetch(`${emu.api}/gateway`)).status).toBe(200);
  });

  it('counts requests per route pattern', async () => {
    const before = emu.requestCount('POST', '/oauth2/token');
    await postForm(`${emu.api}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: emu.applicationId,
      refresh_token: 'x',
    });
    await postForm(`${emu.api}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: emu.applicationId,
      refresh_token: 'y',
    });
    expect(emu.requestCount('POST', '/oauth2/token')).toBe(before + 2);
    expect(emu.requestCount('post', '/oauth2/token')).toBe(before + 2);
    expect(emu.requestCount('GET', '/never')).toBe(0);
  });
});

describe('lifecycle and logging', () => {
  it('runs several emulators side by side with separate worlds', async () => {
    const [a, b] = await Promise.all([
      startEmulator({ autoConsent: true }),
      startEmulator({ autoConsent: true, users: 1 }),
    ]);
    try {
      expect(a.http).not.toBe(b.http);
      expect(a.applicationId).not.toBe(b.applicationId);
      expect(b.users.map((u) => u.username)).toEqual(['alice']);
      const tokens = await signIn(a, 'alice');
      const crossed = await fetch(`${b.api}/users/@me`, {
        headers: { Authorization: `Bearer ${tokens.access_token}` },
      });
      expect(crossed.status).toBe(401);
      expect(JSON.parse(JSON.stringify(a))).toMatchObject({
        http: a.http,
        api: a.api,
        gateway: a.gateway,
        rpcSocket: expect.stringMatching(/discord-ipc-0$/) as unknown,
      });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('closes gateway clients with 1001 and frees the port', async () => {
    const emu = await startEmulator({ autoConsent: true });
    const port = Number(new URL(emu.http).port);
    const tokens = await signIn(emu);
    const gw = await TestGateway.connect(emu);
    await gw.identify(tokens.access_token);
    const idle = await TestGateway.connect(emu);
    const keepAlive = await fetch(`${emu.api}/gateway`);
    await keepAlive.text();
    const started = Date.now();
    await Promise.all([emu.close(), emu.close()]);
    expect(Date.now() - started).toBeLessThan(1500);
    expect((await gw.closed).code).toBe(1001);
    expect((await idle.closed).code).toBe(1001);
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => probe.close(resolve));
  });

  it('validates options', async () => {
    await expect(startEmulator({ port: 70_000 })).rejects.toThrow(RangeError);
    await expect(startEmulator({ applicationId: 'abc' })).rejects.toThrow(RangeError);
    await expect(startEmulator({ customSchemes: ['https'] })).rejects.toThrow(RangeError);
    await expect(startEmulator({ gatewayRateLimit: { count: 0, windowMs: 1 } })).rejects.toThrow(RangeError);
  });

  it('seeds users with the documented names and lets tests add and rename users', async () => {
    const emu = await startEmulator({ users: 10 });
    try {
      expect(emu.users.map((u) => u.username)).toEqual(FIRST_TEN_USERNAMES);
      const added = emu.createUser();
      expect(added.username).toBe('player11');
      const named = emu.createUser({ username: 'Zed', globalName: 'Zed Z' });
      expect(named.username).toBe('zed');
      expect(() => emu.createUser({ username: 'zed' })).toThrow(/taken/);
      emu.updateUser(named.id, { username: 'zed2' });
      expect(emu.users.at(-1)?.username).toBe('zed2');
      expect(() => emu.browserAs('nobody')).toThrow(RangeError);
    } finally {
      await emu.close();
    }
  });

  it('never writes tokens, codes, verifiers or secrets to the log', async () => {
    const lines: string[] = [];
    const emu = await startEmulator({
      autoConsent: true,
      clientSecret: 'very-secret-client-value',
      log: (line) => lines.push(line),
    });
    const secrets: string[] = [emu.botToken, 'very-secret-client-value'];
    try {
      const grant = await getCode(emu, { nonce: 'nonce-value-1234' });
      secrets.push(grant.code, grant.verifier, 'nonce-value-1234');
      const tokens = await exchange(emu, grant);
      secrets.push(tokens.access_token, tokens.refresh_token, tokens.id_token ?? '');
      const refreshed = await postForm(`${emu.api}/oauth2/token?code=${grant.code}`, {
        grant_type: 'refresh_token',
        client_id: emu.applicationId,
        refresh_token: tokens.refresh_token,
      });
      const second = (await refreshed.json()) as { access_token: string };
      secrets.push(second.access_token);
      const gw = await TestGateway.connect(emu);
      await gw.identify(second.access_token);
      const provisional = await postJson(`${emu.api}/partner-sdk/token`, {
        client_id: emu.applicationId,
        external_auth_type: 'OIDC',
        external_auth_token: 'external-provider-token-value',
      });
      secrets.push(
        'external-provider-token-value',
        ((await provisional.json()) as { access_token: string }).access_token,
      );
      await postForm(`${emu.api}/oauth2/token/revoke`, {
        client_id: emu.applicationId,
        token: second.access_token,
      });
      await gw.closed;
    } finally {
      await emu.close();
    }
    expect(lines.length).toBeGreaterThan(8);
    expect(lines).toContain('[http] POST /oauth2/token 200');
    expect(lines.some((l) => /^\[gateway\] alice identified \(session [0-9a-f]{4}…\)$/.test(l))).toBe(true);
    for (const secret of secrets) {
      for (const line of lines) expect(line.includes(secret), `${line} contains a secret`).toBe(false);
    }
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { RpcOpcode, encodeRpcFrame } from '../../packages/protocol/src/rpcFrame.js';
import { getCode, pkce } from './helpers.js';
import { Peer } from './rpcPeer.js';

const tokenRequest = (emu: Emulator, fields: Record<string, string>): Promise<Response> =>
  fetch(`${emu.api}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: emu.applicationId, ...fields }),
  });

const closeCode = async (peer: Peer): Promise<unknown> => {
  const frame = await peer.next();
  expect(frame.op).toBe(RpcOpcode.Close);
  return (frame.body as { code?: unknown }).code;
};

describe('the emulated desktop client: commands, errors and log lines', () => {
  let emu: Emulator;
  const lines: string[] = [];
  beforeAll(async () => {
    emu = await startEmulator({ users: 2, autoConsent: true, log: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('logs one line per hostile peer, without what it sent', async () => {
    lines.length = 0;
    const marker = 'payload-marker-7f3a';
    const frames = [
      // Bad JSON carrying the marker, before and after the handshake.
      Buffer.concat([
        (() => {
          const head = Buffer.alloc(8);
          head.writeUInt32LE(RpcOpcode.Handshake, 0);
          head.writeUInt32LE(marker.length + 1, 4);
          return head;
        })(),
        Buffer.from(`{${marker}`),
      ]),
      encodeRpcFrame(RpcOpcode.Frame, { cmd: marker, args: {}, nonce: marker }),
      encodeRpcFrame(RpcOpcode.Handshake, { v: 1, client_id: marker }),
    ];
    for (const bytes of frames) {
      const peer = new Peer(emu.rpcSocket ?? '');
      peer.socket.write(bytes);
      expect(await closeCode(peer)).toEqual(expect.any(Number));
      await peer.ended;
    }
    const rpcLines = lines.filter((l) => l.startsWith('[rpc]'));
    expect(rpcLines).toHaveLength(frames.length);
    expect(lines.join('\n')).not.toContain(marker);
  });

  it('answers every command with its nonce and never logs codes or tokens', async () => {
    lines.length = 0;
    const peer = new Peer(emu.rpcSocket ?? '');
    await peer.handshake(emu.applicationId);
    const { verifier, challenge } = pkce();
    const authorize = (args: Record<string, unknown>): Promise<Record<string, unknown>> =>
      peer.command('AUTHORIZE', {
        client_id: emu.applicationId,
        scopes: ['openid', 'sdk.social_layer'],
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...args,
      });
    expect(await authorize({ client_id: undefined })).toMatchObject({
      cmd: 'AUTHORIZE',
      evt: 'ERROR',
      data: { code: 4000 },
    });
    expect(await authorize({ client_id: '123456789012345678' })).toMatchObject({ data: { code: 4000 } });
    expect(await authorize({ code_challenge: 'short' })).toMatchObject({ data: { code: 4000 } });
    expect(await authorize({ scopes: ['no.such.scope'] })).toMatchObject({ data: { code: 4000 } });
    const ok = await authorize({ state: 'st', nonce: 'n1' });
    expect(ok).toMatchObject({ cmd: 'AUTHORIZE', evt: null });
    const code = (ok.data as { code: string }).code;

    // Exchanged without a redirect URI; a redirect URI the code never had is refused.
    expect(
      (await tokenRequest(emu, { code, code_verifier: verifier, redirect_uri: 'http://x/cb' })).status,
    ).toBe(400);
    const exchanged = await tokenRequest(emu, { code, code_verifier: verifier });
    expect(exchanged.status).toBe(200);
    const { access_token: accessToken } = (await exchanged.json()) as { access_token: string };
    const authenticated = await peer.command('AUTHENTICATE', { access_token: accessToken });
    expect(authenticated).toMatchObject({
      evt: null,
      data: {
        user: { username: 'alice' },
        application: { id: emu.applicationId },
        expires: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
      },
    });
    expect(lines.join('\n')).not.toContain(code);
    expect(lines.join('\n')).not.toContain(accessToken);
    expect(lines.join('\n')).not.toContain(challenge);
    peer.socket.end();
    await peer.ended;
  });

  it('still requires the redirect URI for a code issued through the browser', async () => {
    const grant = await getCode(emu);
    const missing = await tokenRequest(emu, { code: grant.code, code_verifier: grant.verifier });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('subscribes and unsubscribes, records invite commands, and ends on CLOSE', async () => {
    const peer = new Peer(emu.rpcSocket ?? '');
    await peer.handshake(emu.applicationId);
    for (const evt of ['ACTIVITY_JOIN_REQUEST', 'ACTIVITY_INVITE', 'AUTHORIZE_REQUEST']) {
      expect(await peer.command('SUBSCRIBE', {}, evt)).toMatchObject({ cmd: 'SUBSCRIBE', data: { evt } });
    }
    // GUILD_STATUS names a guild of the signed-in user: 4003 without one, or for a guild not theirs.
    const guild = emu.guilds()[0]?.id ?? '';
    expect(await peer.command('SUBSCRIBE', {}, 'GUILD_STATUS')).toMatchObject({
      evt: 'ERROR',
      data: { code: 4003 },
    });
    expect(await peer.command('SUBSCRIBE', { guild_id: '1' }, 'GUILD_STATUS')).toMatchObject({
      evt: 'ERROR',
      data: { code: 4003 },
    });
    expect(await peer.command('SUBSCRIBE', { guild_id: guild }, 'GUILD_STATUS')).toMatchObject({
      cmd: 'SUBSCRIBE',
      data: { evt: 'GUILD_STATUS' },
    });
    expect(await peer.command('SUBSCRIBE', {})).toMatchObject({ evt: 'ERROR', data: { code: 4004 } });
    expect(emu.rpcDispatch('GUILD_STATUS', { guild: { id: '1' }, online: 3 })).toBe(1);
    expect((await peer.next((f) => (f.body as { evt?: unknown }).evt === 'GUILD_STATUS')).body).toMatchObject(
      {
        data: { online: 3 },
      },
    );
    expect(await peer.command('UNSUBSCRIBE', { guild_id: guild }, 'GUILD_STATUS')).toMatchObject({
      data: { evt: 'GUILD_STATUS' },
    });
    expect(emu.rpcDispatch('GUILD_STATUS', {})).toBe(0);
    expect(() => emu.rpcDispatch('not an event', {})).toThrow(RangeError);

    const bob = emu.users[1]?.id ?? '';
    const before = emu.rpcCommands().length;
    for (const cmd of [
      'CLOSE_ACTIVITY_JOIN_REQUEST',
      'CLOSE_ACTIVITY_REQUEST',
      'SEND_ACTIVITY_JOIN_INVITE',
    ]) {
      expect(await peer.command(cmd, { user_id: bob })).toMatchObject({ cmd, evt: null, data: null });
    }
    expect(await peer.command('SEND_ACTIVITY_JOIN_INVITE', { user_id: '1' })).toMatchObject({
      evt: 'ERROR',
      data: { code: 4010 },
    });
    expect(
      emu
        .rpcCommands()
        .slice(before)
        .map((c) => c.cmd),
    ).toEqual(['CLOSE_ACTIVITY_JOIN_REQUEST', 'CLOSE_ACTIVITY_REQUEST', 'SEND_ACTIVITY_JOIN_INVITE']);

    expect(emu.rpcConnectionCount()).toBe(1);
    peer.send(RpcOpcode.Close, { code: 1000, message: 'bye' });
    await peer.ended;
    await expect.poll(() => emu.rpcConnectionCount()).toBe(0);
  });

  it('requires the game’s pid with SET_ACTIVITY', async () => {
    const peer = new Peer(emu.rpcSocket ?? '');
    await peer.handshake(emu.applicationId);
    for (const pid of [undefined, 'abc', 0, 1.5]) {
      expect(
        await peer.command('SET_ACTIVITY', { pid, activity: { type: 0, state: 'Lobby' } }),
      ).toMatchObject({
        evt: 'ERROR',
        data: { code: 4000 },
      });
    }
    expect(emu.rpcActivity()).toBeNull();
    peer.socket.end();
    await peer.ended;
  });

  it('forgets a connection’s activity when it closes or is dropped', async () => {
    const alice = emu.users[0]?.id ?? '';
    const first = new Peer(emu.rpcSocket ?? '');
    await first.handshake(emu.applicationId);
    expect(
      await first.command('SET_ACTIVITY', { pid: 1, activity: { type: 2, details: 'Listening in' } }),
    ).toMatchObject({ data: { type: 2, details: 'Listening in', application_id: emu.applicationId } });
    expect(emu.presenceOf(alice).activities).toHaveLength(1);
    first.socket.end();
    await first.ended;
    await expect.poll(() => emu.presenceOf(alice).activities.length).toBe(0);
    expect(emu.rpcActivity()).toBeNull();

    const second = new Peer(emu.rpcSocket ?? '');
    await second.handshake(emu.applicationId);
    await second.command('SET_ACTIVITY', { pid: 1, activity: { type: 5, name: 'Cup' } });
    expect(emu.rpcActivity()).toMatchObject({ type: 5, name: 'Cup' });
    expect(emu.dropRpcConnections()).toBe(1);
    await second.ended;
    await expect.poll(() => emu.rpcActivity()).toBeNull();
  });
});

describe('the emulated desktop client: silent peers', () => {
  it('closes a connection that never sends its handshake, and keeps one that did', async () => {
    const lines: string[] = [];
    const emu = await startEmulator({
      users: 1,
      rpc: { handshakeTimeoutMs: 200 },
      log: (line) => lines.push(line),
    });
    try {
      const silent = new Peer(emu.rpcSocket ?? '');
      const greeted = new Peer(emu.rpcSocket ?? '');
      expect((await greeted.handshake(emu.applicationId)).op).toBe(RpcOpcode.Frame);
      expect(await closeCode(silent)).toBe(1003);
      await silent.ended;
      expect(lines.some((l) => l.includes('no handshake within 200 ms'))).toBe(true);
      // The connection that completed its handshake outlives the timeout.
      await new Promise((r) => setTimeout(r, 300));
      expect(emu.rpcConnectionCount()).toBe(1);
      greeted.socket.destroy();
    } finally {
      await emu.close();
    }
  });

  it('refuses a handshake timeout that is not a positive integer', async () => {
    await expect(startEmulator({ rpc: { handshakeTimeoutMs: 0 } })).rejects.toThrow(/handshakeTimeoutMs/);
  });
});

describe('the emulated desktop client: consent and socket placement', () => {
  const dirs: string[] = [];
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('answers AUTHORIZE with OAuth2 error 5000 unless the player consents (autoConsent or rpcConsent)', async () => {
    const emu = await startEmulator({ users: 1 });
    try {
      const peer = new Peer(emu.rpcSocket ?? '');
      await peer.handshake(emu.applicationId);
      const authorize = (): Promise<Record<string, unknown>> =>
        peer.command('AUTHORIZE', {
          client_id: emu.applicationId,
          scopes: ['openid'],
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        });
      const reply = await authorize();
      expect(reply).toMatchObject({ evt: 'ERROR', data: { code: 5000 } });
      expect((reply.data as { message: string }).message).toMatch(/^OAuth2 Error/);
      // The admin hook answers for the player: approve, then back to the emulator's default.
      emu.rpcConsent(true);
      expect(await authorize()).toMatchObject({ evt: null, data: { code: expect.any(String) as unknown } });
      emu.rpcConsent(null);
      expect(await authorize()).toMatchObject({ evt: 'ERROR', data: { code: 5000 } });
      peer.socket.end();
    } finally {
      await emu.close();
    }
  });

  it('takes the first free discord-ipc-<n> in a given directory and leaves the directory', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-rpcdir-'));
    dirs.push(dir);
    // 0: a live socket (a desktop client already runs); 1: not a socket; 2: a stale socket.
    const live = createServer();
    servers.push(live);
    await new Promise<void>((resolve) => live.listen(path.join(dir, 'discord-ipc-0'), resolve));
    writeFileSync(path.join(dir, 'discord-ipc-1'), 'not a socket');
    // A desktop client that crashed leaves its socket file behind: a process killed while listening.
    const crashed = spawnSync(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(path.join(dir, 'discord-ipc-2'))}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    expect(crashed.signal).toBe('SIGKILL');
    expect(statSync(path.join(dir, 'discord-ipc-2')).isSocket()).toBe(true);

    const emu = await startEmulator({ users: 1, rpcSocketDir: dir });
    try {
      expect(emu.rpcSocket).toBe(path.join(dir, 'discord-ipc-2'));
      expect(statSync(emu.rpcSocket ?? '').mode & 0o777).toBe(0o600);
      const peer = new Peer(emu.rpcSocket ?? '');
      expect((await peer.handshake(emu.applicationId)).body).toMatchObject({ evt: 'READY' });
      peer.socket.end();
    } finally {
      await emu.close();
    }
    expect(existsSync(path.join(dir, 'discord-ipc-2'))).toBe(false);
    expect(existsSync(path.join(dir, 'discord-ipc-1'))).toBe(true);
    expect(existsSync(dir)).toBe(true);
  });
});

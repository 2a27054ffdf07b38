import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { exitOf, firstLine, hasStackTrace, killChildren, output, runCli } from './cliProcess.js';
import { FIRST_TEN_USERNAMES, TestGateway } from './helpers.js';
import { Peer } from './rpcPeer.js';

afterEach(killChildren);

describe('sdkpp CLI', () => {
  it('starts the emulator with --json, serves, and exits 0 within 2 s of SIGTERM', async () => {
    const child = runCli(['emulator', '--port', '0', '--json', '--users', '3']);
    const info = JSON.parse(await firstLine(child)) as Record<string, unknown>;
    expect(Object.keys(info)).toEqual([
      'http',
      'api',
      'gateway',
      'dashboard',
      'rpcSocket',
      'applicationId',
      'applicationPublicKey',
      'clientSecret',
      'botToken',
      'users',
      'voiceCaFile',
    ]);
    // The voice gateway's wss:// authority, in the per-user state folder when no --state is given.
    expect(info.voiceCaFile).toMatch(/sdkpp-emulator[/\\]authority[/\\]ca\.pem$/);
    expect(readFileSync(String(info.voiceCaFile), 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(info.http).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.api).toBe(`${String(info.http)}/api/v10`);
    expect(info.gateway).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/gateway$/);
    expect(info.dashboard).toBe(`${String(info.http)}/dashboard`);
    expect(info.rpcSocket).toMatch(/discord-ipc-0$/);
    expect(info.applicationId).toMatch(/^\d+$/);
    expect(typeof info.botToken).toBe('string');
    expect((info.users as Array<{ username: string; id: string }>).map((u) => u.username)).toEqual([
      'alice',
      'bob',
      'carol',
    ]);
    const gateway = await fetch(`${String(info.api)}/gateway`);
    expect(await gateway.json()).toEqual({ url: info.gateway });

    const started = Date.now();
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('accepts --app-id, --bot-token and --auto-consent, and logs to stderr with --verbose', async () => {
    const child = runCli([
      'emulator',
      '--port',
      '0',
      '--json',
      '--app-id',
      '123456789012345678',
      '--bot-token',
      'my-bot-token',
      '--auto-consent',
      '--verbose',
    ]);
    const streams = output(child);
    const info = JSON.parse(await firstLine(child)) as {
      api: string;
      applicationId: string;
      botToken: string;
    };
    expect(info.applicationId).toBe('123456789012345678');
    expect(info.botToken).toBe('my-bot-token');
    const me = await fetch(`${info.api}/users/@me`, { headers: { Authorization: 'Bot my-bot-token' } });
    expect(me.status).toBe(200);
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);
    expect(streams.stderr()).toContain('[http] GET /users/@me 200');
    expect(streams.stderr()).not.toContain('my-bot-token');
  });

  it('takes the bot settings: --privileged-intents, --channel-obfuscation, --webhook-events-url', async () => {
    const hits: string[] = [];
    const receiver = createHttpServer((req, res) => {
      hits.push(typeof req.headers['x-signature-ed25519'] === 'string' ? 'signed' : 'unsigned');
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
    const child = runCli([
      'emulator',
      '--port',
      '0',
      '--json',
      '--auto-consent',
      '--privileged-intents',
      'members,message_content',
      '--channel-obfuscation',
      '--webhook-events-url',
      url,
    ]);
    try {
      const info = JSON.parse(await firstLine(child)) as {
        http: string;
        gateway: string;
        api: string;
        botToken: string;
        applicationId: string;
      };
      const bot = { Authorization: `Bot ${info.botToken}` };
      // The bot's session, without the capability bit, sees #staff obfuscated: the portal toggle is on.
      const gw = new TestGateway(`${info.gateway}?v=10&encoding=json`);
      await gw.next((p) => p.op === 10);
      gw.send(2, { token: `Bot ${info.botToken}`, intents: 1 | 2 | (1 << 15), properties: {} });
      const created = (await gw.dispatch('GUILD_CREATE')).d as { id: string; channels: { name: string }[] };
      gw.ws.close();
      expect(created.channels.map((c) => c.name)).toContain('___hidden___');
      const members = await fetch(`${info.api}/guilds/${created.id}/members?limit=5`, { headers: bot });
      expect(members.status).toBe(200);
      // Adding the bot (auto consent) installs the app: a signed APPLICATION_AUTHORIZED reaches the URL.
      const add = new URLSearchParams({ client_id: info.applicationId, scope: 'bot', guild_id: created.id });
      expect((await fetch(`${info.http}/oauth2/authorize?${add.toString()}`)).status).toBe(200);
      for (let i = 0; i < 100 && hits.length === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(hits).toEqual(['signed']);
    } finally {
      child.kill('SIGINT');
      await exitOf(child);
      receiver.close();
    }
    const bad = runCli(['emulator', '--port', '0', '--privileged-intents', 'everything']);
    expect(await exitOf(bad)).toBe(2);
  });

  it('takes --activity-url-mapping, repeated: the proxy host reaches each mapped server', async () => {
    const servers = ['game', 'api'].map((name) =>
      createHttpServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`${name} ${req.url ?? ''}`);
      }),
    );
    const urls: string[] = [];
    for (const server of servers) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
    const child = runCli([
      'emulator',
      '--port',
      '0',
      '--json',
      '--activity-url-mapping',
      `/=${urls[0] ?? ''}`,
      '--activity-url-mapping',
      `/api=${urls[1] ?? ''}`,
    ]);
    try {
      const info = JSON.parse(await firstLine(child)) as { http: string; applicationId: string };
      const port = new URL(info.http).port;
      const viaProxy = (path: string): Promise<string> =>
        new Promise((resolve, reject) => {
          const req = httpRequest(
            { host: '127.0.0.1', port, path, headers: { host: `${info.applicationId}.localhost:${port}` } },
            (res) => {
              let text = '';
              res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve(text));
            },
          );
          req.on('error', reject);
          req.end();
        });
      expect(await viaProxy('/index.html')).toBe('game /index.html');
      expect(await viaProxy('/.proxy/api/token')).toBe('api /token');
    } finally {
      child.kill('SIGINT');
      await exitOf(child);
      for (const server of servers) server.close();
    }
    expect(await exitOf(runCli(['emulator', '--port', '0', '--activity-url-mapping', 'nothing']))).toBe(2);
  });

  it('signs the desktop client in as --rpc-user, turns it off with --no-rpc, and removes its socket on exit', async () => {
    const child = runCli(['emulator', '--port', '0', '--json', '--rpc-user', 'bob']);
    const info = JSON.parse(await firstLine(child)) as { rpcSocket: string; applicationId: string };
    const peer = new Peer(info.rpcSocket);
    expect((await peer.handshake(info.applicationId)).body).toMatchObject({
      data: { user: { username: 'bob' } },
    });
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    await peer.ended;
    expect(existsSync(info.rpcSocket)).toBe(false);
    expect(existsSync(path.dirname(info.rpcSocket))).toBe(false);

    const off = runCli(['emulator', '--port', '0', '--json', '--no-rpc']);
    expect((JSON.parse(await firstLine(off)) as { rpcSocket: unknown }).rpcSocket).toBeNull();
    off.kill('SIGTERM');
    expect(await exitOf(off)).toBe(0);
  });

  it('prints usage for --help and exits 2 for unknown commands or options', async () => {
    const help = runCli(['--help']);
    const helpOut = output(help);
    expect(await exitOf(help)).toBe(0);
    expect(helpOut.stdout()).toContain('Usage: sdkpp <command>');
    expect(helpOut.stdout()).toContain('emulator');

    const unknown = runCli(['frobnicate']);
    const unknownOut = output(unknown);
    expect(await exitOf(unknown)).toBe(2);
    expect(unknownOut.stderr()).toContain('unknown command "frobnicate"');
    expect(unknownOut.stderr()).not.toContain('did you mean');

    const badOption = runCli(['emulator', '--port', 'abc']);
    const badOut = output(badOption);
    expect(await exitOf(badOption)).toBe(2);
    expect(badOut.stderr()).toContain('--port');

    const slow = runCli(['emulator', '--http-latency', '20000']);
    const slowOut = output(slow);
    expect(await exitOf(slow)).toBe(2);
    expect(slowOut.stderr()).toContain('--http-latency must be an integer from 0 to 10000');
  });

  it('sends GET / to the dashboard', async () => {
    const child = runCli(['emulator', '--port', '0', '--json', '--no-rpc']);
    const info = JSON.parse(await firstLine(child)) as { http: string; dashboard: string };
    const root = await fetch(`${info.http}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(new URL(root.headers.get('location') ?? '', info.http).toString()).toBe(info.dashboard);
    const followed = await fetch(`${info.http}/`);
    expect(followed.url).toBe(info.dashboard);
    expect(await followed.text()).toContain('<html');
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  });

  it('listens on port 24680 without --port, and says to use --port 0 when that port is busy', async () => {
    // Hold the default port, so the CLI finds it busy (and no other emulator can take it meanwhile).
    const holder = createServer();
    await new Promise<void>((resolve, reject) => {
      holder.once('error', (error) => {
        reject(new Error(`port 24680 is taken on this machine, which this test needs: ${error.message}`));
      });
      holder.listen(24680, '127.0.0.1', resolve);
    });
    const busy = runCli(['emulator', '--no-rpc']);
    const busyOut = output(busy);
    expect(await exitOf(busy)).toBe(1);
    expect(busyOut.stderr()).toContain('port 24680 is in use');
    expect(busyOut.stderr()).toContain('--port 0 for any free port');
    expect(hasStackTrace(busyOut.stderr())).toBe(false);
    await new Promise((resolve) => holder.close(resolve));

    const child = runCli(['emulator', '--json', '--no-rpc']);
    const info = JSON.parse(await firstLine(child)) as { http: string };
    expect(info.http).toBe('http://127.0.0.1:24680');
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  });

  it('sums many users up in one line in its summary (--json keeps them all)', async () => {
    const human = runCli(['emulator', '--port', '0', '--users', '99', '--no-rpc']);
    const humanOut = output(human);
    await new Promise<void>((resolve) => {
      human.stdout?.on('data', () => {
        if (humanOut.stdout().includes('Press Ctrl+C')) resolve();
      });
    });
    const usersLines = humanOut
      .stdout()
      .split('\n')
      .filter((line) => line.includes('Users'));
    expect(usersLines).toEqual([
      '  Users         99 users: alice, bob, carol, … player99 (--json lists them all)',
    ]);
    human.kill('SIGTERM');
    expect(await exitOf(human)).toBe(0);
  });

  it('seeds 10 000 users in seconds, with unique names that start as before', async () => {
    // Seeding was cubic: 1000 users took 25 s and 10 000 would take hours.
    const started = Date.now();
    const many = runCli(['emulator', '--port', '0', '--json', '--users', '10000', '--no-rpc']);
    const info = JSON.parse(await firstLine(many)) as { users: Array<{ username: string }> };
    expect(Date.now() - started).toBeLessThan(10_000);
    const names = info.users.map((u) => u.username);
    expect(names).toHaveLength(10_000);
    expect(new Set(names).size).toBe(10_000);
    expect(names.slice(0, 10)).toEqual(FIRST_TEN_USERNAMES);
    many.kill('SIGTERM');
    expect(await exitOf(many)).toBe(0);
  });
});

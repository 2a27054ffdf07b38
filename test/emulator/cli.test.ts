import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { exitOf, firstLine, hasStackTrace, killChildren, output, runCli } from './cliProcess.js';
import { FIRST_TEN_USERNAMES } from './helpers.js';
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
      'botToken',
      'users',
    ]);
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
      '  Users      99 users: alice, bob, carol, … player99 (--json lists them all)',
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

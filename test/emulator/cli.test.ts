import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { Peer } from './rpcPeer.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];

function runCli(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

function output(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { stdout: () => stdout, stderr: () => stderr };
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve(buffer.slice(0, newline));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing a line`)));
  });
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

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
    const child = runCli(['emulator', '--json', '--rpc-user', 'bob']);
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

    const off = runCli(['emulator', '--json', '--no-rpc']);
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

    const badOption = runCli(['emulator', '--port', 'abc']);
    const badOut = output(badOption);
    expect(await exitOf(badOption)).toBe(2);
    expect(badOut.stderr()).toContain('--port');

    const slow = runCli(['emulator', '--http-latency', '20000']);
    const slowOut = output(slow);
    expect(await exitOf(slow)).toBe(2);
    expect(slowOut.stderr()).toContain('--http-latency must be an integer from 0 to 10000');
  });
});

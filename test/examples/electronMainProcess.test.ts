/**
 * The built main process (examples/electron/dist/main.js), run as a child process under Node with a
 * stand-in for the Electron module (test/examples/electronStub/electron.mjs; Electron cannot be fetched here).
 * The stand-in records how main sets Electron up and plays the page once the window loads; the emulator and
 * the companion player main starts are real, so sign-in and the friends list go over real sockets.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const register = join(root, 'test/examples/electronStub/register.mjs');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function node(args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

let out: string;
let run: Run;
const seen = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'sdkpp-electron-main-'));
  const built = await node([join(root, 'examples/electron/build.mjs'), '--out', out]);
  expect(built.stderr).toBe('');
  run = await node(['--import', register, join(out, 'main.js')]);
  for (const line of run.stdout.split('\n')) {
    const match = /^\[electron-stub\] (.*)$/.exec(line);
    if (!match?.[1]) continue;
    const record = JSON.parse(match[1]) as { event: string } & Record<string, unknown>;
    seen.set(record.event, record);
  }
}, 90_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

function observed(event: string): Record<string, unknown> {
  const record = seen.get(event);
  if (!record)
    throw new Error(
      `main never did "${event}"\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`,
    );
  return record;
}

describe('Electron sample: the built main process under Node', () => {
  it('sets up Electron securely before and after ready', () => {
    expect(observed('registerSchemesAsPrivileged')).toMatchObject({
      ready: false,
      schemes: [{ scheme: 'sdkpp-app', privileges: { standard: true, secure: true } }],
    });
    expect(observed('enableSandbox')).toMatchObject({ ready: false });
    expect(observed('protocolHandle')).toMatchObject({ scheme: 'sdkpp-app', ready: true });
    expect(observed('window')).toMatchObject({
      webPreferences: { contextIsolation: true, nodeIntegration: false, sandbox: true, webSecurity: true },
      preloadExists: true,
    });
    expect(observed('loadURL')).toMatchObject({ url: 'sdkpp-app://app/index.html' });
  });

  it('serves the page with its CSP and nothing else', () => {
    const page = observed('page');
    expect(page).toMatchObject({ status: 200, loadsRenderer: true });
    expect(page.csp).toMatch(/default-src 'none'; script-src 'self'.*frame-ancestors 'none'/);
    expect(observed('otherFiles')).toMatchObject({ statuses: [404, 404, 404] });
  });

  it('refuses new windows, navigation and every permission but the app page’s microphone', () => {
    expect(observed('lockdown')).toEqual({
      event: 'lockdown',
      windowOpen: { action: 'deny' },
      navigationPrevented: true,
      microphone: true,
      camera: false,
      otherPageMicrophone: false,
      notifications: false,
      microphoneCheck: true,
      cameraCheck: false,
    });
  });

  it('signs the player in on the embedded emulator, where bob has sent a friend request', () => {
    expect(run.stdout).toMatch(/\[electron\] embedded emulator at http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stdout).toMatch(/\[electron\] media engine: native .*crypto OpenSSL 3\S* .*\(static\)/);
    expect(run.stdout).toMatch(/\[electron\] companion bob is online/);
    expect(observed('signIn')).toMatchObject({ ok: true, status: 'Ready', user: 'alice' });
    expect(observed('friends')).toMatchObject({ friends: ['bob:incoming'] });
    expect(observed('send')).toMatchObject({ channel: 'sdkpp:event' });
    expect(observed('untrusted')).toMatchObject({ code: 'untrusted-sender' });
    expect(seen.has('openExternal')).toBe(false);
  });

  it('closes everything and exits by itself when the window closes', () => {
    expect(observed('quit')).toBeDefined();
    expect(seen.has('stillRunning')).toBe(false);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});

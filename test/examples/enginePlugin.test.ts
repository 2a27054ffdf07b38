import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

import { afterEach, describe, expect, it } from 'vitest';

import { StatusType } from 'sdkpp';
import { startEmulator } from '@sdkpp/emulator';

import { signedInClient } from './signIn.js';

const run = promisify(execFile);
const SAMPLE = ['--import', 'tsx', 'examples/engine-plugin/main.ts'];

/** The statuses the social plugin printed, in order. */
function statuses(stdout: string): string[] {
  return [...stdout.matchAll(/\[social\]\s+status changed: (\w+)/g)].map((m) => m[1] ?? '');
}

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('examples/engine-plugin', () => {
  it('runs the C++ getting-started flow as an engine plugin on an embedded emulator and exits 0 by itself', async () => {
    const { stdout } = await run(process.execPath, SAMPLE, { timeout: 60_000 });
    expect(statuses(stdout)).toEqual(['Connecting', 'Connected', 'Ready', 'Disconnecting', 'Disconnected']);
    expect(stdout).toMatch(/\[social\]\s+authorized; exchanging the code for an access token/);
    expect(stdout).toMatch(/\[social\]\s+access token received \(scopes "openid sdk.social_layer_presence"/);
    expect(stdout).toMatch(/\[social\]\s+Ready: signed in as Alice \(@alice\)/);
    expect(stdout).toMatch(/\[social\]\s+relationships: 1, friends: 1\n.*friend: Bob/);
    expect(stdout).toMatch(
      /\[social\]\s+rich presence set: Playing, "Exploring the harbour" \/ "Solo, level 3"/,
    );
    expect(stdout).toMatch(
      /\[emulator\]\s+the platform shows the player online, playing: "Exploring the harbour" \/ "Solo, level 3"/,
    );
    expect(stdout).toMatch(/\[game\]\s+played 60 frames with the presence showing; quitting/);
    // Every callback arrived through RunCallbacks from the engine's frames, so it all took more than one frame.
    const frames = Number(/\[engine\]\s+stopped after (\d+) frames, exit code 0/.exec(stdout)?.[1]);
    expect(frames).toBeGreaterThan(60);
    expect(stdout).not.toMatch(/access_token|refresh_token|code_verifier|Bearer /);
  }, 60_000);

  it('--emulator: another client sees the presence the plugin set, and the platform holds it', async () => {
    const emulator = await startEmulator({ port: 0, users: 2, autoConsent: true, rpc: false });
    cleanup.push(() => emulator.close());
    const [alice, bob] = emulator.users;
    if (!alice || !bob) throw new Error('the emulator seeded no players');
    emulator.befriend(alice.id, bob.id);
    const watcher = await signedInClient(emulator, 'bob');
    cleanup.push(() => watcher.destroy());

    const child = spawn(
      process.execPath,
      // No --app-id: the sample reads it from the emulator's /emulator.json.
      [...SAMPLE, '--emulator', emulator.http, '--frames', '240'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

    // While the game runs, the platform and Bob's game both see what Alice's plugin set.
    let platformSaw = false;
    let bobSaw = false;
    const stillRunning = (): boolean => child.exitCode === null;
    while (stillRunning() && !(platformSaw && bobSaw)) {
      const activity = emulator.presenceOf(alice.id).activities[0];
      platformSaw ||= activity?.details === 'Exploring the harbour' && activity.state === 'Solo, level 3';
      const seen = watcher.getUser(alice.id);
      bobSaw ||= seen?.status === StatusType.Online && seen.gameActivity?.details === 'Exploring the harbour';
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await exited).toBe(0);
    expect(platformSaw).toBe(true);
    expect(bobSaw).toBe(true);
    expect(statuses(stdout)).toEqual(['Connecting', 'Connected', 'Ready', 'Disconnecting', 'Disconnected']);
    expect(stdout).toMatch(/\[emulator\]\s+using the emulator at http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/\[social\]\s+Ready: signed in as Alice \(@alice\)/);
    expect(stdout).toMatch(/\[social\]\s+relationships: 1, friends: 1\n.*friend: Bob/);
    // Once the plugin unloaded (Disconnect), Bob sees Alice go offline.
    const deadline = Date.now() + 10_000;
    while (watcher.getUser(alice.id)?.status !== StatusType.Offline && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(watcher.getUser(alice.id)?.status).toBe(StatusType.Offline);
  }, 60_000);

  it('--emulator where no emulator answers, without --app-id, says what it needs and exits 2', async () => {
    const failed = await run(process.execPath, [...SAMPLE, '--emulator', 'http://127.0.0.1:9'], {
      timeout: 30_000,
      env: { ...process.env, SDKPP_APPLICATION_ID: '' },
    }).catch((error: unknown) => error as { code: number; stderr: string });
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toMatch(/--app-id/);
  }, 30_000);
});

import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { matchAudio } from '../../src/emulator/index.js';
import {
  callWithLinuxNode,
  devicesSeenIn,
  engineSeenIn,
  foreignNode,
  nativeFromPrebuild,
  type ForeignDevice,
  type ForeignNode,
} from './foreignHost.js';
import { playAndRecord, startPulseServer } from './pulseServer.js';
import { speechFile } from './voiceSampleRuns.js';

// The Windows x64 prebuild, run where a game on Windows runs it: the registry's Windows Node under wine on
// this Linux machine (scripts/cross/hosts.mjs), importing the package's built dist/. Node 22, not 24: see
// FOREIGN_NODES in hosts.mjs for why wine 8 cannot start Node 24; the addon is Node-API either way.
const PREBUILD = 'prebuilds/win32-x64/sdkpp.node';
/**
 * The threshold of the other speech-through-a-call tests (bunHost.test.ts, voiceCallSample.test.ts): wine
 * runs the Windows engine at native speed, and measured 0.93–0.95 each way here.
 */
const HEARD = 0.9;
/**
 * The SDK's ids of WASAPI endpoints as wine's mmdevapi makes them: `wasapi:` and `{0.0.0.00000000}` for a
 * speaker or `{0.0.1.00000000}` for a microphone, then the endpoint's GUID, which wine keeps for each
 * PulseAudio device name in the prefix's registry (HKCU\Software\Wine\Drivers\winepulse.drv\devices).
 */
const WASAPI_ID = {
  output: /^wasapi:\{0\.0\.0\.00000000\}\.\{[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\}$/,
  input: /^wasapi:\{0\.0\.1\.00000000\}\.\{[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\}$/,
};
/** The first run on a fresh machine installs wine (apt-get), fetches node.exe and makes the wine prefix. */
const SETUP_MS = 600_000;

const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-wine-'));
let wine: ForeignNode;
beforeAll(async () => {
  wine = await foreignNode('wine');
}, SETUP_MS);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function byName(devices: ForeignDevice[], name: string): ForeignDevice {
  const device = devices.find((d) => d.name === name);
  if (!device) throw new Error(`no device named ${name} in ${JSON.stringify(devices)}`);
  return device;
}

/** Resolves once `file` exists; rejects when `run` settles first (with its error) or after `timeoutMs`. */
async function fileOrFailure(file: string, run: Promise<unknown>, timeoutMs: number): Promise<void> {
  let settled: Error | undefined;
  run.then(
    () => (settled = new Error(`the run ended before it wrote ${file}`)),
    (error: unknown) => (settled = error instanceof Error ? error : new Error(String(error))),
  );
  const deadline = performance.now() + timeoutMs;
  while (!existsSync(file)) {
    if (settled) throw settled;
    if (performance.now() > deadline) throw new Error(`${file} did not appear in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The native engine from the Windows prebuild, every self-test passed, allocation counting included. */
const NATIVE_FROM_PREBUILD = nativeFromPrebuild('win32-x64', PREBUILD, true);

describe('Windows Node (wine) as a host', () => {
  it('loads the native engine from the win32-x64 prebuild, with the crypto it carries, and passes the self-tests', async () => {
    expect(
      existsSync(PREBUILD),
      `${PREBUILD} is built by npm run native:prebuild -- --target win32-x64`,
    ).toBe(true);
    const seen = await engineSeenIn(wine);
    expect(seen).toMatchObject({ ...NATIVE_FROM_PREBUILD, executable: 'node.exe' });
  }, 90_000);

  it('loads the same addon in a host not named node.exe (a game.exe)', async () => {
    // An addon that imported its Node-API functions from node.exe by name would look for node.exe beside
    // game.exe and fail to load; the delay-load hook binds them to whatever executable the process runs.
    expect(existsSync(PREBUILD)).toBe(true);
    const game = path.join(mkdtempSync(path.join(dir, 'game-')), 'game.exe');
    copyFileSync(wine.nodeExe ?? '', game);
    const seen = await engineSeenIn(wine, { executable: game });
    expect(seen).toMatchObject({ ...NATIVE_FROM_PREBUILD, executable: 'game.exe' });
  }, 90_000);

  it('carries an end-to-end encrypted call with a Linux Node both ways', async () => {
    // About 25 s (each side's run about 23 s); the bounds leave room for a loaded machine.
    await callWithLinuxNode(wine, dir, { heard: HEARD, timeout: 120_000 });
  }, 180_000);

  it('lists, opens and carries speech through the system devices (WASAPI over winepulse to a PulseAudio server)', async () => {
    // miniaudio's WASAPI backend, inside the Windows prebuild, on wine's mmdevapi and its PulseAudio driver
    // (winepulse.drv, the first of wine's default drivers): PULSE_SERVER in wine's environment is all it needs
    // to reach the private server below, no registry setting. Alice's microphone and Bob's headphones are
    // that server's virtual devices (as in systemAudio.test.ts). A first Windows process lists them and opens
    // the defaults; a second one takes their ids from the first (a game restoring a saved choice) and
    // copies the microphone to the headphones while a sentence is spoken into it. Measured with the CI busy
    // beside it: 4–6 s for the first run, 12–14 s for the second, heard at 0.96–1.0 (no resampling on the
    // way); the bounds leave room for a loaded machine. No skipping: without PULSE_SERVER wine falls back to
    // winealsa, which finds no devices here, and the lists come back empty, so the test fails.
    const pulse = await startPulseServer();
    try {
      pulse.addMicrophone('alice_mic', 'Alice-Headset');
      pulse.addSink('bob_speaker', 'Bob-Headphones');
      pulse.addSink('room_speaker', 'Room-Speakers');
      pulse.pactl('set-default-sink', 'room_speaker');
      pulse.pactl('set-default-source', 'alice_mic');
      const env = { ...process.env, PULSE_SERVER: pulse.server };

      const listed = await devicesSeenIn(wine, { env, openDefaults: true });
      expect(listed.backend).toBe('WASAPI');
      const microphone = byName(listed.inputs, 'Alice-Headset');
      const headphones = byName(listed.outputs, 'Bob-Headphones');
      expect(microphone.id).toMatch(WASAPI_ID.input);
      expect(headphones.id).toMatch(WASAPI_ID.output);
      expect(byName(listed.outputs, 'Room-Speakers').id).toMatch(WASAPI_ID.output);
      expect(listed.inputs.slice(0, 2).map((d) => d.id)).toEqual(['null', 'default']);
      // Both defaults open and run: each device thread called back at least 10 times within 5 s.
      for (const stream of [listed.defaults?.input, listed.defaults?.output]) {
        expect(stream).toMatchObject({ open: true, followsDefault: true, reopened: 0 });
        expect(stream?.callbacks).toBeGreaterThanOrEqual(10);
      }

      const speech = await speechFile(
        dir,
        'alice-says.wav',
        'Hello Bob, this is Alice on Windows. Over.',
        'en-us',
      );
      const ready = path.join(dir, 'devices-ready');
      const stop = path.join(dir, 'devices-stop');
      const carrying = devicesSeenIn(wine, {
        env,
        carry: { input: microphone.id, output: headphones.id, ready, stop, maxMs: 40_000 },
        timeout: 60_000,
      });
      let heard: Int16Array;
      try {
        await fileOrFailure(ready, carrying, 30_000);
        heard = await playAndRecord(
          pulse,
          'bob_speaker.monitor',
          'alice_mic_feed',
          speech.file,
          path.join(dir, 'bob-heard.wav'),
        );
      } finally {
        writeFileSync(stop, '');
      }
      const carried = await carrying;

      // The ids hold: a second process lists the same ids for the same devices, and they open those devices.
      expect(byName(carried.inputs, 'Alice-Headset').id).toBe(microphone.id);
      expect(byName(carried.outputs, 'Bob-Headphones').id).toBe(headphones.id);
      expect(carried.carried).toMatchObject({
        currentInput: { id: microphone.id, name: 'Alice-Headset' },
        currentOutput: { id: headphones.id, name: 'Bob-Headphones' },
        input: { open: true, followsDefault: false, name: 'Alice-Headset', reopened: 0 },
        output: { open: true, followsDefault: false, name: 'Bob-Headphones', reopened: 0 },
      });
      const match = matchAudio(speech.pcm, heard);
      console.log(
        `wine devices: list+defaults ${listed.ms} ms (defaults running after ${String(listed.defaults?.ms)} ms), carry run ${carried.ms} ms, ` +
          `${String(carried.carried?.frames)} frames, heard ${JSON.stringify(match)}`,
      );
      expect(match.segmentCorrelation).toBeGreaterThanOrEqual(HEARD);
    } finally {
      await pulse.stop();
    }
  }, 150_000);
});

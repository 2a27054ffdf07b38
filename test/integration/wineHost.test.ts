import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  matchAudio,
  readWavFile,
  synthesizeSpeech,
  writeWavFile,
} from '../../packages/emulator/src/index.js';
import { connected } from './callHelpers.js';
import {
  callWithLinuxNode,
  devicesSeenIn,
  engineSeenIn,
  foreignNode,
  nativeFromPrebuild,
  type ForeignDevice,
  type ForeignNode,
} from './foreignHost.js';
import { emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';
import { playAndRecord, startPulseServer } from './pulseServer.js';
import { speechFile } from './voiceSampleRuns.js';

// The Windows x64 prebuild, run where a game on Windows runs it: the registry's Windows Node under wine on
// this Linux machine (scripts/cross/hosts.mjs), importing the package's built dist/. Node 22, not 24: see
// FOREIGN_NODES in hosts.mjs for why wine 8 cannot start Node 24; the addon is Node-API either way.
const PREBUILD = 'packages/sdkpp/prebuilds/win32-x64/sdkpp.node';
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

/** One step of a foreign run that writes `<step>.json` in `dir` and then waits for the test's `<step>.go`. */
async function stepOf<T>(dir: string, step: string, run: Promise<unknown>, timeoutMs: number): Promise<T> {
  const file = path.join(dir, `${step}.json`);
  await fileOrFailure(file, run, timeoutMs);
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}
const goOn = (dir: string, step: string): void => writeFileSync(path.join(dir, `${step}.go`), '');

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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
      // A directory of this attempt's own: a retry must not find the first attempt's ready and stop files.
      const attempt = mkdtempSync(path.join(dir, 'devices-'));
      const ready = path.join(attempt, 'ready');
      const stop = path.join(attempt, 'stop');
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
          path.join(attempt, 'bob-heard.wav'),
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

  it('cancels the echo of the speakers on the processing worker, passes the player’s voice, and keeps sending while the event loop is blocked', async () => {
    // The Linux test of the voice-processing worker (systemAudioProcessing.test.ts), with Bob as a Windows
    // game: the Windows Node under wine runs fixtures/echoCancelledCall.mjs, whose Client takes his WASAPI
    // microphone and speakers (winepulse to the private PulseAudio server, as above). With echo cancellation
    // on, the Client starts the processing worker, a worker thread that loads the Windows prebuild itself and
    // opens the native processing link by id between the devices and the transport's thread. Alice is this
    // Linux process. Bob's speakers leak into his microphone 50 ms later at −6 dB.
    const pulse = await startPulseServer();
    try {
      pulse.addMicrophone('bob_mic', 'Bob-Laptop-Mic');
      pulse.addSink('bob_speaker', 'Bob-Laptop-Speakers');
      pulse.addRoomEcho('bob_speaker', 'bob_mic', { latencyMs: 50, gainDb: -6 });

      const emulator = await emulatorFor({ autoConsent: true, users: 2 });
      const bobUser = userAt(emulator, 1);
      const alice = await linkAndConnect(emulator, userAt(emulator, 0), { mediaEngine: 'native' });
      const lobbyId = await alice.client.createOrJoinLobby('wine-echo');
      let heard: Int16Array[] = [];
      const aliceCall = alice.client.startCallWithAudioCallbacks(
        lobbyId,
        (userId, samples) => {
          if (userId === bobUser.id) heard.push(Int16Array.from(samples));
        },
        () => undefined,
      );
      await connected(aliceCall);

      const steps = mkdtempSync(path.join(dir, 'echo-'));
      const config = {
        dist: wine.hostPath(path.resolve('packages/sdkpp/dist')),
        emulatorDist: wine.hostPath(path.resolve('packages/emulator/dist')),
        http: emulator.http,
        user: bobUser.username,
        lobbySecret: 'wine-echo',
        microphone: 'Bob-Laptop-Mic',
        speakers: 'Bob-Laptop-Speakers',
        dir: wine.hostPath(steps),
      };
      const fixture = (name: string): string =>
        wine.hostPath(path.resolve('test/integration/fixtures', name));
      const bobRun = wine.run(
        [
          '--import',
          wine.hostUrl(path.resolve('test/integration/fixtures/wineKeepAlive.mjs')),
          fixture('echoCancelledCall.mjs'),
          JSON.stringify(config),
        ],
        { env: { ...process.env, PULSE_SERVER: pulse.server }, timeout: 150_000 },
      );
      // The run's failure surfaces in the steps below; this keeps it from being reported twice.
      bobRun.catch(() => undefined);

      const said = await synthesizeSpeech('The castle gate is open, bring the torch and the map.');
      const saidFile = path.join(dir, 'alice-says.wav');
      writeWavFile(saidFile, said.pcm);
      const energy = (): number => heard.reduce((sum, f) => sum + f.reduce((s, v) => s + v * v, 0), 0);
      const aliceSpeaks = async (): Promise<number> => {
        heard = [];
        await alice.client.setInputDevice(`wav-in:${saidFile}`);
        await sleep(said.durationMs + 800);
        await alice.client.setInputDevice('null');
        return energy();
      };

      // 1. Without processing: Bob's devices are linked to his transport's thread directly, and Alice hears
      // herself through Bob's room. The C++ SDK's defaults for a system microphone are all three on.
      const direct = await stepOf<{
        defaults: Record<string, boolean>;
        devicesLinked: number;
        engine: string;
        privacyCode: string;
        microphone: string;
        speakers: string;
      }>(steps, 'linked-direct', bobRun, 90_000);
      expect(direct).toMatchObject({
        defaults: { echoCancellation: true, noiseSuppression: true, automaticGainControl: true },
        devicesLinked: 3,
        engine: 'native',
        microphone: expect.stringMatching(WASAPI_ID.input) as unknown,
        speakers: expect.stringMatching(WASAPI_ID.output) as unknown,
      });
      await eventually(
        () => aliceCall.getPrivacyCode() === direct.privacyCode,
        10_000,
        'one DAVE epoch at both',
      );
      const echoed = await aliceSpeaks();
      goOn(steps, 'linked-direct');

      // 2. Echo cancellation on: linked through the worker in Bob's Windows process (bit 2).
      const worker = await stepOf<{ devicesLinked: number; ms: number }>(
        steps,
        'linked-worker',
        bobRun,
        30_000,
      );
      expect(worker.devicesLinked).toBe(7);
      // The canceller learns the room over three sentences (about 13 s of Alice). After one (3.5 s) it was
      // short of converged in 2 runs of 7 (ERLE 14 and 26 dB, and the start of Bob's next words suppressed as
      // if they were echo), after two in 1 of 3 (21 dB); after three it cancelled all of it in 4 runs of 4.
      await aliceSpeaks();
      await aliceSpeaks();
      await aliceSpeaks();
      const cancelled = await aliceSpeaks();
      const erle = 10 * Math.log10(echoed / Math.max(1, cancelled));
      goOn(steps, 'linked-worker');

      // 3. All three on, Bob speaks while Alice is silent, and his game blocks its event loop for a second in
      // the middle (1.5 s in). Alice's process is not blocked, so what she hears is judged whole.
      const bobSays = await synthesizeSpeech(
        'I hear you, I am on my way to the bridge now, wait for me there.',
        { voice: 'en+m3' },
      );
      const bobFile = path.join(dir, 'bob-says.wav');
      writeWavFile(bobFile, bobSays.pcm);
      expect(await stepOf(steps, 'all-three', bobRun, 30_000)).toEqual({ devicesLinked: 7 });
      const aliceHears = path.join(dir, 'alice-hears-bob.wav');
      await alice.client.setOutputDevice(`wav-out:${aliceHears}`);
      const played = pulse.play('bob_mic_feed', bobFile);
      goOn(steps, 'all-three');
      await played;
      const blocked = await stepOf<{ during: number; blockedMs: number; devicesLinked: number }>(
        steps,
        'blocked',
        bobRun,
        30_000,
      );
      await sleep(1000);
      await alice.client.setOutputDevice('null'); // the file is complete
      const near = matchAudio(bobSays.pcm, readWavFile(aliceHears));
      goOn(steps, 'blocked');

      // 4. Off again: linked directly, the worker gone, and no failure logged on the way.
      const done = await stepOf<{ devicesLinked: number; voiceFramesSent: number; failures: string[] }>(
        steps,
        'done',
        bobRun,
        30_000,
      );
      const { ms } = await bobRun;
      console.log(
        `wine echo cancellation: worker linked ${worker.ms} ms after turning it on, echo energy ${echoed.toExponential(2)} then ${cancelled.toExponential(2)}, ERLE ${erle.toFixed(1)} dB, ` +
          `${blocked.during} frames sent in ${blocked.blockedMs.toFixed(0)} ms blocked, near end ${JSON.stringify(near)}, run ${ms} ms`,
      );
      expect(echoed).toBeGreaterThan(0);
      expect(erle).toBeGreaterThanOrEqual(20);
      expect(blocked.devicesLinked).toBe(7);
      // 50 frames a second while he speaks; on the event loop the transport would have sent only its backlog.
      expect(blocked.during).toBeGreaterThanOrEqual(25);
      expect(near.segmentCorrelation).toBeGreaterThanOrEqual(0.85);
      expect(done).toMatchObject({ devicesLinked: 3, failures: [] });
      expect(done.voiceFramesSent).toBeGreaterThan(100);
    } finally {
      await pulse.stop();
    }
  }, 240_000);
});

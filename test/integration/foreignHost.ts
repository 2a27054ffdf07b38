// Helpers for the tests that run the package in a foreign Node on this machine: Windows x64 Node under wine
// (wineHost.test.ts) and Linux arm64 Node under qemu-user (qemuHost.test.ts). The Nodes, their runners and
// the setup come from packages/sdkpp/scripts/cross/hosts.mjs and setup-hosts.mjs, which also run from the command line.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';

import { expect } from 'vitest';

import { matchAudio, readWavFile, startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { expectHeardEachOther, speechFile } from './voiceSampleRuns.js';

const execFileAsync = promisify(execFile);

/** What a run of a foreign Node printed, and how long it took. */
export interface ForeignRun {
  stdout: string;
  stderr: string;
  ms: number;
}

/** A foreign Node as scripts/cross/hosts.mjs hands it out. */
export interface ForeignNode {
  /** `line`: another supported Node line of this machine's own platform (scripts/node-versions.mjs). */
  host: 'wine' | 'qemu' | 'line';
  /** `<platform>-<arch>` as the Node inside reports it, and as prebuilds/ names its folder. */
  platform: 'win32-x64' | 'linux-arm64' | 'linux-x64';
  /** wine only: the node.exe that `run` starts unless told `executable`. */
  nodeExe?: string;
  /** Runs that Node with `args`; rejects when it exits non-zero or outlives `timeout` (then killed). */
  run(
    args: string[],
    options?: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number; executable?: string },
  ): Promise<ForeignRun>;
  /** A file of this machine as that Node names it. */
  hostPath(file: string): string;
  /** A file of this machine as a file: URL for that Node's `import()` and `--import`. */
  hostUrl(file: string): string;
}

const script = (name: string): string =>
  pathToFileURL(path.resolve('packages', 'sdkpp', 'scripts', 'cross', name)).href;

/**
 * The foreign Node for `host`, after the one-time setup: Debian's wine or qemu-user and the aarch64 runtime
 * (installed as root, else an Error naming the exact apt-get command), the registry's Node for that platform
 * in the cross cache, and for wine its prefix. On a fresh machine the first call takes a minute or more
 * (apt-get, the Node package from the registry, ~10 s for the prefix); later ones take under a second.
 */
export async function foreignNode(host: 'wine' | 'qemu'): Promise<ForeignNode> {
  // The scripts are plain ESM without declarations; their shapes are the interfaces above.
  const setup = (await import(script('setup-hosts.mjs'))) as { setupHosts(hosts: string[]): void };
  setup.setupHosts([host]);
  const hosts = (await import(script('hosts.mjs'))) as {
    wineNode(): ForeignNode;
    qemuNode(): ForeignNode;
  };
  return host === 'wine' ? hosts.wineNode() : hosts.qemuNode();
}

/** The registry's Linux x64 Node of line `major` (22, 24 or 26), fetched into the cross cache on first use. */
export async function lineNode(major: number): Promise<ForeignNode> {
  const hosts = (await import(script('hosts.mjs'))) as { lineNode(major: number): ForeignNode };
  return hosts.lineNode(major);
}

/**
 * The flags the samples run with in `node`: Node's own TypeScript support, since tsx cannot run there (its
 * esbuild is a binary of this platform only), and under wine the keep-alive preload (see its comment).
 * Transform rather than strip, because the samples use parameter properties, which stripping refuses.
 */
export function sampleFlags(node: ForeignNode): string[] {
  const fixture = (name: string): string => node.hostUrl(path.resolve('test/integration/fixtures', name));
  return [
    '--experimental-transform-types',
    '--disable-warning=ExperimentalWarning',
    '--import',
    fixture('tsSpecifiers.mjs'),
    ...(node.host === 'wine' ? ['--import', fixture('wineKeepAlive.mjs')] : []),
  ];
}

/** What the package's built dist/ reports of its media engine inside a foreign Node. */
export interface ForeignEngineSeen {
  /** `process.platform-process.arch` inside. */
  platform: string;
  /** The file name of the running executable. */
  executable: string;
  engine: string;
  crypto: { backend: string; version: string; linkage: string };
  codec: { name: string | null; version: string | null };
  /** The addon's file, relative to the package, and where it came from; null for the JS engine. */
  addon: { file: string; origin: string } | null;
  fallbackReason: string | null;
  /** The Client's default engine (getMediaEngineInfo) is the same kind as createMediaEngine's. */
  sameAsDefault: boolean;
  /**
   * The checks each self-test failed, by test: the engine's crypto one, and for the native engine the addon's
   * own C++ ones (transport, dave, audio). An empty list is a pass.
   */
  selfTests: Record<string, string[]>;
  /** Whether the addon counts heap allocations (the audio self-test's zero-per-tick check); null for JS. */
  countsAllocations: boolean | null;
}

/**
 * What {@link engineSeenIn} must report for the native engine loaded from the prebuild `file` of `platform`:
 * the OpenSSL 3 and libopus 1.5.2 it carries, no fallback, every self-test check passed, and whether the build
 * counts allocations (the MinGW-linked Windows prebuild does; the zig-linked ones cannot).
 */
export function nativeFromPrebuild(
  platform: string,
  file: string,
  countsAllocations: boolean,
): Record<string, unknown> {
  return {
    platform,
    engine: 'native',
    crypto: {
      backend: 'OpenSSL',
      version: expect.stringMatching(/^OpenSSL 3\./) as unknown,
      linkage: 'static',
    },
    codec: { name: 'libopus', version: expect.stringMatching(/^libopus 1\.5\.2$/) as unknown },
    addon: { file, origin: 'prebuild' },
    fallbackReason: null,
    sameAsDefault: true,
    selfTests: { crypto: [], transport: [], dave: [], audio: [] },
    countsAllocations,
  };
}

/**
 * Imports dist/index.js in `node` (run in the package's folder) and reports its media engine: createMediaEngine()
 * and getMediaEngineInfo(), the crypto and codec, where the addon came from, and every self-test.
 */
export async function engineSeenIn(
  node: ForeignNode,
  options: { executable?: string; timeout?: number } = {},
): Promise<ForeignEngineSeen & { ms: number }> {
  const probe = `
    import path from 'node:path';
    import { createRequire } from 'node:module';
    const sdk = await import(${JSON.stringify(node.hostUrl(path.resolve('packages/sdkpp/dist/index.js')))});
    const engine = sdk.createMediaEngine();
    const { info } = engine;
    const failed = (report) => {
      const names = (report.checks ?? report.results).filter((check) => !check.ok).map((check) => check.name ?? check.algorithm);
      return report.ok || names.length > 0 ? names : ['(not ok, yet no check failed)'];
    };
    const selfTests = { crypto: failed(engine.cryptoSelfTest()) };
    let countsAllocations = null;
    if (info.addon) {
      const addon = createRequire(info.addon.path)(info.addon.path);
      selfTests.transport = failed(addon.transportSelfTest());
      selfTests.dave = failed(addon.daveSelfTest());
      const audio = addon.audioSelfTest();
      selfTests.audio = failed(audio);
      countsAllocations = audio.countingAvailable;
    }
    console.log(JSON.stringify({
      platform: process.platform + '-' + process.arch,
      executable: path.basename(process.execPath),
      engine: info.engine,
      crypto: info.crypto,
      codec: info.codec,
      addon: info.addon ? { file: path.relative(process.cwd(), info.addon.path).replaceAll('\\\\', '/'), origin: info.addon.origin } : null,
      fallbackReason: info.fallbackReason ?? null,
      sameAsDefault: sdk.getMediaEngineInfo().engine === info.engine,
      selfTests,
      countsAllocations,
    }));`;
  const { stdout, ms } = await node.run(
    ['--disable-warning=SDKPP_JS_ENGINE', '--input-type=module', '-e', probe],
    {
      timeout: options.timeout ?? 60_000,
      ...(options.executable ? { executable: options.executable } : {}),
    },
  );
  return { ...(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ForeignEngineSeen), ms };
}

/** One device as the SDK lists it (`Client.getInputDevices()` / `getOutputDevices()`). */
export interface ForeignDevice {
  id: string;
  name: string;
  isDefault: boolean;
}

/** The state of one direction of the engine's SystemAudio, as `status()` reports it. */
export interface ForeignStreamStatus {
  open: boolean;
  followsDefault: boolean;
  id: string;
  name: string;
  callbacks: number;
  droppedSamples: number;
  missingSamples: number;
  reopened: number;
}

/** What the package's dist/ saw of the system's audio devices inside a foreign Node. */
export interface ForeignDevicesSeen {
  /** The engine's SystemAudio backend (`WASAPI` on Windows). */
  backend: string;
  /** The SDK's lists: `null`, `default`, then `<backend>:<backend id>` for each device. */
  inputs: ForeignDevice[];
  outputs: ForeignDevice[];
  /**
   * The engine's SystemAudio opened on the system defaults, once both called back 10 times (`ms` after they
   * opened) or after 5 s; null when not asked.
   */
  defaults: { input: ForeignStreamStatus; output: ForeignStreamStatus; ms: number } | null;
  /**
   * With `carry`: the Client's current devices after `setInputDevice` / `setOutputDevice` of those ids, the
   * engine's streams on them once the carry stopped, and how many 20 ms frames went from one to the other.
   */
  carried: {
    currentInput: ForeignDevice;
    currentOutput: ForeignDevice;
    input: ForeignStreamStatus;
    output: ForeignStreamStatus;
    frames: number;
  } | null;
}

/**
 * Runs dist/ in `node` against the system's audio devices (the native engine, `env` choosing the sound
 * server) and reports what it saw. Always: the SDK's device lists from a Client. With `openDefaults`: the
 * engine's SystemAudio opens the default microphone and speaker, waits for both to run and closes them. With
 * `carry`: the Client takes the two device ids (as a game restores a saved choice), then the engine opens
 * them and copies the microphone to the speaker from the JS thread until the file `carry.stop` exists
 * (bounded by `carry.maxMs`); the file `carry.ready` is written once both devices call back.
 */
export async function devicesSeenIn(
  node: ForeignNode,
  options: {
    env: NodeJS.ProcessEnv;
    openDefaults?: boolean;
    carry?: { input: string; output: string; ready: string; stop: string; maxMs: number };
    timeout?: number;
  },
): Promise<ForeignDevicesSeen & { ms: number }> {
  const carry = options.carry
    ? { ...options.carry, ready: node.hostPath(options.carry.ready), stop: node.hostPath(options.carry.stop) }
    : null;
  const probe = `
    import { existsSync, writeFileSync } from 'node:fs';
    const sdk = await import(${JSON.stringify(node.hostUrl(path.resolve('packages/sdkpp/dist/index.js')))});
    const carry = ${JSON.stringify(carry)};
    const engine = sdk.createMediaEngine({ prefer: 'native' });
    const client = new sdk.Client({ mediaEngine: engine });
    const seen = {
      inputs: await client.getInputDevices(),
      outputs: await client.getOutputDevices(),
      defaults: null,
      carried: null,
    };
    const system = engine.openSystemAudio();
    seen.backend = system.backend;
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    if (${JSON.stringify(options.openDefaults === true)}) {
      system.open('input', null);
      system.open('output', null);
      // Until both device threads have called back 10 times (100 a second once running; a record stream
      // from PulseAudio's null sink monitor may start a second or two late), or for 5 s at most.
      const opened = Date.now();
      const running = () => ['input', 'output'].every((d) => system.status(d).callbacks >= 10);
      while (!running() && Date.now() - opened < 5000) await sleep(50);
      seen.defaults = { input: system.status('input'), output: system.status('output'), ms: Date.now() - opened };
      system.close('input');
      system.close('output');
    }
    if (carry) {
      await client.setInputDevice(carry.input);
      await client.setOutputDevice(carry.output);
      const backendId = (id) => id.slice(id.indexOf(':') + 1);
      system.open('input', backendId(carry.input));
      system.open('output', backendId(carry.output));
      const frame = new Int16Array(1920);
      const deadline = Date.now() + carry.maxMs;
      let frames = 0;
      let ready = false;
      while (!existsSync(carry.stop) && Date.now() < deadline) {
        while (system.read(frame, frame.length)) {
          system.write(frame);
          frames += 1;
        }
        // Ready once both device threads run (10 callbacks each), not once they are open: a record stream
        // from winepulse may start seconds after its open on a busy machine, and whatever is spoken into
        // the microphone before then is never captured.
        if (!ready && ['input', 'output'].every((d) => system.status(d).callbacks >= 10)) {
          writeFileSync(carry.ready, '');
          ready = true;
        }
        await sleep(5);
      }
      seen.carried = {
        currentInput: await client.getCurrentInputDevice(),
        currentOutput: await client.getCurrentOutputDevice(),
        input: system.status('input'),
        output: system.status('output'),
        frames,
      };
    }
    // Everything native closes before the exit: the engine's streams, and the Client's own system audio,
    // which holds a second pair of streams on the carried devices since setInputDevice / setOutputDevice
    // (and a watcher thread enumerating them). process.exit() runs no Node-API cleanup, so whatever is
    // still open then has its device threads inside WASAPI (wine's winepulse) while wine tears the process
    // down. The carry run, the only one that left streams open, is the one that died of SIGSEGV around its
    // exit about 1 run in 3 on a busy machine (not caught in the act: it did not recur in 28 quiet runs).
    system.dispose();
    await client.destroy();
    console.log(JSON.stringify(seen));
    process.exit(0);`;
  const { stdout, ms } = await node.run(['--input-type=module', '-e', probe], {
    env: options.env,
    timeout: options.timeout ?? 60_000,
  });
  return { ...(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ForeignDevicesSeen), ms };
}

/** Resolves once anyone is in a call of `emulator`; rejects at `deadline` (a performance.now() time). */
async function someoneInACall(emulator: Emulator, deadline: number): Promise<void> {
  while (!emulator.voice.calls().some((call) => call.participants.length > 0)) {
    if (performance.now() > deadline) throw new Error('nobody joined a call of the emulator in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The segment correlations of one two-process call, each way, and the wall time of each side. */
export interface CallHeard {
  foreignHeardLinux: number;
  linuxHeardForeign: number;
  foreignMs: number;
  linuxMs: number;
}

/**
 * A two-player end-to-end encrypted call through an emulator on this machine: Alice is `node` running
 * examples/voice-call/main.ts, Bob is this machine's Node running it with tsx. Bob starts once Alice is in the call.
 * Each plays a sentence and records the other; both must print the same privacy code and hear each other with a segment correlation
 * of at least `heard`. Returns the correlations.
 */
export async function callWithLinuxNode(
  node: ForeignNode,
  dir: string,
  options: { heard: number; timeout: number },
): Promise<CallHeard> {
  const emulator = await startEmulator({ users: 2, rpc: false });
  try {
    const alice = await speechFile(
      dir,
      'alice.wav',
      `Alice speaking from the ${node.platform} process. Over.`,
      'en-us',
    );
    const bob = await speechFile(dir, 'bob.wav', 'Bob answering from the Linux process.', 'en-us+m3');
    const common = [
      '--emulator',
      emulator.http,
      '--app-id',
      emulator.applicationId,
      '--lobby-secret',
      node.host,
    ];
    const aliceRecord = path.join(dir, 'alice-heard.wav');
    const bobRecord = path.join(dir, 'bob-heard.wav');
    const sample = 'examples/voice-call/main.ts';
    const started = performance.now();
    const aliceRun = node.run(
      [
        ...sampleFlags(node),
        sample,
        ...common,
        '--user',
        'alice',
        '--play',
        node.hostPath(alice.file),
        '--record',
        node.hostPath(aliceRecord),
      ],
      { timeout: options.timeout },
    );
    // Bob starts once Alice is in the call. Each side records from its own join, and the audio match looks
    // for the other's speech in the first 10 s of the recording; started together, Bob would wait in the
    // call for the whole of the emulated Node's start-up (15 s and more under qemu) before Alice speaks.
    // This way Alice waits for Bob's start-up instead, which is this machine's Node and takes a few seconds.
    await Promise.race([someoneInACall(emulator, started + options.timeout), aliceRun]);
    const bobRun = execFileAsync(
      process.execPath,
      ['--import', 'tsx', sample, ...common, '--user', 'bob', '--play', bob.file, '--record', bobRecord],
      { timeout: options.timeout },
    ).then((run) => ({ ...run, ms: Math.round(performance.now() - started) }));
    const [aliceDone, bobDone] = await Promise.all([aliceRun, bobRun]);
    const heard: CallHeard = {
      foreignHeardLinux: matchAudio(bob.pcm, readWavFile(aliceRecord)).segmentCorrelation,
      linuxHeardForeign: matchAudio(alice.pcm, readWavFile(bobRecord)).segmentCorrelation,
      foreignMs: aliceDone.ms,
      linuxMs: bobDone.ms,
    };
    expectHeardEachOther(
      { run: aliceDone, played: alice, record: aliceRecord },
      { run: bobDone, played: bob, record: bobRecord },
      options.heard,
    );
    return heard;
  } finally {
    await emulator.close();
  }
}

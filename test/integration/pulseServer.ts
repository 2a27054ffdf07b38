import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { readWavFile } from '../../packages/emulator/src/index.js';

/** Polls `ready` every 20 ms until it holds; throws after `timeoutMs` (no test framework needed: the bench uses it too). */
async function waitUntil(ready: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A real PulseAudio sound server for one test file, in user mode with its own runtime folder and socket, and
 * only the virtual devices the test loads: null sinks (a "speaker" whose monitor can be recorded, or a
 * "microphone feed" whose monitor, remapped, becomes a microphone). test/setup/soundServer.ts installs
 * PulseAudio when it is missing. `env` points libpulse (the SDK's backend, pactl, paplay) at this server.
 */
export interface PulseServer {
  /** `PULSE_SERVER` for this server: set it in `process.env` before the SDK opens its devices. */
  readonly server: string;
  /** Runs pactl against this server and returns its output. */
  pactl(...args: string[]): string;
  /** Loads a null sink (a speaker) and returns its module index. */
  addSink(name: string, description: string): number;
  /** Loads a null sink fed by the test plus a source remapped from its monitor (a microphone). */
  addMicrophone(name: string, description: string): { feed: string; module: number };
  /**
   * A room: what the speaker `sink` plays reaches the microphone made by {@link addMicrophone} named
   * `microphone` `latencyMs` later and `gainDb` quieter (a loopback module into its feed), as laptop speakers
   * leak into their microphone. Returns the loopback's module index.
   */
  addRoomEcho(sink: string, microphone: string, options: { latencyMs: number; gainDb: number }): number;
  /** Unloads a module: the device it made disappears, as if unplugged. */
  unload(module: number): void;
  /**
   * Marks the modules loaded so far; the returned function unloads every module loaded after the mark (and
   * not unloaded since), newest first, so that the next test, or a retry of this one, starts without them
   * and can reuse their names.
   */
  checkpoint(): () => void;
  /**
   * Stops the server for `ms` (SIGSTOP, then SIGCONT), as a busy machine stalls it: its clients' streams get
   * no requests meanwhile, and it then catches up.
   */
  stall(ms: number): Promise<void>;
  /** Plays a WAV file into a sink (paplay) and resolves when it has been played. */
  play(sink: string, file: string): Promise<void>;
  /** Records a source (a sink's `<name>.monitor`) to a WAV file until the returned stop is called. */
  record(source: string, file: string): () => Promise<void>;
  stop(): Promise<void>;
}

/** Whether this machine can run the server (test/setup/soundServer.ts makes sure it can, as root). */
export function pulseAudioInstalled(): boolean {
  return ['pulseaudio', 'pactl', 'paplay', 'parecord'].every(
    (tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0,
  );
}

export async function startPulseServer(): Promise<PulseServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-pulse-'));
  const socket = path.join(dir, 'native');
  const server = `unix:${socket}`;
  const env = {
    ...process.env,
    HOME: dir,
    XDG_RUNTIME_DIR: dir,
    PULSE_RUNTIME_PATH: dir,
    PULSE_STATE_PATH: path.join(dir, 'state'),
    PULSE_SERVER: server,
  };
  // -n: no default script, so no real hardware and no modules the test did not ask for. Root may run a
  // per-user server with --system=false (CI and these machines run tests as root).
  const daemon = spawn(
    'pulseaudio',
    [
      '-n',
      '--daemonize=no',
      '--exit-idle-time=-1',
      '--system=false',
      '--use-pid-file=no',
      '--disallow-exit',
      '--log-target=stderr',
      '--log-level=error',
      `--load=module-native-protocol-unix socket=${socket} auth-anonymous=1`,
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // A process that dies before stop() (a crash, a killed run) must not leave its server behind.
  const killOnExit = (): void => {
    daemon.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  let log = '';
  daemon.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const children = new Set<ChildProcess>();
  // The modules loaded and still there, each with the order it was loaded in, for checkpoint().
  const modules = new Map<number, number>();
  let loads = 0;
  const loaded = (module: number): number => {
    modules.set(module, loads++);
    return module;
  };

  const pactl = (...args: string[]): string => {
    const result = spawnSync('pactl', args, { env, encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`pactl ${args.join(' ')} failed: ${result.stderr}${result.error?.message ?? ''}`);
    return result.stdout.trim();
  };
  await waitUntil(
    () => existsSync(socket) && spawnSync('pactl', ['info'], { env, stdio: 'ignore' }).status === 0,
    10_000,
    `the PulseAudio test server to answer (its log: ${log})`,
  );

  const waitFor = (child: ChildProcess): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });

  return {
    server,
    pactl,
    async stall(ms) {
      daemon.kill('SIGSTOP');
      try {
        await new Promise((resolve) => setTimeout(resolve, ms));
      } finally {
        daemon.kill('SIGCONT');
      }
    },
    addSink(name, description) {
      return loaded(
        Number(
          pactl(
            'load-module',
            'module-null-sink',
            `sink_name=${name}`,
            'rate=48000',
            'channels=2',
            `sink_properties=device.description=${description}`,
          ),
        ),
      );
    },
    addMicrophone(name, description) {
      const feed = `${name}_feed`;
      const feedModule = pactl(
        'load-module',
        'module-null-sink',
        `sink_name=${feed}`,
        'rate=48000',
        'channels=2',
        `sink_properties=device.description=${description}-feed`,
      );
      loaded(Number(feedModule));
      const module = Number(
        pactl(
          'load-module',
          'module-remap-source',
          `master=${feed}.monitor`,
          `source_name=${name}`,
          `source_properties=device.description=${description}`,
        ),
      );
      return { feed, module: loaded(module) };
    },
    addRoomEcho(sink, microphone, { latencyMs, gainDb }) {
      const module = pactl(
        'load-module',
        'module-loopback',
        `source=${sink}.monitor`,
        `sink=${microphone}_feed`,
        `latency_msec=${latencyMs}`,
        'source_dont_move=true',
        'sink_dont_move=true',
      );
      // Its sink input is the one whose owner module it is (`pactl list sink-inputs` names the owner).
      const input = pactl('list', 'sink-inputs')
        .split(/^Sink Input #/m)
        .find((block) => new RegExp(`^\\s*Owner Module: ${module}$`, 'm').test(block));
      const index = input?.match(/^\d+/)?.[0];
      if (!index) throw new Error(`no sink input of loopback module ${module}`);
      pactl('set-sink-input-volume', index, `${gainDb}dB`);
      return loaded(Number(module));
    },
    unload(module) {
      pactl('unload-module', String(module));
      modules.delete(module);
    },
    checkpoint() {
      const mark = loads;
      return () => {
        const since = [...modules].filter(([, order]) => order >= mark).sort((a, b) => b[1] - a[1]);
        for (const [module] of since) {
          modules.delete(module);
          // A module may have gone with one it depended on (a remapped source with its feed): gone is fine.
          spawnSync('pactl', ['unload-module', String(module)], { env, stdio: 'ignore' });
        }
      };
    },
    async play(sink, file) {
      const child = spawn('paplay', [`--device=${sink}`, file], { env, stdio: 'ignore' });
      children.add(child);
      await waitFor(child);
      children.delete(child);
      if (child.exitCode !== 0) throw new Error(`paplay ${file} exited with ${String(child.exitCode)}`);
    },
    record(source, file) {
      const child = spawn(
        'parecord',
        [
          `--device=${source}`,
          '--latency-msec=100',
          '--file-format=wav',
          '--rate=48000',
          '--channels=2',
          '--format=s16le',
          file,
        ],
        { env, stdio: 'ignore' },
      );
      children.add(child);
      return async () => {
        child.kill('SIGINT'); // parecord finishes the WAV header on SIGINT
        await waitFor(child);
        children.delete(child);
      };
    },
    async stop() {
      for (const child of children) child.kill('SIGKILL');
      process.off('exit', killOnExit);
      daemon.kill('SIGTERM');
      await waitFor(daemon);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What `source` heard while `sink` played `file` (plus a second for a call's latency). A new record stream on
 * a null sink's monitor starts in bursts for a second or two, so the file is played only once the recorder
 * has written two seconds.
 */
export async function playAndRecord(
  pulse: PulseServer,
  source: string,
  sink: string,
  file: string,
  heard: string,
): Promise<Int16Array> {
  const stop = pulse.record(source, heard);
  await waitUntil(() => existsSync(heard) && statSync(heard).size > 48_000 * 4 * 2, 10_000, 'the recorder');
  await pulse.play(sink, file);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await stop();
  return readWavFile(heard);
}

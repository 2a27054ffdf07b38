// What voice costs a game's JavaScript thread in a full lobby call (issue 15), against the local emulator
// over loopback (DAVE on, no impairment). One JSON line per result: {"name","unit","value","peer",
// "peerValue","ratio"}, ratio = the peer's cost / ours. Run: npx tsx bench/mainThread.ts, or
// npm run bench -- mainThread (which first builds @discordjs/opus from its npm tarball, scripts/bench-peers.mjs).
//
//   call-main-thread-25     milliseconds per second the measured client's main thread is busy (event-loop
//                           utilisation, performance.eventLoopUtilization(), × 1000) over a steady 6 s window,
//                           in a 25-participant call where the client sends one voice stream and receives the
//                           24 others, all talking without a pause. `value`: sdkpp's Client on the native
//                           media engine (startCall with the WAV file as its microphone and the null output,
//                           so the 24 streams are decrypted, decoded and mixed, and its own encoded and sent,
//                           by the engine); `peer`: @discordjs/voice 0.19 doing the same receive and send work,
//                           as a bot: joined through op 4, DAVE through davey, its receiver subscribed to all
//                           24 speakers with each stream decoded to PCM by prism-media's Opus decoder on
//                           @discordjs/opus, and an AudioPlayer playing the same WAV file (raw PCM, encoded by
//                           prism-media on @discordjs/opus).
//   call-main-thread-25-callbacks  the same native client when the game asks for every frame on its thread:
//                           startCallWithAudioCallbacks with a `received` callback per speaker and a `captured`
//                           callback (both return at once), so the audio pump runs every 20 ms and the 24
//                           decoded streams come up to JavaScript. What a game pays for that choice.
//   call-main-thread-25-js  the same for sdkpp on its JS media engine, against the same peer figure.
//
// @discordjs/voice 0.19 declares Node ≥ 22.12 (npm warns on install); it runs unchanged on Node 20.19+.
//
// Set-up. This process runs the emulator and the 24 talkers: sdkpp clients on the native engine, each with
// a WAV file of a gliding tone as its microphone. The forwarding unit copies their packets to the measured
// client only (see below), so the talkers decode next to nothing. The measured client runs alone in
// a child process (bench/lib/mainThreadSdk.ts, bench/lib/mainThreadDiscordjs.ts), one after the other, each
// joining the same call as the 25th participant; the talkers restart their file once it is in the DAVE
// group (a second of silence, then talk), so that they announce themselves speaking (op 5) to it, as
// @discordjs/voice needs to map their SSRCs to users. The child waits 3 s after that, then measures 6 s.
// @discordjs/voice only connects to wss:// voice endpoints: its bot is handed a TLS front (bench/lib/
// tlsFront.ts, in this process) that pipes to the emulator's voice gateway, so it pays the TLS of its
// voice WebSocket (a few messages a second), as on the platform. What each child checked (speakers decoded,
// what it heard, packets the emulator forwarded to it and took from it during the window) and its process's
// CPU time over the window (every thread, so the native engine's own threads too) go to stderr; a run whose
// checks fail (under 80 % of the packets either way, fewer than the 24 speakers decoded at 80 %,
// silence heard)
// reports no line.
//
//   call-main-thread-25-cpu the main thread's own CPU time over the same window, ms per second (Linux'
//                           /proc/self/task/<pid>/schedstat; not reported elsewhere), native engine against
//                           the same peer. Event-loop utilisation counts a callback's wall time, so on a
//                           loaded machine it also counts the time the thread waited for a CPU; this line
//                           does not, and stays steadier from run to run. Both are printed per client on
//                           stderr, with the time the thread was runnable but waiting.
//
// Two things keep the 24 talkers (who would be on machines of their own) from weighing on what is measured:
// their native transports each ask for a real-time (SCHED_FIFO) thread, which a bench run as root gets, and
// which would preempt the measured client, so once they run every thread of this process is put back on the
// normal class (chrt); and the emulator forwards nothing to them (its blockForwarding test hook) but for
// 25 ms each second, a trickle that keeps the SDK's inbound-audio watchdog from taking the silence for a
// broken path and reconnecting them.
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import type { Call } from '../packages/sdkpp/src/index.js';
import { startEmulator, type Emulator } from '../packages/emulator/src/index.js';
import {
  accessTokenOf,
  connected,
  linkAndConnect,
  sameEpoch,
  until,
  writeTalkWav,
  type BenchPlayer,
} from './lib/callSetup.js';
import type { ChildConfig, ToChild, ToParent, WindowResult } from './lib/mainThreadIpc.js';
import { DISCORDJS_OPUS_NODE_PATH } from './lib/peerOpus.js';
import { report, result } from './lib/report.js';
import { startTlsFront, type TlsFront } from './lib/tlsFront.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TALKERS = 24;
const LOBBY_SECRET = 'bench-main-thread';
const WARMUP_MS = 3000;
const WINDOW_MS = 6000;
/** The whole bench stops after this, whatever hangs. */
const BENCH_DEADLINE_MS = 150_000;
/** The nice value of this process's threads once the talkers run (see yieldToTheMeasuredClient). */
const TALKER_NICE = 0;
const PEER = '@discordjs/voice 0.19 (+ @discordjs/opus, davey)';

type Kind = 'native' | 'native-callbacks' | 'js' | 'discordjs';

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const deadline = setTimeout(() => {
  log(`mainThread: not done after ${BENCH_DEADLINE_MS / 1000} s; stopping`);
  process.exit(1);
}, BENCH_DEADLINE_MS);
deadline.unref();

/** The talkers' set-up: their players and calls, the lobby, and how to stop the forwarding trickle. */
interface Talkers {
  players: BenchPlayer[];
  calls: Call[];
  lobbyId: string;
  stopTrickle(): void;
}

/**
 * The 24 talkers: linked, in the lobby, in the call (all in one DAVE epoch), forwarding to them blocked but
 * for 25 ms each second. That trickle of the others' audio is for the SDK's inbound-audio watchdog: a client
 * that gets no audio for 2.5 s while others speak takes its path for broken and reconnects its voice
 * connection (which a blocked forwarding looks like).
 */
async function talkers(emulator: Emulator, wav: string): Promise<Talkers> {
  const players: BenchPlayer[] = [];
  for (const user of emulator.users.slice(0, TALKERS))
    players.push(await linkAndConnect(emulator, user, 'native'));
  let lobbyId = '';
  for (const player of players) lobbyId = await player.client.createOrJoinLobby(LOBBY_SECRET);
  for (const player of players) await player.client.setInputDevice(`wav-in:${wav}`);
  const calls = players.map((player) => player.client.startCall(lobbyId));
  for (const call of calls) await connected(call, 30_000);
  await sameEpoch(calls, 30_000);
  const block = (blocked: boolean): void => {
    for (const player of players) emulator.voice.blockForwarding(player.user.id, blocked, lobbyId);
  };
  block(true);
  let reblock: NodeJS.Timeout | undefined;
  const trickle = setInterval(() => {
    block(false);
    reblock = setTimeout(() => {
      block(true);
    }, 25);
  }, 1000);
  return {
    players,
    calls,
    lobbyId,
    stopTrickle() {
      clearInterval(trickle);
      clearTimeout(reblock);
    },
  };
}

/**
 * Puts every thread of this process (the emulator and the talkers: their native transports ask for a
 * real-time SCHED_FIFO thread each, which they get when the bench runs as root) on the normal scheduling
 * class at nice 10, so that the load of the 24 other players, who would be on their own machines, does not
 * preempt the measured client. Linux with chrt (util-linux); elsewhere nothing changes. Returns how many
 * threads ran real-time before.
 */
function yieldToTheMeasuredClient(): number {
  let realtime = 0;
  let tids: string[] = [];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  for (const tid of tids) {
    try {
      const policy = spawnSync('chrt', ['-p', tid], { encoding: 'utf8', timeout: 2000 }).stdout;
      if (/SCHED_FIFO|SCHED_RR/.test(policy)) {
        realtime += 1;
        spawnSync('chrt', ['-o', '-p', '0', tid], { timeout: 2000 });
      }
      setPriority(Number(tid), TALKER_NICE);
    } catch {
      // A thread that ended meanwhile, or no permission: it keeps its class.
    }
  }
  return realtime;
}

/** Resolves with the child's next message of `type`; rejects on an error message, its exit or `timeoutMs`. */
function expectMessage<T extends ToParent['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
): Promise<Extract<ToParent, { type: T }>> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: ToParent): void => {
      if (message.type === 'error') {
        done();
        reject(new Error(`the measured client failed: ${message.message}`));
      } else if (message.type === type) {
        done();
        resolve(message as Extract<ToParent, { type: T }>);
      }
    };
    const onExit = (code: number | null): void => {
      done();
      reject(new Error(`the measured client exited (${String(code)}) before '${type}'`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the measured client sent no '${type}' within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/**
 * The packets the emulator forwarded to `userId` and took from them so far, the packets it took from the
 * others (the talkers), and this process's event-loop utilisation (it runs the emulator and the talkers).
 */
function packetsOf(
  emulator: Emulator,
  lobbyId: string,
  userId: string,
): { to: number; from: number; talkers: number; elu: EventLoopUtilization } {
  const call = emulator.voice.calls().find((c) => c.lobbyId === lobbyId);
  const voice = call?.participants.find((p) => p.userId === userId)?.voice;
  const talkers = (call?.participants ?? [])
    .filter((p) => p.userId !== userId)
    .reduce((sum, p) => sum + (p.voice?.packetsFromClient ?? 0), 0);
  return {
    to: voice?.packetsToClient ?? 0,
    from: voice?.packetsFromClient ?? 0,
    talkers,
    elu: performance.eventLoopUtilization(),
  };
}

/** A measured client that did not get into the call's DAVE group: tried once more (see below). */
class JoinFailure extends Error {}

/** Runs one measured client in its own process and returns what it measured (checks done). */
async function measure(
  kind: Kind,
  setup: {
    emulator: Emulator;
    lobbyId: string;
    calls: Call[];
    players: BenchPlayer[];
    /** The talkers' file, and the measured client's (longer: it plays from the client's join). */
    wav: string;
    ownWav: string;
  },
  secrets: { accessToken: string; front: TlsFront },
): Promise<WindowResult> {
  const { emulator, lobbyId, calls, players, wav, ownWav } = setup;
  const forked = performance.now();
  const script = path.join(HERE, 'lib', kind === 'discordjs' ? 'mainThreadDiscordjs.ts' : 'mainThreadSdk.ts');
  const child = fork(script, kind === 'discordjs' ? [] : [kind], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      ...(kind === 'discordjs'
        ? { NODE_PATH: DISCORDJS_OPUS_NODE_PATH, NODE_EXTRA_CA_CERTS: secrets.front.caFile }
        : {}),
    },
  });
  child.stdout?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const send = (message: ToChild): void => {
    child.send(message);
  };
  try {
    const config: ChildConfig = {
      api: emulator.api,
      http: emulator.http,
      gateway: emulator.gateway,
      applicationId: emulator.applicationId,
      token: kind === 'discordjs' ? emulator.botToken : secrets.accessToken,
      lobbyId,
      lobbySecret: LOBBY_SECRET,
      wav: ownWav,
      voiceEndpoint: secrets.front.endpoint,
      warmupMs: WARMUP_MS,
      windowMs: WINDOW_MS,
    };
    send({ type: 'start', config });
    const ready = await expectMessage(child, 'ready', 40_000).catch((error: unknown) => {
      throw new JoinFailure(error instanceof Error ? error.message : String(error));
    });
    const readyAt = performance.now();
    // Everyone on the epoch that added the measured client.
    const digits = (code: string): string => code.replace(/\D/g, '');
    await until(
      () => calls.every((call) => digits(call.getPrivacyCode()) === digits(ready.privacyCode)),
      20_000,
      `the talkers on the measured client's DAVE epoch (its code ${ready.privacyCode})`,
    );
    const talkerIds = new Set(players.map((p) => p.user.id));
    const measured = emulator.voice
      .calls()
      .find((c) => c.lobbyId === lobbyId)
      ?.participants.find((p) => !talkerIds.has(p.userId))?.userId;
    if (!measured) throw new Error('the measured client is not in the call');
    log(
      `call-main-thread-25 ${kind}: in the DAVE group ${((readyAt - forked) / 1000).toFixed(1)} s after its ` +
        `process started, the talkers on its epoch ${((performance.now() - readyAt) / 1000).toFixed(1)} s later`,
    );
    // The talkers start their file again: a second of silence, then talk, announced with op 5 to everyone.
    for (const player of players) await player.client.setInputDevice(`wav-in:${wav}`);
    send({ type: 'go' });
    let start = packetsOf(emulator, lobbyId, measured);
    child.on('message', (message: ToParent) => {
      if (message.type === 'edge' && message.edge === 'start') start = packetsOf(emulator, lobbyId, measured);
    });
    const edgeEnd = expectMessage(child, 'edge', WARMUP_MS + WINDOW_MS + 20_000).then(async (first) => {
      // The first 'edge' is the start; wait for the end.
      if (first.edge === 'start') await expectMessage(child, 'edge', WINDOW_MS + 10_000);
      return packetsOf(emulator, lobbyId, measured);
    });
    const outcome = await expectMessage(child, 'result', WARMUP_MS + WINDOW_MS + 20_000);
    const end = await edgeEnd;
    const frames = WINDOW_MS / 20;
    const to = end.to - start.to;
    const from = end.from - start.from;
    const talked = end.talkers - start.talkers;
    const hostBusy = performance.eventLoopUtilization(end.elu, start.elu).utilization * 1000;
    // The window counts only when the client really had the 24 streams to take in and kept its own going:
    // 80 % of the packets each way at least. A client that falls behind sends less (seen with the JS engine
    // on a loaded machine), so its figure understates its cost; under 95 % it says so.
    const packetsOk = to >= 0.8 * TALKERS * frames && from >= 0.8 * frames;
    if (to < 0.95 * TALKERS * frames || from < 0.95 * frames) {
      log(
        `call-main-thread-25 ${kind}: fewer packets than the call carries: its figure does less than the full work`,
      );
    }
    const { msPerS, cpuMsPerS, mainCpuMsPerS, mainWaitMsPerS, detail } = outcome.result;
    log(
      `call-main-thread-25 ${kind}: main thread ${msPerS.toFixed(1)} ms/s busy (on a CPU ${mainCpuMsPerS.toFixed(1)} ` +
        `ms/s, runnable but waiting for one ${mainWaitMsPerS.toFixed(1)} ms/s), process CPU ${cpuMsPerS.toFixed(0)} ms/s ` +
        `(all threads); in the window the emulator forwarded ${to} packets to it (${TALKERS} × ${frames} sent) ` +
        `and took ${from} from it (${frames}) and ${talked} from the talkers (${TALKERS} × ${frames}); the ` +
        `emulator's and talkers' process was busy ${hostBusy.toFixed(0)} ms/s; ${detail}`,
    );
    send({ type: 'leave' });
    await expectMessage(child, 'left', 10_000);
    await until(
      () => emulator.voice.calls().find((c) => c.lobbyId === lobbyId)?.participants.length === TALKERS,
      10_000,
      'the measured client out of the call',
    );
    if (!outcome.result.ok || !packetsOk)
      throw new Error(`call-main-thread-25 ${kind}: a check failed (see above)`);
    return outcome.result;
  } finally {
    if (child.exitCode === null) {
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }
}

if (!existsSync(path.join(DISCORDJS_OPUS_NODE_PATH, '@discordjs', 'opus', 'index.js'))) {
  throw new Error(
    'call-main-thread-25 needs @discordjs/opus built from its npm tarball: run node scripts/bench-peers.mjs ' +
      '(npm run bench does) — without it prism-media would fall back to opusscript, a slower peer than the real one',
  );
}
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-bench-main-thread-'));
const wav = path.join(dir, 'talk.wav');
const ownWav = path.join(dir, 'own.wav');
// Long enough for the join, the warm-up, the window and the check after it, from each restart of the file.
writeTalkWav(wav, { leadInMs: 1000, seconds: 20 });
writeTalkWav(ownWav, { leadInMs: 0, seconds: 60 });
const emulator = await startEmulator({ port: 0, users: TALKERS + 1, autoConsent: true });
let setup: Talkers | undefined;
let front: TlsFront | undefined;
try {
  const started = performance.now();
  setup = await talkers(emulator, wav);
  const measuredUser = emulator.users[TALKERS];
  if (!measuredUser) throw new Error('the emulator has no 25th user');
  const accessToken = await accessTokenOf(emulator, measuredUser);
  front = await startTlsFront(emulator.voice.endpoint);
  const realtime = yieldToTheMeasuredClient();
  log(
    `mainThread: ${TALKERS} talkers in the call after ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
      `this process's threads now at nice ${TALKER_NICE}, none real-time (${realtime} were)`,
  );
  const figures: Partial<Record<Kind, number>> = {};
  const cpu: Partial<Record<Kind, number>> = {};
  for (const kind of ['native', 'native-callbacks', 'js', 'discordjs'] as const) {
    const run = (): Promise<WindowResult> =>
      measure(
        kind,
        { emulator, wav, ownWav, ...(setup as Talkers) },
        { accessToken, front: front as TlsFront },
      );
    // A join that never settles in one DAVE epoch (seen once in a dozen @discordjs/voice joins on a loaded
    // machine) is tried once more, and said so; a failed check after the window is not.
    const measured = await run().catch(async (error: unknown) => {
      if (!(error instanceof JoinFailure)) throw error;
      log(`call-main-thread-25 ${kind}: the join failed (${error.message}); trying once more`);
      await until(
        () =>
          emulator.voice.calls().find((c) => c.lobbyId === setup?.lobbyId)?.participants.length === TALKERS,
        15_000,
        'the failed client out of the call',
      );
      return run();
    });
    figures[kind] = measured.msPerS;
    cpu[kind] = measured.mainCpuMsPerS;
  }
  const peer = figures.discordjs ?? Number.NaN;
  report(result('call-main-thread-25', 'ms/s', figures.native ?? Number.NaN, PEER, peer));
  report(
    result('call-main-thread-25-callbacks', 'ms/s', figures['native-callbacks'] ?? Number.NaN, PEER, peer),
  );
  report(result('call-main-thread-25-js', 'ms/s', figures.js ?? Number.NaN, PEER, peer));
  // The main thread's own CPU time (Linux), which a loaded machine does not inflate as it does busy time.
  if (Number.isFinite(cpu.native) && Number.isFinite(cpu.discordjs)) {
    report(
      result('call-main-thread-25-cpu', 'ms/s', cpu.native ?? Number.NaN, PEER, cpu.discordjs ?? Number.NaN),
    );
  }
} finally {
  setup?.stopTrickle();
  await Promise.all(setup?.players.map((p) => p.client.destroy()) ?? []);
  await front?.close();
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
}

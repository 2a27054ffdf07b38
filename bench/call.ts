// Lobby calls end to end against the local emulator over loopback (the emulator runs in this process, as in
// the integration tests; its forwarding adds no delay, no impairment is set; DAVE is on, as calls are
// end-to-end encrypted only). One JSON line per result: {"name","unit","value","peer","peerValue","ratio"}.
// Every result is a time in ms: `value` with both players' clients on the native media engine, `peer` /
// `peerValue` the same with both on the JS engine (as mix-25 in bench/audio.ts compares the two engines),
// so ratio = js / native. Run: npx tsx bench/call.ts, or npm run bench -- call
//
//   call-join          median over 15 joins of the time from `client.startCall(lobbyId)` to the Call's status
//                      Connected, for a player joining a lobby call another player is already in (that
//                      one joined first and stays). It covers op 17 → LOBBY_VOICE_SERVER_UPDATE, the voice
//                      gateway (Hello, Identify, Ready), UDP IP discovery, Select Protocol and the Session
//                      Description. Connected comes at the session description, before the DAVE group has
//                      added the joiner: the SDK sends its key package then and holds media back until keys
//                      arrive.
//   call-join-p95      the 95th percentile of the same (nearest rank: the slowest but one of 15).
//   call-join-e2ee     median of the time from startCall to both players showing the same non-empty privacy
//   call-join-e2ee-p95 code, i.e. to the end of the DAVE MLS add (key package, external Add proposal, the
//                      member's commit and the joiner's Welcome, both on the new epoch): when media can cross
//                      end-to-end encrypted. Polled every millisecond or so. Its 95th percentile beside.
//   mouth-to-ear       median over 20 tone bursts of the latency the SDK adds from one player's microphone to
//   mouth-to-ear-p95   the other's ear, jitter buffer included, and its 95th percentile. Player A's input
//                      device is `wav-in:` a WAV file of 100 ms 1 kHz bursts, one every 600 ms, each starting
//                      on a 20 ms frame boundary. t0 is when A's audio pump reads a burst's first frame from
//                      the input: the `captured` callback of startCallWithAudioCallbacks sees that frame in the
//                      same pump tick, just before it is handed to the transport (pushPcm). t1 is when
//                      player B's per-user `received` callback first sees a loud frame of A's after a pause:
//                      the pump tick that pulled it from the transport's per-speaker queue. The latency is
//                      t1 − t0. Between them: A's send queue (the pump keeps step with A's transport and
//                      reads the input about 5 ms before each of its 20 ms ticks, which sends the frame),
//                      Opus encode, DAVE and transport encryption, loopback UDP to the emulator's forwarding
//                      unit and back out, B's decryption, B's jitter buffer (each burst is a new talk spurt:
//                      playout starts when the buffer holds its target of one frame), the wait for B's
//                      transport tick that decodes it, then B's pump, which pulls about 4 ms after each of
//                      B's ticks. Not counted: the Opus codec's own delay inside the frame (the onset sits a
//                      few ms into B's frame, printed on stderr) and B's playout queue after the callback.
//                      The targets are a median of 40 ms or less and a 95th percentile of 50 ms or less
//                      (issue 35). The two transports tick on their own clocks, at a phase that stays put
//                      within a run but differs between runs: the wait for B's tick is 0–20 ms, so one run's
//                      bursts cluster at one value, and runs differ by up to 20 ms.
//   mouth-to-ear-after-stall  the median over the next 20 bursts, after the main JS thread was blocked once
//                      for 100 ms between two bursts (a game's frame hitch). Whatever queue a stall leaves
//                      behind on the way shows here; a pipeline that recovers reads as mouth-to-ear again.
//                      Stalls of the event loop that happen on their own (garbage collection, the emulator's
//                      work in this process) weigh on the first 20 bursts the same way; the per-burst
//                      latencies are printed on stderr.
// Details (sample counts, the phase of the onset inside B's frame, missed bursts) go to stderr.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { CallStatus, type Call, type MediaEnginePreference } from '../packages/sdkpp/src/index.js';
import {
  connected,
  peak,
  playersInALobby,
  quantile,
  sameEpoch,
  until,
  writeBurstWav,
} from './lib/callSetup.js';
import { report, result } from './lib/report.js';

const JOINS = 15;
const BURSTS = 40;
/** How long the main thread is blocked once, halfway through the bursts. */
const STALL_MS = 100;
const BURST = { leadInFrames: 100, bursts: BURSTS, burstFrames: 5, periodFrames: 30, hz: 1000 };
/** A frame is loud above this peak, quiet below QUIET (the bursts peak at 12000). */
const LOUD = 3000;
const QUIET = 1000;
const ENGINES = ['native', 'js'] as const satisfies readonly MediaEnginePreference[];

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
const ms = (value: number): string => value.toFixed(1);

/** The times of one engine's joins, in ms from startCall: each status reached, and the shared DAVE epoch. */
interface JoinTimes {
  connecting: number[];
  signaling: number[];
  connected: number[];
  e2ee: number[];
}

/** Join times of one engine. */
async function joins(engine: MediaEnginePreference): Promise<JoinTimes> {
  const lobby = await playersInALobby(2, engine);
  try {
    const [host, joiner] = lobby.players;
    if (!host || !joiner) throw new Error('two players expected');
    const hostCall = host.client.startCall(lobby.lobbyId);
    await connected(hostCall);
    const out: JoinTimes = { connecting: [], signaling: [], connected: [], e2ee: [] };
    // One join first that is not counted: it loads and compiles the voice and MLS code paths.
    for (let round = -1; round < JOINS; round++) {
      const start = performance.now();
      const call: Call = joiner.client.startCall(lobby.lobbyId);
      const reached = new Map<CallStatus, number>();
      call.on('statusChanged', (status) => {
        if (!reached.has(status)) reached.set(status, performance.now() - start);
      });
      await connected(call);
      await sameEpoch([hostCall, call]);
      const e2ee = performance.now() - start;
      if (round >= 0) {
        out.connecting.push(reached.get(CallStatus.Connecting) ?? Number.NaN);
        out.signaling.push(reached.get(CallStatus.SignalingConnected) ?? Number.NaN);
        out.connected.push(reached.get(CallStatus.Connected) ?? Number.NaN);
        out.e2ee.push(e2ee);
      }
      await joiner.client.endCall(lobby.lobbyId);
      await until(() => hostCall.getParticipants().length === 1, 10_000, 'the host alone in the call');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return out;
  } finally {
    await lobby.close();
  }
}

/** Mouth-to-ear latencies of one engine, in ms, per burst heard: before and after one main-thread stall. */
async function mouthToEar(engine: MediaEnginePreference): Promise<{ before: number[]; after: number[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-bench-call-'));
  const wav = path.join(dir, 'bursts.wav');
  writeBurstWav(wav, BURST);
  const lobby = await playersInALobby(2, engine);
  try {
    const [alice, bob] = lobby.players;
    if (!alice || !bob) throw new Error('two players expected');
    // The WAV input is read (and converted) whole when it is set, which blocks the thread for a while: done
    // before the calls start, so that its stall is not part of what is measured. The file plays from when
    // Alice's call connects; its silent lead-in covers the DAVE handshake.
    await alice.client.setInputDevice(`wav-in:${wav}`);
    const sent: number[] = [];
    let quietBefore = true;
    const aliceCall = alice.client.startCallWithAudioCallbacks(
      lobby.lobbyId,
      () => undefined,
      (samples) => {
        const level = peak(samples);
        if (level >= LOUD && quietBefore) sent.push(performance.now());
        quietBefore = level < QUIET;
      },
    );
    const heard: number[] = [];
    const offsets: number[] = [];
    let lastLoud = -Infinity;
    const bobCall = bob.client.startCallWithAudioCallbacks(
      lobby.lobbyId,
      (userId, samples) => {
        if (userId !== alice.user.id) return;
        const now = performance.now();
        if (peak(samples) < LOUD) return;
        // A new burst: nothing loud from Alice for longer than a burst lasts.
        if (now - lastLoud > 250) {
          heard.push(now);
          offsets.push(samples.findIndex((s) => Math.abs(s) >= QUIET) / 2);
        }
        lastLoud = now;
      },
      () => undefined,
    );
    await connected(aliceCall);
    await connected(bobCall);
    await sameEpoch([aliceCall, bobCall]);
    const fileMs = (BURST.leadInFrames + BURST.bursts * BURST.periodFrames) * 20;
    // Halfway, between two bursts, the main thread is blocked once, as a game's frame hitch would.
    await until(() => sent.length >= BURSTS / 2, fileMs + 5000, 'half of the bursts captured');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stallStart = performance.now();
    while (performance.now() < stallStart + STALL_MS) {
      // busy: nothing else runs on this thread meanwhile
    }
    await until(() => sent.length >= BURSTS, fileMs + 5000, 'every burst captured');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Each burst heard belongs to the latest burst read before it (bursts are 600 ms apart).
    const latencies = sent.map((t0, i) => {
      const next = sent[i + 1] ?? Infinity;
      const t1 = heard.find((t) => t >= t0 && t < next);
      return t1 === undefined ? Number.NaN : t1 - t0;
    });
    const heardOf = (from: number, to: number): number[] =>
      latencies.filter((v, i) => !Number.isNaN(v) && (sent[i] as number) >= from && (sent[i] as number) < to);
    const before = heardOf(0, stallStart);
    const after = heardOf(stallStart, Infinity);
    log(
      `mouth-to-ear ${engine}: ${before.length + after.length} of ${sent.length} bursts heard; per burst ` +
        `(ms): ${latencies.map((v) => v.toFixed(0)).join(' ')}; the onset sits ` +
        `${ms(quantile(offsets, 0.5) / 48)} ms into B's frame (Opus delay)`,
    );
    if (before.length < BURSTS / 4 || after.length < BURSTS / 4)
      throw new Error(`only ${before.length} + ${after.length} bursts were heard`);
    return { before, after };
  } finally {
    await lobby.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const join = { native: await joins('native'), js: await joins('js') };
for (const engine of ENGINES) {
  const j = join[engine];
  const median = (values: number[]): string => ms(quantile(values, 0.5));
  log(
    `call-join ${engine} (${j.connected.length} joins), medians from startCall: Connecting (server update) ` +
      `${median(j.connecting)}, SignalingConnected (voice Ready) ${median(j.signaling)}, Connected ` +
      `(IP discovery + session description) ${median(j.connected)}, same DAVE epoch ${median(j.e2ee)} ms; ` +
      `p95 Connected ${ms(quantile(j.connected, 0.95))}, epoch ${ms(quantile(j.e2ee, 0.95))} ms`,
  );
}
const peer = 'sdkpp JS engine';
const both = (name: string, pick: (engine: (typeof ENGINES)[number]) => number): void => {
  report(result(name, 'ms', pick('native'), peer, pick('js')));
};
both('call-join', (e) => quantile(join[e].connected, 0.5));
both('call-join-p95', (e) => quantile(join[e].connected, 0.95));
both('call-join-e2ee', (e) => quantile(join[e].e2ee, 0.5));
both('call-join-e2ee-p95', (e) => quantile(join[e].e2ee, 0.95));

const ear = { native: await mouthToEar('native'), js: await mouthToEar('js') };
both('mouth-to-ear', (e) => quantile(ear[e].before, 0.5));
both('mouth-to-ear-p95', (e) => quantile(ear[e].before, 0.95));
both('mouth-to-ear-after-stall', (e) => quantile(ear[e].after, 0.5));

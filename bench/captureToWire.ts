// How long a sound takes from the microphone to the network, on a real sound server (PulseAudio in user mode
// with virtual devices, as in test/integration/systemAudio.test.ts; `pulseaudio` and `pulseaudio-utils` must
// be installed, which `npm test` does as root). One JSON line per result, in ms (lower is better):
//
//   capture-to-wire       median over 20 clicks of the time from a click entering the capture device to the
//   capture-to-wire-p95   first packet of its transmission leaving the voice socket, and the 95th percentile.
//                         The click (60 ms of 1 kHz at −12 dBFS after 800 ms of silence) is written to a
//                         `pacat` playing into a null sink at 5 ms latency, whose monitor is Alice's
//                         microphone; t0 is the write. t1 is `call.getTransportStats().lastSpurtStartUs`, the
//                         moment the transport thread sent the first voice packet after silence (the same
//                         monotonic clock). Between them: PulseAudio's playback and the monitor's fragment,
//                         miniaudio's capture period (10 ms), the SDK's capture ring and audio pump (20 ms
//                         ticks on the JS thread), the transport's send ring and tick, VAD, Opus, DAVE and the
//                         transport seal. Alice and Bob are in a DAVE call through the emulator, in this process.
//   capture-to-wire-stalled  the median when the JavaScript thread is kept busy for 100 ms right after each
//                         click is written (a game's frame hitch): the system devices are linked to the
//                         transport's own thread (nothing on the JS thread needs their audio here), so the
//                         click leaves on time; the peer's audio waits for the thread.
//   capture-to-wire-processed, capture-to-wire-processed-stalled  the same with echo cancellation, noise
//                         suppression and gain control on (the default for a system microphone): the SDK runs
//                         them on its processing worker between the devices and the transport's thread; the
//                         peer runs them on the JavaScript thread, where pushAudioInput's audio is.
//   peer: the same microphone through `parec` (pulseaudio-utils, 10 ms latency) piped into
//         `client.pushAudioInput(…, { microphone: true })`: how a Node game captures audio without
//         system devices of its own (a recorder process or a capture package writing raw PCM to a stream).
//
// Run: npx tsx bench/captureToWire.ts, or npm run bench -- captureToWire
import { spawn, type ChildProcess } from 'node:child_process';

import type { Call } from '../packages/sdkpp/src/index.js';
import { startPulseServer, type PulseServer } from '../test/integration/pulseServer.js';
import { connected, playersInALobby, quantile, sameEpoch, until, type BenchLobby } from './lib/callSetup.js';
import { report, result } from './lib/report.js';

const CLICKS = 20;
const GAP_MS = 800;
const CLICK_MS = 60;
/** The JavaScript thread's stall after each click in the -stalled variant. */
const STALL_MS = 100;

function click(): Buffer {
  const frames = (48_000 * CLICK_MS) / 1000;
  const pcm = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i++) {
    const v = Math.round(8000 * Math.sin((2 * Math.PI * 1000 * i) / 48_000));
    pcm.writeInt16LE(v, i * 4);
    pcm.writeInt16LE(v, i * 4 + 2);
  }
  return pcm;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * Clicks into the microphone's feed and returns each click's capture-to-wire time in ms. `stallMs`: the
 * JavaScript thread is then kept busy that long (a game's frame hitch, a garbage collection).
 */
async function measure(pulse: PulseServer, call: Call, stallMs = 0): Promise<number[]> {
  const player = spawn(
    'pacat',
    [
      '--playback',
      '--device=alice_mic_feed',
      '--latency-msec=5',
      '--raw',
      '--format=s16le',
      '--rate=48000',
      '--channels=2',
    ],
    { env: { ...process.env, PULSE_SERVER: pulse.server }, stdio: ['pipe', 'ignore', 'ignore'] },
  );
  const latencies: number[] = [];
  try {
    await sleep(1500); // the stream and the call settle
    const pcm = click();
    for (let i = 0; i < CLICKS; i++) {
      const before = call.getTransportStats()?.lastSpurtStartUs ?? 0;
      const t0 = nowUs();
      player.stdin?.write(pcm);
      for (const end = performance.now() + stallMs; performance.now() < end;);
      try {
        await until(
          () => (call.getTransportStats()?.lastSpurtStartUs ?? 0) > before,
          2000,
          'the click on the wire',
        );
        latencies.push(((call.getTransportStats()?.lastSpurtStartUs ?? 0) - t0) / 1000);
      } catch {
        process.stderr.write(`click ${i}: no transmission within 2 s\n`);
      }
      await sleep(GAP_MS);
    }
  } finally {
    player.kill();
  }
  return latencies;
}

async function main(): Promise<void> {
  const pulse = await startPulseServer();
  process.env.PULSE_SERVER = pulse.server;
  pulse.addMicrophone('alice_mic', 'Bench-Mic');
  pulse.addSink('room', 'Bench-Speaker');
  let lobby: BenchLobby | undefined;
  let recorder: ChildProcess | undefined;
  try {
    lobby = await playersInALobby(2, 'native');
    const [alice, bob] = lobby.players;
    if (!alice || !bob) throw new Error('two players expected');
    const aliceCall = alice.client.startCall(lobby.lobbyId);
    const bobCall = bob.client.startCall(lobby.lobbyId);
    await connected(aliceCall);
    await connected(bobCall);
    await sameEpoch([aliceCall, bobCall]);

    recorder = spawn(
      'parec',
      ['--device=alice_mic', '--latency-msec=10', '--raw', '--format=s16le', '--rate=48000', '--channels=2'],
      { env: { ...process.env, PULSE_SERVER: pulse.server }, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const client = alice.client;
    recorder.stdout?.on('data', (chunk: Buffer) => {
      const samples = new Int16Array(chunk.buffer, chunk.byteOffset, Math.floor(chunk.length / 2));
      client.pushAudioInput(samples.slice(), 48_000, 2, { microphone: true });
    });
    const processing = async (on: boolean): Promise<void> => {
      await client.setEchoCancellation(on);
      await client.setNoiseSuppression(on);
      await client.setAutomaticGainControl(on);
    };
    await processing(false);
    const peer = await measure(pulse, aliceCall);
    const peerStalled = await measure(pulse, aliceCall, STALL_MS);
    await processing(true);
    const peerProcessed = await measure(pulse, aliceCall);
    const peerProcessedStalled = await measure(pulse, aliceCall, STALL_MS);
    // The peer first, on the fresh call; then its recorder stops and the SDK's own device takes over.
    recorder.stdout?.removeAllListeners('data');
    recorder.kill();
    await alice.client.setInputDevice('pulseaudio:alice_mic');
    const oursProcessed = await measure(pulse, aliceCall);
    const oursProcessedStalled = await measure(pulse, aliceCall, STALL_MS);
    await processing(false);
    const ours = await measure(pulse, aliceCall);
    const oursStalled = await measure(pulse, aliceCall, STALL_MS);

    const peerName = 'parec piped into pushAudioInput';
    const line = (name: string, mine: number[], theirs: number[], q = 0.5): void => {
      process.stderr.write(`${name} ours (ms): ${mine.map((v) => v.toFixed(1)).join(' ')}\n`);
      process.stderr.write(`${name} peer (ms): ${theirs.map((v) => v.toFixed(1)).join(' ')}\n`);
      report(result(name, 'ms', quantile(mine, q), peerName, quantile(theirs, q)));
    };
    line('capture-to-wire', ours, peer);
    line('capture-to-wire-p95', ours, peer, 0.95);
    line('capture-to-wire-stalled', oursStalled, peerStalled);
    line('capture-to-wire-processed', oursProcessed, peerProcessed);
    line('capture-to-wire-processed-p95', oursProcessed, peerProcessed, 0.95);
    line('capture-to-wire-processed-stalled', oursProcessedStalled, peerProcessedStalled);
  } finally {
    recorder?.stdout?.removeAllListeners('data');
    recorder?.kill();
    await lobby?.close();
    await pulse.stop();
  }
}

await main();

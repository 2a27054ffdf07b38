// Send pacing while the JS thread stalls (issue 5's pacing-under-stall), in ms, lower is better:
//   pacing-under-stall  p99 of |packet interval − 20 ms| at a UDP receiver over 10 s of voice, while the main
//                       JS thread busy-waits 100 ms every 500 ms: our native transport thread vs the JS
//                       engine's timer-driven transport doing the same pipeline (capture, Opus, seal, send).
//   pacing-under-stall-p50, pacing-under-stall-max   the median and the largest deviation of the same run.
//   pacing-under-load, -p50, -max   the same while another process busy-loops on one of the cores
//                       (issue 18: a game's own threads or a browser next to it).
// The receiver runs in a worker thread with its own event loop, so the stalls do not touch its timestamps.
// The sender's send ring (320 ms) is topped up before each stall, as an application feeding audio ahead
// would; what is measured is only whether the packets leave on time.
// Run: npx tsx bench/pacing.ts
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

import { createMediaEngine, VOICE_FRAME_SAMPLES, type MediaEngineKind } from '../src/media/index.js';
import { report, result } from './lib/report.js';

const RUN_MS = 10_000;
const STALL_EVERY_MS = 500;
const STALL_MS = 100;
const TICK_MS = 20;

// The receiver asks for nice -10 (best effort; on Linux this applies to its own thread only), so that a
// busy machine delays the instrument less than it delays the senders under test.
const RECEIVER = `
const dgram = require('node:dgram');
const os = require('node:os');
const { parentPort } = require('node:worker_threads');
let niced = true;
try { os.setPriority(-10); } catch { niced = false; }
const socket = dgram.createSocket('udp4');
const arrivals = [];
socket.on('message', () => arrivals.push(Number(process.hrtime.bigint()) / 1e6));
socket.bind(0, '127.0.0.1', () => parentPort.postMessage({ port: socket.address().port, niced }));
parentPort.on('message', () => {
  socket.close();
  parentPort.postMessage({ arrivals });
});
`;

function tone(frames: number): Int16Array {
  const pcm = new Int16Array(frames * VOICE_FRAME_SAMPLES);
  for (let i = 0; i < pcm.length / 2; i++) {
    const sample = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 48000));
    pcm[2 * i] = sample;
    pcm[2 * i + 1] = sample;
  }
  return pcm;
}

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // the JS thread is blocked, as a game's long frame or a synchronous load would block it
  }
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
}

interface Deviations {
  p50: number;
  p99: number;
  max: number;
}

/** The interval deviations in ms of one engine's transport sending under the stall pattern. */
async function measure(kind: MediaEngineKind): Promise<Deviations> {
  const receiver = new Worker(RECEIVER, { eval: true });
  const { port, niced } = await new Promise<{ port: number; niced: boolean }>((resolve) =>
    receiver.once('message', resolve),
  );
  const engine = createMediaEngine({ prefer: kind });
  const transport = engine.createVoiceTransport({
    serverHost: '127.0.0.1',
    serverPort: port,
    bindHost: '127.0.0.1',
    ssrc: 42,
    discover: false,
  });
  transport.setTransportKey('aead_aes256_gcm_rtpsize', new Uint8Array(32).fill(1));
  const pcm = tone(16);
  // Frames queued: what was accepted minus what the sender took (voice frames sent or refused).
  let accepted = 0;
  const queued = (): number => accepted - transport.stats().voiceFramesSent;
  const push = (frames: number): void => {
    accepted += transport.pushPcm(pcm.subarray(0, frames * VOICE_FRAME_SAMPLES));
  };
  await transport.start();
  push(16);
  const feeder = setInterval(() => push(Math.max(0, 16 - queued())), TICK_MS);
  const staller = setInterval(() => {
    push(Math.max(0, 16 - queued()));
    busyWait(STALL_MS);
  }, STALL_EVERY_MS);
  await new Promise((resolve) => setTimeout(resolve, RUN_MS));
  clearInterval(staller);
  clearInterval(feeder);
  await transport.stop();
  const stats = transport.stats();
  receiver.postMessage('stop');
  const arrivals = await new Promise<number[]>((resolve) =>
    receiver.once('message', (m: { arrivals: number[] }) => resolve(m.arrivals)),
  );
  await receiver.terminate();
  // The first packets wait for the first tick and the last for stop(): only the steady run counts.
  const deviations: number[] = [];
  for (let i = 2; i < arrivals.length; i++) {
    deviations.push(Math.abs((arrivals[i] ?? 0) - (arrivals[i - 1] ?? 0) - TICK_MS));
  }
  const value = {
    p50: quantile(deviations, 0.5),
    p99: quantile(deviations, 0.99),
    max: Math.max(...deviations),
  };
  process.stderr.write(
    `${kind}: ${arrivals.length} packets, deviation p50 ${value.p50.toFixed(3)} p99 ${value.p99.toFixed(3)} max ${value.max.toFixed(3)} ms, ` +
      `silence frames ${stats.silenceFramesSent}, late ticks ${stats.lateTicks}, thread priority ${stats.priority}, receiver niced ${niced}\n`,
  );
  return value;
}

const PEER = 'sdkpp JS engine (timer-driven sender)';

function reportAll(name: string, native: Deviations, js: Deviations): void {
  report(result(name, 'ms', native.p99, PEER, js.p99));
  report(result(`${name}-p50`, 'ms', native.p50, PEER, js.p50));
  report(result(`${name}-max`, 'ms', native.max, PEER, js.max));
}

reportAll('pacing-under-stall', await measure('native'), await measure('js'));

// Another process keeps one core busy for both measurements.
const hog = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
try {
  reportAll('pacing-under-load', await measure('native'), await measure('js'));
} finally {
  hog.kill('SIGKILL');
}

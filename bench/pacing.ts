// Send pacing while the JS thread stalls (issue 5's pacing-under-stall), in ms, lower is better:
//   pacing-under-stall  p99 of |packet interval − 20 ms| at a UDP receiver over 10 s of voice, while the main
//                       JS thread busy-waits 100 ms every 500 ms: our native transport thread vs the JS
//                       engine's timer-driven transport doing the same pipeline (capture, Opus, seal, send).
//   pacing-under-stall-p50, pacing-under-stall-max   the median and the largest deviation of the same run.
//   pacing-under-load, -p50, -max   the same while another process busy-loops on one of the cores
//                       (issue 18: a game's own threads or a browser next to it).
//   pacing-wakeup-under-stall, pacing-wakeup-under-load (-p50, -max)   the send loop's own wake-up error
//                       in the same runs: how late each tick began after its deadline, as the transport
//                       measures it (stats().tickLatenessP50Us / P99Us / maxLatenessUs, 10 µs steps).
// The receiver is bench/native/udp_stamps.cc: the kernel's arrival stamps (SO_TIMESTAMPNS), which on loopback
// are the send times, so no receiver's scheduling is in the numbers. The targets are for what an
// unprivileged process gets, so run as root the measurement re-runs itself as `nobody` (uid 65534).
// The sender's send ring (320 ms) is topped up before each stall, as an application feeding audio ahead
// would; what is measured is only whether the packets leave on time.
// Run: npx tsx bench/pacing.ts
import { spawn, spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import {
  createMediaEngine,
  VOICE_FRAME_SAMPLES,
  type MediaEngineKind,
} from '../packages/sdkpp/src/media/index.js';
import { report, result } from './lib/report.js';
import { buildUdpStamps, startUdpStamps } from './lib/udpStamps.js';

const RUN_MS = 10_000;
const STALL_EVERY_MS = 500;
const STALL_MS = 100;
const TICK_MS = 20;
const NOBODY = 65534;

const stampsBinary = buildUdpStamps();
if (process.getuid?.() === 0) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, [...process.execArgv, self, ...process.argv.slice(2)], {
    uid: NOBODY,
    gid: NOBODY,
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

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

interface Measured {
  wire: Deviations;
  wakeup: Deviations;
}

/** The interval deviations in ms of one engine's transport sending under the stall pattern. */
async function measure(kind: MediaEngineKind): Promise<Measured> {
  const receiver = await startUdpStamps(stampsBinary);
  const port = receiver.port;
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
  const arrivals = await receiver.stop();
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
  const wakeup = {
    p50: stats.tickLatenessP50Us / 1000,
    p99: stats.tickLatenessP99Us / 1000,
    max: stats.maxLatenessUs / 1000,
  };
  process.stderr.write(
    `${kind}: ${arrivals.length} packets, deviation p50 ${value.p50.toFixed(3)} p99 ${value.p99.toFixed(3)} max ${value.max.toFixed(3)} ms, ` +
      `silence frames ${stats.silenceFramesSent}, late ticks ${stats.lateTicks}, wake-up p50 ${wakeup.p50} p99 ${wakeup.p99} max ${wakeup.max} ms, ` +
      `thread priority ${stats.priority}\n`,
  );
  return { wire: value, wakeup };
}

const PEER = 'sdkpp JS engine (timer-driven sender)';

function reportAll(name: string, native: Measured, js: Measured): void {
  report(result(name, 'ms', native.wire.p99, PEER, js.wire.p99));
  report(result(`${name}-p50`, 'ms', native.wire.p50, PEER, js.wire.p50));
  report(result(`${name}-max`, 'ms', native.wire.max, PEER, js.wire.max));
  const wakeup = name.replace('pacing-', 'pacing-wakeup-');
  report(result(wakeup, 'ms', native.wakeup.p99, PEER, js.wakeup.p99));
  report(result(`${wakeup}-p50`, 'ms', native.wakeup.p50, PEER, js.wakeup.p50));
  report(result(`${wakeup}-max`, 'ms', native.wakeup.max, PEER, js.wakeup.max));
}

reportAll('pacing-under-stall', await measure('native'), await measure('js'));

// Another process keeps one core busy for both measurements.
const hog = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
try {
  reportAll('pacing-under-load', await measure('native'), await measure('js'));
} finally {
  hog.kill('SIGKILL');
}

// The capture path's voice processing (src/voice/processing), on espeak-ng speech, one JSON line each:
//   apm-aec-erle     dB of echo removed (echo return loss enhancement) by WebRTC's AEC3 from a leak of the
//                    playout at −6 dB, 50 ms, with two reflections; measured once converged. No peer: npm has
//                    no other echo canceller that runs in Node.
//   apm-ns-snr-gain  dB of SNR gained on speech in steady noise at 5 dB SNR (estimatedSnr: speech power less
//                    noise power, over noise power, from the signal alone), ours (@echogarden/rnnoise-wasm)
//                    vs @jitsi/rnnoise-wasm, the build Jitsi Meet ships
//   apm-ns-frame     µs per 10 ms block of noise suppression, ours vs the same Jitsi build
//   apm-frame        µs per 10 ms block with echo cancellation, noise suppression and gain control all on
//                    (our whole chain, through VoiceProcessor as the audio pump calls it); no peer
// Run: npx tsx bench/voiceProcessing.ts
import { synthesizeSpeech } from '../src/emulator/testing/speech.js';
import { echoReturnLossEnhancement, snrGain } from '../src/emulator/testing/voiceMetrics.js';
import { VoiceProcessor } from '../src/voice/processing/VoiceProcessor.js';
import { qualityResult, report, result } from './lib/report.js';

const RATE = 48_000;
const FRAME = 1920;
const BLOCK = 480;
const quiet = { verbose: noop, info: noop, warn: noop, error: noop, secret: noop, child: () => quiet };
function noop(): void {}

function mono(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = ((pcm[2 * i] ?? 0) + (pcm[2 * i + 1] ?? 0)) / 65536;
  return out;
}

/** Mono floats through a processor in 20 ms stereo frames; returns the output and µs per 10 ms block. */
function run(
  processor: VoiceProcessor,
  mic: Float32Array,
  render?: Float32Array,
): { out: Float32Array; us: number } {
  const out = new Float32Array(mic.length);
  const frame = new Int16Array(FRAME);
  const played = new Int16Array(FRAME);
  let ns = 0n;
  let blocks = 0;
  for (let start = 0; start + FRAME / 2 <= mic.length; start += FRAME / 2) {
    for (let i = 0; i < FRAME / 2; i++) {
      const m = Math.round((mic[start + i] ?? 0) * 32767);
      frame[2 * i] = m;
      frame[2 * i + 1] = m;
      const r = Math.round((render?.[start + i] ?? 0) * 32767);
      played[2 * i] = r;
      played[2 * i + 1] = r;
    }
    const t = process.hrtime.bigint();
    if (render) processor.render(played);
    processor.process(frame);
    ns += process.hrtime.bigint() - t;
    blocks += 2;
    for (let i = 0; i < FRAME / 2; i++) out[start + i] = (frame[2 * i] ?? 0) / 32767;
  }
  return { out, us: Number(ns) / 1000 / blocks };
}

const far = mono((await synthesizeSpeech('The castle gate is open, bring the torch and the map.')).pcm);
const near = mono(
  (await synthesizeSpeech('I hear you, I am on my way to the bridge now.', { voice: 'en+m3' })).pcm,
);

// Echo: far-end speech plays and leaks back.
const delay = Math.round(0.05 * RATE);
const mic = far.map(
  (_, i) =>
    0.5 * (far[i - delay] ?? 0) + 0.15 * (far[i - delay - 240] ?? 0) + 0.07 * (far[i - delay - 700] ?? 0),
);
const aec = new VoiceProcessor(quiet);
await aec.set({ echoCancellation: true });
const echo = run(aec, mic, far);
report(
  qualityResult(
    'apm-aec-erle',
    'dB',
    echoReturnLossEnhancement(mic, echo.out, far.length >> 1, far.length),
    'none in Node on npm',
    0,
  ),
);
aec.close();

// Noise: near-end speech in steady noise at 5 dB SNR, a second of noise alone each side.
const pad = RATE;
const clean = new Float32Array(near.length + 2 * pad);
clean.set(near, pad);
let seed = 12345;
let last = 0;
const noise = clean.map(() => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  last = 0.7 * last + 0.3 * (seed / 2 ** 31 - 1);
  return last;
});
let ps = 0;
let pn = 0;
for (let i = pad; i < pad + near.length; i++) {
  ps += (clean[i] ?? 0) ** 2;
  pn += (noise[i] ?? 0) ** 2;
}
const g = Math.sqrt(ps / (pn * 10 ** 0.5));
const noisy = clean.map((s, i) => s + g * (noise[i] ?? 0));
const ns = new VoiceProcessor(quiet);
await ns.set({ noiseSuppression: true });
run(ns, noisy); // warm-up, as for the peer below
const ours = run(ns, noisy);
ns.close();

interface Rnnoise {
  HEAPF32: Float32Array;
  _rnnoise_create(model: number): number;
  _rnnoise_process_frame(state: number, out: number, input: number): number;
  _malloc(bytes: number): number;
}
const jitsiFactory = (
  (await import('@jitsi/rnnoise-wasm/dist/rnnoise-sync.js')) as { default: () => Promise<Rnnoise> }
).default;
const jitsi = await jitsiFactory();
const state = jitsi._rnnoise_create(0);
const pin = jitsi._malloc(BLOCK * 4);
const pout = jitsi._malloc(BLOCK * 4);
const peerOut = new Float32Array(noisy.length);
function peerPass(): number {
  const t0 = process.hrtime.bigint();
  for (let start = 0; start + BLOCK <= noisy.length; start += BLOCK) {
    for (let i = 0; i < BLOCK; i++)
      jitsi.HEAPF32[(pin >> 2) + i] = Math.round((noisy[start + i] ?? 0) * 32767);
    jitsi._rnnoise_process_frame(state, pout, pin);
    for (let i = 0; i < BLOCK; i++) peerOut[start + i] = (jitsi.HEAPF32[(pout >> 2) + i] ?? 0) / 32768;
  }
  return Number(process.hrtime.bigint() - t0) / 1000 / Math.floor(noisy.length / BLOCK);
}
peerPass();
const peerUs = peerPass();
report(
  qualityResult(
    'apm-ns-snr-gain',
    'dB',
    snrGain(noisy, ours.out, pad, pad + near.length),
    '@jitsi/rnnoise-wasm 0.2',
    snrGain(noisy, peerOut, pad, pad + near.length),
  ),
);
report(result('apm-ns-frame', 'µs', ours.us, '@jitsi/rnnoise-wasm 0.2', peerUs));

// The whole chain on the echo-and-noise mix.
const all = new VoiceProcessor(quiet);
await all.set({ echoCancellation: true, noiseSuppression: true, automaticGainControl: true });
const mixed = noisy.map((s, i) => s + (mic[i] ?? 0));
run(all, mixed, far); // warm-up: the WebAssembly code is compiled to its optimised tier as it runs
const chain = run(all, mixed, far);
report(result('apm-frame', 'µs', chain.us, 'none', 0));
all.close();

/**
 * The signals the voice processing is judged on, shared by its unit test and its benchmark: speech as mono
 * floats, a leak of the playout into the microphone, steady noise at a chosen SNR, and a run through a
 * VoiceProcessor frame by frame as the audio pump hands them over.
 */
import type { VoiceProcessor } from '../../../packages/sdkpp/src/voice/processing/VoiceProcessor.js';

const FRAME = 1920;

/** Mono floats (−1..1) from 48 kHz stereo Int16. */
export function mono(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = ((pcm[2 * i] ?? 0) + (pcm[2 * i + 1] ?? 0)) / 65536;
  return out;
}

/** What a microphone hears of `played`: −6 dB after 50 ms, with two weaker reflections. */
export function echoOf(played: Float32Array, length = played.length): Float32Array {
  const delay = Math.round(0.05 * 48_000);
  const echo = new Float32Array(length);
  for (let i = 0; i < length; i++)
    echo[i] =
      0.5 * (played[i - delay] ?? 0) +
      0.15 * (played[i - delay - 240] ?? 0) +
      0.07 * (played[i - delay - 700] ?? 0);
  return echo;
}

/**
 * `speech` with a second of noise alone on each side, in steady noise (deterministic white noise, low-passed a
 * little like a fan) scaled to `snrDb` over the speech. `pad` is where the speech starts.
 */
export function inSteadyNoise(
  speech: Float32Array,
  snrDb: number,
): { clean: Float32Array; noisy: Float32Array; pad: number } {
  const pad = 48_000;
  const clean = new Float32Array(speech.length + 2 * pad);
  clean.set(speech, pad);
  let seed = 12345;
  let last = 0;
  const noise = clean.map(() => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    last = 0.7 * last + 0.3 * (seed / 2 ** 31 - 1);
    return last;
  });
  let ps = 0;
  let pn = 0;
  for (let i = pad; i < pad + speech.length; i++) {
    ps += (clean[i] ?? 0) ** 2;
    pn += (noise[i] ?? 0) ** 2;
  }
  const g = Math.sqrt(ps / (pn * 10 ** (snrDb / 10)));
  return { clean, noisy: clean.map((s, i) => s + g * (noise[i] ?? 0)), pad };
}

/**
 * Runs mono floats through a processor in 20 ms stereo frames (`render`, if given, is the playout of the
 * same moments); returns the output and the µs spent per 10 ms block.
 */
export function runFrames(
  processor: VoiceProcessor,
  mic: Float32Array,
  render?: Float32Array,
): { out: Float32Array; usPerBlock: number } {
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
  return { out, usPerBlock: Number(ns) / 1000 / Math.max(1, blocks) };
}

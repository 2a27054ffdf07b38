import { stereoToMono } from './resample.js';

/** What {@link matchAudio} found. */
export interface AudioMatch {
  /** Pearson correlation of the aligned signals where they overlap (at least half the reference), -1..1. */
  readonly correlation: number;
  /** How late the reference appears in the received audio, in milliseconds (≥ 0). */
  readonly delayMs: number;
  /** The received level relative to the reference, as an amplitude ratio. */
  readonly gain: number;
}

/** Options of {@link matchAudio}. */
export interface AudioMatchOptions {
  /** Sample rate of both signals (default 48 000). */
  readonly sampleRate?: number;
  /** Whether the signals are interleaved stereo (default true); stereo is averaged to mono first. */
  readonly stereo?: boolean;
  /** The largest delay searched, in ms (default 2000). */
  readonly maxDelayMs?: number;
}

/** Decimation used for the coarse search: 48 kHz → 4 kHz keeps speech's envelope and pitch. */
const COARSE = 12;

function toFloat(samples: Int16Array): Float64Array {
  const out = new Float64Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] as number) / 32768;
  return out;
}

/** Mean of `factor`-sample blocks: a cheap low-pass before decimation. */
function decimate(signal: Float64Array, factor: number): Float64Array {
  const out = new Float64Array(Math.floor(signal.length / factor));
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let j = 0; j < factor; j++) sum += signal[i * factor + j] as number;
    out[i] = sum / factor;
  }
  return out;
}

/** Pearson correlation of `reference` against `received` starting at `lag`. */
function correlationAt(reference: Float64Array, received: Float64Array, lag: number): number {
  const n = Math.min(reference.length, received.length - lag);
  if (n <= 0) return 0;
  let sumA = 0;
  let sumB = 0;
  for (let i = 0; i < n; i++) {
    sumA += reference[i] as number;
    sumB += received[lag + i] as number;
  }
  const meanA = sumA / n;
  const meanB = sumB / n;
  let cross = 0;
  let energyA = 0;
  let energyB = 0;
  for (let i = 0; i < n; i++) {
    const a = (reference[i] as number) - meanA;
    const b = (received[lag + i] as number) - meanB;
    cross += a * b;
    energyA += a * a;
    energyB += b * b;
  }
  return energyA > 0 && energyB > 0 ? cross / Math.sqrt(energyA * energyB) : 0;
}

/**
 * Finds where `reference` (what was spoken) sits inside `received` (what was heard, usually longer and
 * delayed by the network, jitter buffer and codec) and how alike they are there: a coarse search on a
 * 4 kHz copy, then a sample-exact search around the best coarse lag.
 */
export function matchAudio(
  reference: Int16Array,
  received: Int16Array,
  options: AudioMatchOptions = {},
): AudioMatch {
  const rate = options.sampleRate ?? 48000;
  const stereo = options.stereo ?? true;
  const a = toFloat(stereo ? stereoToMono(reference) : reference);
  const b = toFloat(stereo ? stereoToMono(received) : received);
  // Lags where less than half the reference overlaps the received audio would compare a few samples and
  // could correlate by chance, so the search stops before them.
  const maxLag = Math.max(
    0,
    Math.min(b.length - Math.ceil(a.length / 2), Math.round(((options.maxDelayMs ?? 2000) * rate) / 1000)),
  );

  const coarseA = decimate(a, COARSE);
  const coarseB = decimate(b, COARSE);
  let bestCoarse = 0;
  let bestCoarseCorrelation = -Infinity;
  for (let lag = 0; lag <= Math.floor(maxLag / COARSE); lag++) {
    const c = correlationAt(coarseA, coarseB, lag);
    if (c > bestCoarseCorrelation) {
      bestCoarseCorrelation = c;
      bestCoarse = lag;
    }
  }

  let bestLag = bestCoarse * COARSE;
  let best = -Infinity;
  const from = Math.max(0, bestLag - 2 * COARSE);
  const to = Math.min(maxLag, bestLag + 2 * COARSE);
  for (let lag = from; lag <= to; lag++) {
    const c = correlationAt(a, b, lag);
    if (c > best) {
      best = c;
      bestLag = lag;
    }
  }

  let energyA = 0;
  let energyB = 0;
  const n = Math.min(a.length, b.length - bestLag);
  for (let i = 0; i < n; i++) {
    energyA += (a[i] as number) ** 2;
    energyB += (b[bestLag + i] as number) ** 2;
  }
  return {
    correlation: best === -Infinity ? 0 : best,
    delayMs: (bestLag / rate) * 1000,
    gain: energyA > 0 ? Math.sqrt(energyB / energyA) : 0,
  };
}

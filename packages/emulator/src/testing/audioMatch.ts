import { stereoToMono } from './resample.js';

/** What {@link matchAudio} found. */
export interface AudioMatch {
  /** Pearson correlation of the aligned signals where they overlap (at least half the reference), -1..1. */
  readonly correlation: number;
  /** How late the reference appears in the received audio, in milliseconds (≥ 0). */
  readonly delayMs: number;
  /** The received level relative to the reference, as an amplitude ratio. */
  readonly gain: number;
  /**
   * The correlation with each quarter second of the reference aligned on its own (within `maxSlipMs` of the
   * overall delay), averaged with the segments' energies as weights. A receiver's jitter buffer adapts
   * its delay between talk spurts, so one lag for a whole sentence understates how alike the audio is;
   * this is the figure to judge speech by.
   */
  readonly segmentCorrelation: number;
  /** The smallest and largest per-segment delays, in ms: how far playout slipped during the sentence. */
  readonly segmentDelayRangeMs: readonly [number, number];
  /**
   * Each segment of the reference that has sound, in order: where it starts in the reference, the delay it
   * was found at and how well it matched there. A step in the delay between neighbours is a slip: a gap
   * the path inserted or audio it skipped.
   */
  readonly segments: readonly AudioSegmentMatch[];
}

/** One segment's alignment in {@link AudioMatch.segments}. */
export interface AudioSegmentMatch {
  /** Where the segment starts in the reference, in ms. */
  readonly startMs: number;
  /** Its own delay in the received audio, in ms. */
  readonly delayMs: number;
  /** Its Pearson correlation at that delay. */
  readonly correlation: number;
}

/** Options of {@link matchAudio}. */
export interface AudioMatchOptions {
  /** Sample rate of both signals (default 48 000). */
  readonly sampleRate?: number;
  /** Whether the signals are interleaved stereo (default true); stereo is averaged to mono first. */
  readonly stereo?: boolean;
  /** The largest delay searched, in ms (default 10 000). */
  readonly maxDelayMs?: number;
  /** Segment length for {@link AudioMatch.segmentCorrelation}, in ms (default 250, about a syllable). */
  readonly segmentMs?: number;
  /** How far a segment may slip from the overall delay, in ms (default 120). */
  readonly maxSlipMs?: number;
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

/** In-place iterative radix-2 FFT of (re, im); `inverse` computes the unscaled inverse transform. */
function fft(re: Float64Array, im: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j] as number, re[i] as number];
      [im[i], im[j]] = [im[j] as number, im[i] as number];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / size;
    const stepRe = Math.cos(angle);
    const stepIm = Math.sin(angle);
    for (let start = 0; start < n; start += size) {
      let wRe = 1;
      let wIm = 0;
      for (let k = 0; k < size / 2; k++) {
        const evenIndex = start + k;
        const oddIndex = evenIndex + size / 2;
        const oddRe = (re[oddIndex] as number) * wRe - (im[oddIndex] as number) * wIm;
        const oddIm = (re[oddIndex] as number) * wIm + (im[oddIndex] as number) * wRe;
        re[oddIndex] = (re[evenIndex] as number) - oddRe;
        im[oddIndex] = (im[evenIndex] as number) - oddIm;
        re[evenIndex] = (re[evenIndex] as number) + oddRe;
        im[evenIndex] = (im[evenIndex] as number) + oddIm;
        const nextRe = wRe * stepRe - wIm * stepIm;
        wIm = wRe * stepIm + wIm * stepRe;
        wRe = nextRe;
      }
    }
  }
}

/**
 * The lag in [0, maxLag] where `received` best matches `reference`: every lag's dot product at once by FFT
 * cross-correlation, normalised by the received energy under the reference's window (a sliding sum), so
 * loud stretches do not win by loudness alone.
 */
function bestCoarseLag(reference: Float64Array, received: Float64Array, maxLag: number): number {
  let size = 1;
  while (size < reference.length + received.length) size <<= 1;
  const meanA = reference.reduce((sum, value) => sum + value, 0) / Math.max(1, reference.length);
  const aRe = new Float64Array(size);
  const aIm = new Float64Array(size);
  const bRe = new Float64Array(size);
  const bIm = new Float64Array(size);
  reference.forEach((value, i) => (aRe[i] = value - meanA));
  received.forEach((value, i) => (bRe[i] = value));
  fft(aRe, aIm, false);
  fft(bRe, bIm, false);
  // B × conj(A): its inverse holds Σ a[i]·b[i + lag] at index lag.
  for (let k = 0; k < size; k++) {
    const re = (bRe[k] as number) * (aRe[k] as number) + (bIm[k] as number) * (aIm[k] as number);
    const im = (bIm[k] as number) * (aRe[k] as number) - (bRe[k] as number) * (aIm[k] as number);
    bRe[k] = re;
    bIm[k] = im;
  }
  fft(bRe, bIm, true);
  const squares = new Float64Array(received.length + 1);
  const sums = new Float64Array(received.length + 1);
  for (let i = 0; i < received.length; i++) {
    squares[i + 1] = (squares[i] as number) + (received[i] as number) ** 2;
    sums[i + 1] = (sums[i] as number) + (received[i] as number);
  }
  let best = 0;
  let bestScore = -Infinity;
  for (let lag = 0; lag <= maxLag; lag++) {
    const end = Math.min(received.length, lag + reference.length);
    const n = end - lag;
    if (n <= 0) break;
    const sum = (sums[end] as number) - (sums[lag] as number);
    const variance = (squares[end] as number) - (squares[lag] as number) - (sum * sum) / n;
    if (variance <= 0) continue;
    const score = (bRe[lag] as number) / size / Math.sqrt(variance);
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  return best;
}

/**
 * Finds where `reference` (what was spoken) sits inside `received` (what was heard, usually longer and
 * delayed by the network, jitter buffer and codec) and how alike they are there: an FFT search on a 4 kHz
 * copy, then a sample-exact search around the best coarse lag.
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
    Math.min(b.length - Math.ceil(a.length / 2), Math.round(((options.maxDelayMs ?? 10_000) * rate) / 1000)),
  );

  const coarseA = decimate(a, COARSE);
  const coarseB = decimate(b, COARSE);
  const bestCoarse = bestCoarseLag(coarseA, coarseB, Math.floor(maxLag / COARSE));

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
  const segments = segmentAlignment(a, b, coarseA, coarseB, bestLag, rate, options);
  return {
    correlation: best === -Infinity ? 0 : best,
    delayMs: (bestLag / rate) * 1000,
    gain: energyA > 0 ? Math.sqrt(energyB / energyA) : 0,
    segmentCorrelation: segments.correlation,
    segmentDelayRangeMs: segments.delayRangeMs,
    segments: segments.segments,
  };
}

/** Each segment of `a` aligned on its own near `lag` in `b`: energy-weighted correlation, delay range. */
function segmentAlignment(
  a: Float64Array,
  b: Float64Array,
  coarseA: Float64Array,
  coarseB: Float64Array,
  lag: number,
  rate: number,
  options: AudioMatchOptions,
): { correlation: number; delayRangeMs: [number, number]; segments: AudioSegmentMatch[] } {
  const length = Math.max(1, Math.round(((options.segmentMs ?? 250) * rate) / 1000));
  const slip = Math.round(((options.maxSlipMs ?? 120) * rate) / 1000);
  let weighted = 0;
  let weights = 0;
  let low = Infinity;
  let high = -Infinity;
  const matched: AudioSegmentMatch[] = [];
  for (let start = 0; start + length <= a.length; start += length) {
    const segment = a.subarray(start, start + length);
    let energy = 0;
    for (const value of segment) energy += value * value;
    if (energy === 0) continue;
    // Coarse on the 4 kHz copies, then sample-exact around the best coarse lag.
    const coarseSegment = coarseA.subarray(Math.floor(start / COARSE), Math.floor((start + length) / COARSE));
    let coarseLag = lag;
    let coarseBest = -Infinity;
    for (let candidate = Math.max(0, lag - slip); candidate <= lag + slip; candidate += COARSE) {
      const at = Math.floor((start + candidate) / COARSE);
      if (at + coarseSegment.length > coarseB.length) break;
      const c = correlationAt(coarseSegment, coarseB, at);
      if (c > coarseBest) {
        coarseBest = c;
        coarseLag = candidate;
      }
    }
    let best = -Infinity;
    let bestLag = coarseLag;
    for (
      let candidate = Math.max(0, coarseLag - 2 * COARSE);
      candidate <= coarseLag + 2 * COARSE;
      candidate++
    ) {
      if (start + candidate + length > b.length) break;
      const c = correlationAt(segment, b, start + candidate);
      if (c > best) {
        best = c;
        bestLag = candidate;
      }
    }
    if (best === -Infinity) continue;
    weighted += best * energy;
    weights += energy;
    low = Math.min(low, (bestLag / rate) * 1000);
    high = Math.max(high, (bestLag / rate) * 1000);
    matched.push({ startMs: (start / rate) * 1000, delayMs: (bestLag / rate) * 1000, correlation: best });
  }
  return {
    correlation: weights > 0 ? weighted / weights : 0,
    delayRangeMs: weights > 0 ? [low, high] : [0, 0],
    segments: matched,
  };
}

import { PROCESSING_BLOCK } from './EchoCanceller.js';

/** The speech level the gain control aims at: −20 dBFS RMS (conversational level on the wire). */
const TARGET_RMS = 0.1;
/** The gain stays within −12..+24 dB: a whisper is lifted, a shout tamed, silence never pumped up to noise. */
const MIN_GAIN = 0.25;
const MAX_GAIN = 15.85;
/** How fast the gain may move per 10 ms block: up slowly (0.25 dB), down quickly (1.5 dB). */
const RISE = 10 ** (0.25 / 20);
const FALL = 10 ** (-1.5 / 20);
/** A block is speech when it stands 12 dB above the noise floor and above −60 dBFS. */
const SPEECH_OVER_FLOOR = 4;
const MIN_SPEECH_RMS = 0.001;
/** The noise floor follows a quieter block at once and creeps up by 0.05 dB a block otherwise. */
const FLOOR_CREEP = 10 ** (0.05 / 20);
/** Peaks are held below full scale. */
const CEILING = 0.97;

/**
 * Automatic gain control on the capture path: the gain follows the speech level towards −20 dBFS RMS,
 * changes only on blocks that are speech (so pauses and noise are not pumped up), ramps within each block (no
 * zipper noise) and keeps peaks under full scale. Mono, floats in −1..1, 10 ms blocks.
 */
export class GainControl {
  #gain = 1;
  #floor = 0.01;

  /** The gain now (linear). */
  get gain(): number {
    return this.#gain;
  }

  /** One block, levelled, into `out`. */
  process(block: Float32Array, out: Float32Array): void {
    let sum = 0;
    for (let i = 0; i < PROCESSING_BLOCK; i++) sum += (block[i] ?? 0) ** 2;
    const rms = Math.sqrt(sum / PROCESSING_BLOCK);
    this.#floor = rms < this.#floor ? Math.max(rms, 1e-6) : this.#floor * FLOOR_CREEP;
    const from = this.#gain;
    let to = from;
    if (rms > MIN_SPEECH_RMS && rms > this.#floor * SPEECH_OVER_FLOOR) {
      const wanted = Math.min(MAX_GAIN, Math.max(MIN_GAIN, TARGET_RMS / rms));
      to = wanted > from ? Math.min(wanted, from * RISE) : Math.max(wanted, from * FALL);
    }
    let peak = 0;
    for (let i = 0; i < PROCESSING_BLOCK; i++) {
      const g = from + ((to - from) * (i + 1)) / PROCESSING_BLOCK;
      const y = (block[i] ?? 0) * g;
      out[i] = y;
      peak = Math.max(peak, Math.abs(y));
    }
    if (peak > CEILING) {
      // A peak over the ceiling lowers the whole block and the gain with it.
      const scale = CEILING / peak;
      for (let i = 0; i < PROCESSING_BLOCK; i++) out[i] = (out[i] ?? 0) * scale;
      to *= scale;
    }
    this.#gain = Math.max(MIN_GAIN, to);
  }
}

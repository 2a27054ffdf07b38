import type { EmulatorImpairmentStats, VoiceImpairment } from '../types.js';

/**
 * Network impairment for the forwarding unit: loss, delay, jitter and reordering, drawn from a seeded
 * PRNG so a test that fixes the seed sees the same drops and delays on every run.
 */

export type { VoiceImpairment } from '../types.js';

/** The impairment's counters since it was set. */
export type ImpairmentStats = EmulatorImpairmentStats;

/** What to do with one packet: drop it, or send it after `delayMs` (0 = at once). */
export type ImpairmentDecision = { drop: true } | { drop: false; delayMs: number; reordered: boolean };

/** How long a reordered packet is held beyond its delay: one 20 ms frame and a bit, so the next one passes it. */
export const REORDER_HOLD_MS = 30;

/** mulberry32: a small, fast 32-bit PRNG; plenty for picking packets to drop. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function percent(name: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
    throw new RangeError(`impairment.${name} must be a number from 0 to 100`);
  }
  return value;
}

function millis(name: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 10_000) {
    throw new RangeError(`impairment.${name} must be a number of milliseconds from 0 to 10000`);
  }
  return value;
}

/** A checked impairment with its PRNG and counters. */
export class Impairment {
  readonly settings: Readonly<Required<VoiceImpairment>>;
  readonly #random: () => number;
  readonly #stats: ImpairmentStats = { seen: 0, dropped: 0, reordered: 0, delayed: 0 };

  /** @throws RangeError for a value out of range. */
  constructor(settings: VoiceImpairment) {
    const seed = settings.seed ?? 1;
    if (!Number.isInteger(seed)) throw new RangeError('impairment.seed must be an integer');
    this.settings = {
      lossPercent: percent('lossPercent', settings.lossPercent),
      delayMs: millis('delayMs', settings.delayMs),
      jitterMs: millis('jitterMs', settings.jitterMs),
      reorderPercent: percent('reorderPercent', settings.reorderPercent),
      seed,
    };
    this.#random = mulberry32(seed);
  }

  /** Whether it changes anything at all. */
  get active(): boolean {
    const s = this.settings;
    return s.lossPercent > 0 || s.delayMs > 0 || s.jitterMs > 0 || s.reorderPercent > 0;
  }

  /** Decides the fate of one packet; each call draws the same number of values, so runs line up. */
  decide(): ImpairmentDecision {
    const s = this.settings;
    const lossDraw = this.#random();
    const jitterDraw = this.#random();
    const reorderDraw = this.#random();
    this.#stats.seen += 1;
    if (lossDraw * 100 < s.lossPercent) {
      this.#stats.dropped += 1;
      return { drop: true };
    }
    const reordered = reorderDraw * 100 < s.reorderPercent;
    const delayMs = s.delayMs + jitterDraw * s.jitterMs + (reordered ? REORDER_HOLD_MS : 0);
    if (reordered) this.#stats.reordered += 1;
    if (delayMs > 0) this.#stats.delayed += 1;
    return { drop: false, delayMs, reordered };
  }

  /** A copy of the counters. */
  stats(): ImpairmentStats {
    return { ...this.#stats };
  }
}

import { randomInt } from 'node:crypto';

/**
 * The next generator's worker and process bits. Process-wide on purpose, like a real process id: emulators
 * created one after another in one process get different bits, so two started in the same millisecond never
 * mint the same ids. The start is random so separate processes differ too.
 */
let nextSource = randomInt(1024);

/** The platform's epoch (2015-01-01T00:00:00Z): snowflake timestamps count milliseconds from here. */
export const PLATFORM_EPOCH_MS = 1_420_070_400_000;

/**
 * Makes snowflake ids (`(ms since epoch) << 22 | worker << 17 | process << 12 | increment`), as strings,
 * the way the platform sends them in JSON. One generator per emulator, each with its own worker and process
 * bits unless given, so emulators started in the same millisecond (tests run several side by side) never
 * mint the same ids.
 */
export class SnowflakeGenerator {
  readonly #now: () => number;
  readonly #source: bigint;
  #lastMs = -1;
  #increment = 0;

  /**
   * @param now - clock in Unix ms; injectable for tests
   * @param source - 0–1023, the worker and process bits; distinguishes id sources that may run in the same
   *   millisecond. @defaultValue the next free value in this process
   */
  constructor(now: () => number = Date.now, source: number = nextSource++) {
    this.#now = now;
    this.#source = BigInt(source & 0x3ff);
  }

  /** A new id, strictly greater than every id this generator made before. */
  next(): string {
    let ms = Math.max(0, this.#now() - PLATFORM_EPOCH_MS);
    if (ms < this.#lastMs) ms = this.#lastMs; // a clock step backwards must not produce a smaller id
    if (ms === this.#lastMs) {
      this.#increment += 1;
      if (this.#increment > 0xfff) {
        // 4096 ids in one millisecond: borrow the next millisecond rather than repeat an id.
        ms += 1;
        this.#increment = 0;
      }
    } else {
      this.#increment = 0;
    }
    this.#lastMs = ms;
    const id = (BigInt(ms) << 22n) | (this.#source << 12n) | BigInt(this.#increment);
    return id.toString();
  }
}

/** The creation time (Unix ms) encoded in a snowflake. */
export function snowflakeTimestamp(id: string): number {
  return Number(BigInt(id) >> 22n) + PLATFORM_EPOCH_MS;
}

/** True for a decimal snowflake string (1–20 digits, fits in 64 bits). */
export function isSnowflake(value: unknown): boolean {
  return typeof value === 'string' && /^[0-9]{1,20}$/.test(value) && BigInt(value) < 2n ** 64n;
}

/** Snowflakes (decimal strings) in time order: a shorter one is older, equal lengths compare as text. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

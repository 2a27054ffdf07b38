/** The platform's epoch (2015-01-01T00:00:00Z): snowflake timestamps count milliseconds from here. */
export const PLATFORM_EPOCH_MS = 1_420_070_400_000;

/**
 * Makes snowflake ids (`(ms since epoch) << 22 | worker << 17 | process << 12 | increment`), as strings,
 * the way the platform sends them in JSON. One generator per emulator, so several emulators in a process
 * never share a counter.
 */
export class SnowflakeGenerator {
  readonly #now: () => number;
  readonly #worker: bigint;
  #lastMs = -1;
  #increment = 0;

  /**
   * @param now - clock in Unix ms; injectable for tests
   * @param worker - 0–31, distinguishes id sources that may run in the same millisecond
   */
  constructor(now: () => number = Date.now, worker = 1) {
    this.#now = now;
    this.#worker = BigInt(worker & 31);
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
    const id = (BigInt(ms) << 22n) | (this.#worker << 17n) | BigInt(this.#increment);
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

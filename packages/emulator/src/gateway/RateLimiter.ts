/**
 * Counts events in a sliding window: at most `count` per `windowMs`. One per gateway connection, for the
 * platform's 120 sends per 60 s.
 */
export class SlidingWindowLimiter {
  readonly #count: number;
  readonly #windowMs: number;
  readonly #times: number[] = [];

  constructor(count: number, windowMs: number) {
    this.#count = count;
    this.#windowMs = windowMs;
  }

  /** Records an event at `now`; false when it exceeds the limit. */
  take(now: number): boolean {
    const oldest = now - this.#windowMs;
    while (this.#times.length > 0 && (this.#times[0] ?? 0) <= oldest) this.#times.shift();
    if (this.#times.length >= this.#count) return false;
    this.#times.push(now);
    return true;
  }
}

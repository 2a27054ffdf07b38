/**
 * Remembers the signatures of requests accepted within the freshness window, so that a captured request sent
 * again inside the window is refused. Bounded: entries older than the window go, and when `capacity` fresh
 * entries are held, new requests are refused (`full`) rather than forgetting one that could then be replayed.
 */
export class ReplayGuard {
  readonly #windowMs: number;
  readonly #capacity: number;
  /** Signature → when it was signed (ms); Map order is insertion order, close to signing order. */
  readonly #seen = new Map<string, number>();

  /**
   * @param windowMs - how long a signed request stays acceptable (the freshness window)
   * @param capacity - the most signatures held at once
   */
  constructor(windowMs: number, capacity: number) {
    this.#windowMs = windowMs;
    this.#capacity = capacity;
  }

  /** Records `signature` (signed at `signedAtMs`) unless seen; `'fresh'`, `'replayed'`, or `'full'`. */
  admit(signature: string, signedAtMs: number, nowMs: number): 'fresh' | 'replayed' | 'full' {
    this.#forgetBefore(nowMs - this.#windowMs);
    if (this.#seen.has(signature)) return 'replayed';
    if (this.#seen.size >= this.#capacity) return 'full';
    this.#seen.set(signature, signedAtMs);
    return 'fresh';
  }

  /** How many signatures are held. */
  get size(): number {
    return this.#seen.size;
  }

  #forgetBefore(limitMs: number): void {
    // Mostly in order; a late-arriving older request is dropped when it reaches the front.
    for (const [signature, at] of this.#seen) {
      if (at >= limitMs) break;
      this.#seen.delete(signature);
    }
  }
}

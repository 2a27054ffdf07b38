/**
 * How late a transport woke for its ticks, as the native engine's LatenessHistogram keeps it
 * (native/core/transport/lateness_histogram.h): 10 µs buckets up to 10 ms, the last holding everything later,
 * so both engines report the same quantiles.
 */
export class LatenessHistogram {
  static readonly BUCKET_US = 10;
  static readonly BUCKETS = 1000;
  readonly #counts = new Uint32Array(LatenessHistogram.BUCKETS);
  #total = 0;

  /** Counts one tick that began `latenessUs` after its deadline. */
  record(latenessUs: number): void {
    const index = Math.floor(Math.max(0, latenessUs) / LatenessHistogram.BUCKET_US);
    const bucket = Math.min(index, LatenessHistogram.BUCKETS - 1);
    this.#counts[bucket] = (this.#counts[bucket] ?? 0) + 1;
    this.#total++;
  }

  /** The upper edge in µs of the bucket holding quantile `q` (0 < q ≤ 1), or 0 before any tick. */
  quantile(q: number): number {
    if (this.#total === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.#total));
    let seen = 0;
    for (let i = 0; i < LatenessHistogram.BUCKETS; i++) {
      seen += this.#counts[i] ?? 0;
      if (seen >= rank) return (i + 1) * LatenessHistogram.BUCKET_US;
    }
    return LatenessHistogram.BUCKETS * LatenessHistogram.BUCKET_US;
  }
}

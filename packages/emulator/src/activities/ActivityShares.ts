import type { EmulatorActivityShare } from '../types.js';

/** How many shares are kept; past it the oldest goes (its link still opens: the link carries its custom id). */
export const MAX_ACTIVITY_SHARES = 1000;

/** One Activity link a player shared from the game (`shareLink`): the record is the public shape itself. */
export type ActivityShare = EmulatorActivityShare;

/** The shares the emulated client made, oldest first, bounded by {@link MAX_ACTIVITY_SHARES}. */
export class ActivityShares {
  readonly #shares: ActivityShare[] = [];

  /** Keeps a share, dropping the oldest past the bound. */
  add(share: ActivityShare): void {
    this.#shares.push(share);
    if (this.#shares.length > MAX_ACTIVITY_SHARES) this.#shares.shift();
  }

  /** Every kept share, oldest first (copies). */
  list(): ActivityShare[] {
    return this.#shares.map((s) => ({ ...s }));
  }
}

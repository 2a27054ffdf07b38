const WINDOW = 1024;

/**
 * Which full nonces of one sender's ratchet were accepted (native/core/dave/replay_window.h): newer than
 * the newest is new; of the 1024 below it, a ring remembers which arrived; older is a replay. Slot
 * `n % 1024` holds the last nonce accepted there, so a stale entry never matches a nonce in the window.
 */
export class ReplayWindow {
  readonly #ring = new Float64Array(WINDOW).fill(-1);
  #newest = -1;

  /** Whether `nonce` may still be accepted. */
  canAccept(nonce: number): boolean {
    if (nonce > this.#newest) return true;
    return this.#newest - nonce < WINDOW && this.#ring[nonce % WINDOW] !== nonce;
  }

  /** Records an authenticated frame's nonce (after canAccept said yes). */
  accept(nonce: number): void {
    this.#ring[nonce % WINDOW] = nonce;
    if (nonce > this.#newest) this.#newest = nonce;
  }
}

/** An opaque timer returned by a {@link Clock}. */
export type TimerHandle =
  | {
      /** A type-only brand; no handle has this property, and callers never read one. */
      readonly __timer: unique symbol;
    }
  | object;

/**
 * Time and timers, injectable so unit tests of a single piece can drive time themselves.
 * Production code always uses the system clock (`systemClock`).
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Runs `callback` once after `ms` milliseconds. With `unref`, the timer alone does not keep the process
   * alive (for long waits such as a token's expiry).
   */
  setTimeout(callback: () => void, ms: number, options?: { unref?: boolean }): TimerHandle;
  /** Cancels a timer from {@link Clock.setTimeout}; unknown or fired handles are ignored. */
  clearTimeout(handle: TimerHandle | undefined): void;
}

/** Node's longest timer; longer waits are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The real clock. Long timers are chained so a 7-day token expiry does not overflow Node's timer. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms, options) {
    const state: { timer: NodeJS.Timeout | undefined } = { timer: undefined };
    const arm = (remaining: number): void => {
      const step = Math.min(Math.max(0, remaining), MAX_TIMER_MS);
      state.timer = setTimeout(() => {
        if (remaining > MAX_TIMER_MS) arm(remaining - MAX_TIMER_MS);
        else callback();
      }, step);
      if (options?.unref) state.timer.unref();
    };
    arm(ms);
    return state;
  },
  clearTimeout(handle) {
    const state = handle as { timer?: NodeJS.Timeout } | undefined;
    if (state?.timer) clearTimeout(state.timer);
  },
};

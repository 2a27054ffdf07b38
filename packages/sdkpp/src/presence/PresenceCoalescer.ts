import type { Clock, TimerHandle } from '@sdkpp/protocol';

/**
 * Keeps presence updates within the platform's limit (5 per 20 s, wire-protocols §1.8) by coalescing: an update
 * over budget replaces any update still waiting, and the latest one is sent as soon as the window allows.
 * Intermediate states may be skipped; the last update is never dropped.
 */
export class PresenceCoalescer<T> {
  readonly #clock: Clock;
  readonly #send: (update: T) => void;
  readonly #limit: number;
  readonly #windowMs: number;
  #sentAt: number[] = [];
  #waiting: { update: T } | undefined;
  #timer: TimerHandle | undefined;

  constructor(clock: Clock, send: (update: T) => void, limit = 5, windowMs = 20_000) {
    this.#clock = clock;
    this.#send = send;
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** True while an update waits for the window. */
  get hasPending(): boolean {
    return this.#waiting !== undefined;
  }

  /** Sends now when the budget allows, else keeps this update as the one to send next. */
  submit(update: T): void {
    this.#waiting = { update };
    this.#flush();
  }

  /** Drops a waiting update and the timer (on disconnect). */
  cancel(): void {
    this.#waiting = undefined;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #flush(): void {
    const now = this.#clock.now();
    this.#sentAt = this.#sentAt.filter((t) => now - t < this.#windowMs);
    if (this.#waiting && this.#sentAt.length < this.#limit) {
      const { update } = this.#waiting;
      this.#waiting = undefined;
      this.#sentAt.push(now);
      this.#send(update);
      return;
    }
    const oldest = this.#sentAt[0];
    if (this.#waiting && this.#timer === undefined && oldest !== undefined) {
      this.#timer = this.#clock.setTimeout(
        () => {
          this.#timer = undefined;
          this.#flush();
        },
        oldest + this.#windowMs - now,
      );
    }
  }
}

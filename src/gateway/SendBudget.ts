import type { Clock, TimerHandle } from '../util/Clock.js';

/**
 * Keeps one socket's sends within the gateway's limit of 120 per 60 s (wire-protocols §1.8), which closes the
 * connection with 4008 when exceeded. Payloads over budget wait in order instead of being dropped; a few
 * sends are left spare for heartbeats, which bypass the queue.
 */
export class SendBudget {
  readonly #clock: Clock;
  readonly #write: (text: string) => void;
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #queue: string[] = [];
  #sentAt: number[] = [];
  #timer: TimerHandle | undefined;
  #open = false;

  constructor(clock: Clock, write: (text: string) => void, limit = 110, windowMs = 60_000) {
    this.#clock = clock;
    this.#write = write;
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** Payloads waiting for budget or for the socket to be ready. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Queues a payload and sends what the budget allows. */
  enqueue(text: string): void {
    this.#queue.push(text);
    this.#drain();
  }

  /** The socket is ready: start sending. */
  start(): void {
    this.#open = true;
    this.#drain();
  }

  /** The socket went away: stop sending and forget the old window; queued payloads wait for the next one. */
  reset(): void {
    this.#open = false;
    this.#sentAt = [];
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Drops everything queued. */
  clear(): void {
    this.reset();
    this.#queue.length = 0;
  }

  #drain(): void {
    if (!this.#open) return;
    const now = this.#clock.now();
    this.#sentAt = this.#sentAt.filter((t) => now - t < this.#windowMs);
    while (this.#queue.length > 0 && this.#sentAt.length < this.#limit) {
      const text = this.#queue.shift();
      if (text === undefined) break;
      this.#sentAt.push(now);
      this.#write(text);
    }
    const oldest = this.#sentAt[0];
    if (this.#queue.length > 0 && this.#timer === undefined && oldest !== undefined) {
      this.#timer = this.#clock.setTimeout(
        () => {
          this.#timer = undefined;
          this.#drain();
        },
        oldest + this.#windowMs - now,
      );
    }
  }
}

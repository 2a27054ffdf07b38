import type { Clock, TimerHandle } from '@sdkpp/protocol';

/** Sends of each window kept for the scheduled heartbeats (one every ~41 s), which keep the session alive. */
const SCHEDULED_HEARTBEAT_RESERVE = 2;

/**
 * Keeps one socket's sends within the gateway's limit of 120 per 60 s (wire-protocols §1.8), which closes the
 * connection with 4008 when exceeded. Payloads over budget wait in order instead of being dropped; a few
 * sends are left spare for heartbeats, which bypass the queue but are counted too.
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

  readonly #hardLimit: number;

  /**
   * `limit` sends a window for queued payloads; heartbeats may use the rest up to `hardLimit`, the platform's
   * own limit.
   */
  constructor(clock: Clock, write: (text: string) => void, limit = 110, windowMs = 60_000, hardLimit = 120) {
    this.#clock = clock;
    this.#write = write;
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#hardLimit = hardLimit;
  }

  /**
   * Counts a heartbeat the server asked for (op 1), when the window has room for it while keeping
   * {@link SCHEDULED_HEARTBEAT_RESERVE} sends for the scheduled beats; false when it must not be sent.
   */
  tryUrgent(): boolean {
    this.#trim(this.#clock.now());
    if (this.#sentAt.length >= this.#hardLimit - SCHEDULED_HEARTBEAT_RESERVE) return false;
    this.#sentAt.push(this.#clock.now());
    return true;
  }

  /** Counts a scheduled heartbeat, which is always sent: at most a few a minute. */
  noteUrgent(): void {
    this.#sentAt.push(this.#clock.now());
  }

  #trim(now: number): void {
    this.#sentAt = this.#sentAt.filter((t) => now - t < this.#windowMs);
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
    this.#trim(now);
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

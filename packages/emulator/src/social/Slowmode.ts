import { Permission, hasAll } from '../platform/permissions.js';

/** The platform's JSON code of a send refused by a channel's slowmode. */
export const SLOWMODE_CODE = 20016;

/** The platform's message for {@link SLOWMODE_CODE}. */
export const SLOWMODE_MESSAGE = 'This action cannot be performed due to slowmode rate limit';

/** The most slowmode senders remembered before the oldest are forgotten (a bound on memory). */
const MAX_REMEMBERED = 10_000;

/**
 * A send refused by slowmode: the platform's 429 with code 20016 and `retry_after` in seconds. A RangeError,
 * so the admin hooks' callers treat it as the refusal it is; the dashboard's call action answers it as the
 * platform's 429.
 */
export class SlowmodeError extends RangeError {
  /** The HTTP status the platform answers. */
  readonly status = 429;
  /** The platform's JSON code. */
  readonly code = SLOWMODE_CODE;

  constructor(
    /** Seconds until the sender may write again (the platform's `retry_after`, a float). */
    readonly retryAfter: number,
  ) {
    super(`${SLOWMODE_MESSAGE} (retry after ${retryAfter.toFixed(3)} s)`);
    this.name = 'SlowmodeError';
  }
}

/**
 * A channel's slowmode (`rate_limit_per_user`): one message per user per window. Since 2026-02-23 only
 * BYPASS_SLOWMODE lifts it (the document: split from MANAGE_MESSAGES, MANAGE_CHANNELS and MANAGE_THREADS,
 * which stopped sufficing that day, as MANAGE_MESSAGES did for pins); bots are never subject to it. The
 * last send is kept in memory, not derived from the stored messages, so deleting a message does not reset
 * the window, as on the platform.
 */
export class Slowmode {
  readonly #now: () => number;
  /** Unix ms of the last counted send, by `${channelId}:${userId}`, oldest first. */
  readonly #last = new Map<string, number>();

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Whether a sender holding `permissions` in the channel is exempt (bots always are). */
  static exempt(permissions: bigint, bot: boolean): boolean {
    return bot || hasAll(permissions, Permission.BYPASS_SLOWMODE);
  }

  /**
   * Checks a send against the channel's `seconds` of slowmode and counts it: throws {@link SlowmodeError}
   * within the window. Call it only for senders that are not exempt.
   */
  check(channelId: string, userId: string, seconds: number): void {
    if (seconds <= 0) return;
    const key = `${channelId}:${userId}`;
    const now = this.#now();
    const last = this.#last.get(key);
    const waitMs = last === undefined ? 0 : last + seconds * 1000 - now;
    if (waitMs > 0) throw new SlowmodeError(waitMs / 1000);
    this.#last.delete(key);
    this.#last.set(key, now);
    if (this.#last.size > MAX_REMEMBERED) {
      const oldest = this.#last.keys().next().value;
      if (oldest !== undefined) this.#last.delete(oldest);
    }
  }
}

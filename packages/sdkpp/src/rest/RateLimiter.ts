import { AbortedError, HttpError, type SdkError } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import type { Clock } from '@sdkpp/protocol';

/** What one attempt at a request came back with; a transport failure is thrown instead (never retried). */
export type Attempt<T> =
  | { kind: 'done'; headers: Headers; value: T }
  | { kind: 'failed'; headers: Headers; error: SdkError }
  /** A 429: the platform did not process the request, so it may be sent again after `retryAfterSeconds`. */
  | { kind: 'limited'; headers: Headers; retryAfterSeconds: number; global: boolean; error: HttpError };

/** Reports a request starting (`waiting`) or ending a wait on a rate limit. */
export type RateLimitWaitListener = (waiting: boolean, retryAfterSeconds: number, route: string) => void;

/** Options of a {@link RateLimiter}. */
export interface RateLimiterOptions {
  clock: Clock;
  log: LogWriter;
  /** The longest single wait, in ms; a request that would wait longer fails with a retryable {@link HttpError}. */
  maxWaitMs: number;
  /** How many times one request is sent again after a 429. */
  maxRetries: number;
  /** Told when a request starts and stops waiting. */
  onWait?: RateLimitWaitListener | undefined;
}

/** What the limiter knows of one bucket (per bucket id and major parameter). */
interface BucketState {
  remaining: number;
  /** When the window ends, on the local clock (from `X-RateLimit-Reset-After`, so clock skew does not matter). */
  resetAt: number;
}

/** A 429 without a usable `retry_after` or `Retry-After`: wait this long rather than hammer the platform. */
const UNKNOWN_RETRY_AFTER_S = 1;

/** Path segments whose following id picks a bucket's counter on the platform (its "top-level resources"). */
const MAJOR_RESOURCES = new Set(['lobbies', 'guilds', 'channels', 'users', 'webhooks']);

/** The limiter's key of a request: its route with ids elided, plus the major parameter. */
export function routeKeyOf(method: string, route: string): string {
  const path = route.split('?')[0] ?? '';
  const segments = path.split('/');
  let major = '';
  for (let i = 0; i < segments.length - 1; i += 1) {
    if (MAJOR_RESOURCES.has(segments[i] ?? '')) {
      major = segments[i + 1] ?? '';
      break;
    }
  }
  const template = segments.map((s) => (/^[0-9]{5,20}$/.test(s) ? ':id' : s)).join('/');
  return `${method} ${template} ${major}`;
}

/**
 * Keeps requests within the platform's HTTP rate limits (wire-protocols §4.11). It learns each route's bucket
 * from `X-RateLimit-Bucket` and its remaining requests and reset from the other headers, waits before sending
 * when a bucket is known to be exhausted, and after a 429 waits `retry_after` and sends the request again (the
 * platform did not process it). A global 429 pauses every request. Requests of one route and major parameter
 * are sent one after another, in the order they were made. A wait longer than `maxWaitMs`, or more than
 * `maxRetries` 429s, fails the request with a retryable {@link HttpError} carrying `retryAfter`.
 */
export class RateLimiter {
  readonly #o: RateLimiterOptions;
  /** Route key → the tail of its queue. */
  readonly #queues = new Map<string, Promise<void>>();
  /** Route key → bucket id, learned from responses. */
  readonly #bucketOf = new Map<string, string>();
  /** `bucket id + major parameter` (or the route key while no id is known) → its state. */
  readonly #buckets = new Map<string, BucketState>();
  /** Until when a global 429 holds every request. */
  #globalUntil = 0;

  constructor(options: RateLimiterOptions) {
    this.#o = options;
  }

  /**
   * Runs `send` within the limits of `method route`, sending again after a 429 as allowed. `label` names the
   * request in events and logs. Rejects with {@link AbortedError} when `signal` aborts while waiting.
   */
  async run<T>(
    method: string,
    route: string,
    signal: AbortSignal | undefined,
    send: () => Promise<Attempt<T>>,
  ): Promise<T> {
    const key = routeKeyOf(method, route);
    const label = `${method} ${route.split('?')[0] ?? ''}`;
    const release = await this.#enter(key, signal, label);
    try {
      for (let retries = 0; ; retries += 1) {
        await this.#waitForRoom(key, label, signal);
        const attempt = await send();
        this.#learn(key, attempt.headers);
        if (attempt.kind === 'done') return attempt.value;
        if (attempt.kind === 'failed') throw attempt.error;
        const seconds = attempt.retryAfterSeconds > 0 ? attempt.retryAfterSeconds : UNKNOWN_RETRY_AFTER_S;
        const until = this.#o.clock.now() + seconds * 1000;
        if (attempt.global) this.#globalUntil = Math.max(this.#globalUntil, until);
        else this.#buckets.set(this.#stateKey(key), { remaining: 0, resetAt: until });
        if (retries >= this.#o.maxRetries) {
          this.#o.log.warn(`${label}: still rate limited after ${retries} retries; giving up`);
          throw attempt.error;
        }
        if (seconds * 1000 > this.#o.maxWaitMs) {
          this.#o.log.warn(
            `${label}: rate limited for ${seconds} s, longer than the maximum wait; giving up`,
          );
          throw attempt.error;
        }
        this.#o.log.info(`${label}: rate limited (${attempt.global ? 'global' : 'route'}), sending again`);
      }
    } finally {
      release();
    }
  }

  /** Joins the route's queue; resolves with the function that lets the next request go. */
  async #enter(key: string, signal: AbortSignal | undefined, label: string): Promise<() => void> {
    const previous = this.#queues.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.#queues.set(key, tail);
    const done = (): void => {
      release();
      if (this.#queues.get(key) === tail) this.#queues.delete(key);
    };
    try {
      await abortable(previous, signal, label);
    } catch (error) {
      // Aborted while queued: let the requests behind this one go once those before it are done.
      void previous.then(done);
      throw error;
    }
    return done;
  }

  /** Waits while a global 429 holds or the route's bucket is known to be exhausted. */
  async #waitForRoom(key: string, label: string, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new AbortedError(`${label} was aborted`);
      const now = this.#o.clock.now();
      const bucket = this.#buckets.get(this.#stateKey(key));
      const bucketWait = bucket && bucket.remaining <= 0 ? bucket.resetAt - now : 0;
      const waitMs = Math.max(0, this.#globalUntil - now, bucketWait);
      if (waitMs <= 0) return;
      const seconds = Math.ceil(waitMs) / 1000;
      if (waitMs > this.#o.maxWaitMs) {
        this.#o.log.warn(`${label}: rate limited for ${seconds} s, longer than the maximum wait; not sent`);
        throw new HttpError(`${label} is rate limited for ${seconds} s, longer than the maximum wait`, {
          method: label.split(' ')[0] ?? '',
          route: label.slice(label.indexOf(' ') + 1),
          status: 429,
          retryable: true,
          retryAfter: seconds,
        });
      }
      this.#o.log.info(`${label}: waiting ${seconds} s for a rate limit`);
      this.#notify(true, seconds, label);
      try {
        await sleep(this.#o.clock, waitMs, signal, label);
      } finally {
        this.#notify(false, 0, label);
      }
    }
  }

  /** Learns the bucket of `key` and its state from a response's headers. */
  #learn(key: string, headers: Headers): void {
    const id = headers.get('x-ratelimit-bucket');
    const remaining = Number(headers.get('x-ratelimit-remaining') ?? NaN);
    const resetAfter = Number(headers.get('x-ratelimit-reset-after') ?? NaN);
    if (id) this.#bucketOf.set(key, id);
    if (!Number.isFinite(remaining) || !Number.isFinite(resetAfter)) return;
    this.#buckets.set(this.#stateKey(key), {
      remaining,
      resetAt: this.#o.clock.now() + resetAfter * 1000,
    });
  }

  /** The key of a route's bucket state: the bucket id with the major parameter once known. */
  #stateKey(key: string): string {
    const id = this.#bucketOf.get(key);
    return id === undefined ? key : `${id} ${key.slice(key.lastIndexOf(' ') + 1)}`;
  }

  #notify(waiting: boolean, seconds: number, label: string): void {
    try {
      this.#o.onWait?.(waiting, seconds, label);
    } catch (error) {
      this.#o.log.error(
        `a rate-limit wait listener threw: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** `promise`, or an {@link AbortedError} as soon as `signal` aborts. */
function abortable(promise: Promise<void>, signal: AbortSignal | undefined, label: string): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new AbortedError(`${label} was aborted`));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      reject(new AbortedError(`${label} was aborted`));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Waits `ms` on `clock`; rejects with {@link AbortedError} when `signal` aborts first. */
function sleep(clock: Clock, ms: number, signal: AbortSignal | undefined, label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = (): AbortedError =>
      new AbortedError(`${label} was aborted while waiting for a rate limit`);
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      reject(aborted());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

import { randomInt } from 'node:crypto';

import { randomToken } from '../random.js';

/**
 * The user code alphabet RFC 8628 §6.1 suggests: consonants only (no vowels, so no words), none that read
 * alike (no 0/O, 1/I/L confusion since there are no digits or vowels), easy to type on a TV remote.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
/** Characters in a user code; 20^8 ≈ 2.6e10 codes, shown as `XXXX-XXXX`. */
const USER_CODE_LENGTH = 8;
/** Device authorizations waiting at once; a full table refuses new ones rather than growing. */
export const MAX_DEVICE_AUTHORIZATIONS = 256;
/** RFC 8628 §3.5: each `slow_down` adds 5 seconds to the interval. */
const SLOW_DOWN_STEP_MS = 5_000;
/**
 * A poll that comes this much earlier than the interval still counts as on time: timers and the network
 * make a client that waits exactly `interval` seconds arrive a few milliseconds "early" now and then.
 */
const POLL_SLACK = 0.1;

/** Where a device authorization stands. */
export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied';

/** One device authorization (RFC 8628 §3.2) from its request until its token is issued or it expires. */
export interface DeviceAuthorization {
  /** The device's secret: only the device polls with it. Never logged. */
  readonly deviceCode: string;
  /** The code the player types, normalised: 8 letters of {@link USER_CODE_ALPHABET}, no dash. */
  readonly userCode: string;
  /** The requested scopes, in order, without duplicates. */
  readonly scopes: string[];
  readonly createdAt: number;
  readonly expiresAt: number;
  /** The polling interval in ms; grows by 5 s at each `slow_down`. */
  intervalMs: number;
  /** When the device last polled, or null before its first poll. */
  lastPollAt: number | null;
  status: DeviceAuthorizationStatus;
  /** The player who approved it, once approved. */
  userId: string | null;
}

/** What a poll of the token endpoint learns about a device code. */
export type DevicePoll =
  | { kind: 'unknown' }
  | { kind: 'expired' }
  | { kind: 'denied' }
  | { kind: 'slow_down'; intervalSeconds: number }
  | { kind: 'pending' }
  | { kind: 'approved'; authorization: DeviceAuthorization };

/** The user code as shown to the player: `BCDF-GHJK`. */
export function displayUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * A user code as typed: upper-cased, with spaces and dashes dropped. Undefined when what is left cannot be a
 * user code, so a typo of the wrong shape is not counted as a guess.
 */
export function normaliseUserCode(input: string): string | undefined {
  if (input.length > 32) return undefined;
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return undefined;
  for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return undefined;
  return code;
}

function newUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i += 1)
    code += USER_CODE_ALPHABET.charAt(randomInt(USER_CODE_ALPHABET.length));
  return code;
}

/**
 * The emulator's device authorizations, in memory only: they live minutes, and a restart ends them as the
 * platform's would end a device flow on an outage. Bounded by {@link MAX_DEVICE_AUTHORIZATIONS}; expired ones
 * are swept whenever a new one is made.
 */
export class DeviceAuthorizations {
  readonly #now: () => number;
  readonly #byDeviceCode = new Map<string, DeviceAuthorization>();
  readonly #byUserCode = new Map<string, DeviceAuthorization>();

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Starts one; undefined when {@link MAX_DEVICE_AUTHORIZATIONS} are already waiting. */
  create(scopes: string[], ttlSeconds: number, intervalSeconds: number): DeviceAuthorization | undefined {
    this.#sweep();
    if (this.#byDeviceCode.size >= MAX_DEVICE_AUTHORIZATIONS) return undefined;
    let userCode = newUserCode();
    while (this.#byUserCode.has(userCode)) userCode = newUserCode();
    const now = this.#now();
    const authorization: DeviceAuthorization = {
      deviceCode: randomToken(32),
      userCode,
      scopes,
      createdAt: now,
      expiresAt: now + ttlSeconds * 1000,
      intervalMs: intervalSeconds * 1000,
      lastPollAt: null,
      status: 'pending',
      userId: null,
    };
    this.#byDeviceCode.set(authorization.deviceCode, authorization);
    this.#byUserCode.set(userCode, authorization);
    return authorization;
  }

  /** A live, still pending authorization by its (normalised) user code. */
  pendingByUserCode(userCode: string): DeviceAuthorization | undefined {
    const found = this.#byUserCode.get(userCode);
    if (!found || found.status !== 'pending' || found.expiresAt <= this.#now()) return undefined;
    return found;
  }

  /** Records the player's answer; false when the code is no longer pending. */
  decide(userCode: string, answer: { approvedBy: string } | 'denied'): boolean {
    const found = this.pendingByUserCode(userCode);
    if (!found) return false;
    if (answer === 'denied') found.status = 'denied';
    else {
      found.status = 'approved';
      found.userId = answer.approvedBy;
    }
    return true;
  }

  /**
   * One poll by the device (RFC 8628 §3.5). An expired or denied authorization is answered once and then
   * forgotten, so its device code cannot be used again; an approved one stays until {@link consume} (the
   * token endpoint still checks the merge first); a pending one polled too early gets `slow_down` and a
   * longer interval.
   */
  poll(deviceCode: string): DevicePoll {
    const found = this.#byDeviceCode.get(deviceCode);
    if (!found) return { kind: 'unknown' };
    const now = this.#now();
    if (found.expiresAt <= now) {
      this.#forget(found);
      return { kind: 'expired' };
    }
    if (found.status === 'denied') {
      this.#forget(found);
      return { kind: 'denied' };
    }
    if (found.status === 'approved') return { kind: 'approved', authorization: found };
    const early = found.lastPollAt !== null && now - found.lastPollAt < found.intervalMs * (1 - POLL_SLACK);
    found.lastPollAt = now;
    if (early) {
      found.intervalMs += SLOW_DOWN_STEP_MS;
      return { kind: 'slow_down', intervalSeconds: found.intervalMs / 1000 };
    }
    return { kind: 'pending' };
  }

  /** Ends an approved authorization once its tokens are issued: a device code is good for one token reply. */
  consume(authorization: DeviceAuthorization): void {
    this.#forget(authorization);
  }

  /** Every live authorization, oldest first (for the emulator's test API; device codes are left out). */
  list(): {
    userCode: string;
    scopes: string[];
    status: DeviceAuthorizationStatus;
    intervalSeconds: number;
    expiresAt: number;
  }[] {
    this.#sweep();
    return [...this.#byDeviceCode.values()].map((a) => ({
      userCode: displayUserCode(a.userCode),
      scopes: [...a.scopes],
      status: a.status,
      intervalSeconds: a.intervalMs / 1000,
      expiresAt: a.expiresAt,
    }));
  }

  #forget(authorization: DeviceAuthorization): void {
    this.#byDeviceCode.delete(authorization.deviceCode);
    this.#byUserCode.delete(authorization.userCode);
  }

  #sweep(): void {
    const now = this.#now();
    for (const a of this.#byDeviceCode.values()) if (a.expiresAt <= now) this.#forget(a);
  }
}

/**
 * A bound on wrong user codes: at most `max` within `windowMs`, counted over every player (the emulator's
 * pages are one browser's), so the 2.6e10 codes cannot be walked. Keeps only the times of the last `max`.
 */
export class GuessLimiter {
  readonly #now: () => number;
  readonly #max: number;
  readonly #windowMs: number;
  readonly #misses: number[] = [];

  constructor(now: () => number, max = 10, windowMs = 60_000) {
    this.#now = now;
    this.#max = max;
    this.#windowMs = windowMs;
  }

  /** Seconds to wait before another guess is taken, or 0 when one may be tried now. */
  retryAfterSeconds(): number {
    const now = this.#now();
    while (this.#misses.length > 0 && (this.#misses[0] ?? 0) <= now - this.#windowMs) this.#misses.shift();
    if (this.#misses.length < this.#max) return 0;
    return Math.max(1, Math.ceil(((this.#misses[0] ?? now) + this.#windowMs - now) / 1000));
  }

  /** Counts one wrong code. */
  miss(): void {
    this.#misses.push(this.#now());
    if (this.#misses.length > this.#max) this.#misses.shift();
  }
}

const registries = new WeakMap<object, { authorizations: DeviceAuthorizations; guesses: GuessLimiter }>();

/**
 * The device authorizations and the wrong-guess limit of one emulator instance (keyed by its context), shared
 * by the device authorize endpoint, the token endpoint, the verification page and the test API.
 */
export function deviceAuthorizationsOf(
  owner: object,
  now: () => number,
): { authorizations: DeviceAuthorizations; guesses: GuessLimiter } {
  let found = registries.get(owner);
  if (!found) {
    found = { authorizations: new DeviceAuthorizations(now), guesses: new GuessLimiter(now) };
    registries.set(owner, found);
  }
  return found;
}

import { createHmac } from 'node:crypto';

import { randomToken, safeEqual } from '../random.js';

/** How long a consent page may stay open before its form is refused. */
export const CONSENT_FORM_TTL_MS = 10 * 60_000;

function canonical(params: ReadonlyMap<string, string>): string {
  // Sorted pairs, so the same request always gives the same string whatever the parameter order.
  return JSON.stringify([...params.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function mac(key: Buffer, expiresAt: number, params: ReadonlyMap<string, string>): string {
  return createHmac('sha256', key)
    .update(`${expiresAt}\n${canonical(params)}`)
    .digest('base64url');
}

/**
 * An anti-CSRF token bound to one authorize request: an expiry and an HMAC over the expiry and the
 * request's parameters. Stateless, so an abandoned consent page costs nothing, and a form whose hidden
 * parameters were changed no longer matches.
 */
export function makeConsentToken(key: Buffer, params: ReadonlyMap<string, string>, now: number): string {
  const expiresAt = now + CONSENT_FORM_TTL_MS;
  return `${expiresAt.toString(36)}.${mac(key, expiresAt, params)}`;
}

/** Whether `token` was made by {@link makeConsentToken} for these parameters and has not expired. */
export function checkConsentToken(
  key: Buffer,
  token: string,
  params: ReadonlyMap<string, string>,
  now: number,
): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0) return false;
  const expiresAt = parseInt(token.slice(0, dot), 36);
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= now) return false;
  return safeEqual(token.slice(dot + 1), mac(key, expiresAt, params));
}

/** The entry a single-use token binds its nonce under; no form field of the emulator's has this name. */
const NONCE_PARAM = '#nonce';

function withNonce(params: ReadonlyMap<string, string>, nonce: string): Map<string, string> {
  if (params.has(NONCE_PARAM)) throw new RangeError(`form parameters must not include ${NONCE_PARAM}`);
  return new Map(params).set(NONCE_PARAM, nonce);
}

/**
 * Form tokens that each allow one submission, for forms whose every submission makes something (a store
 * purchase): a replayed or double-submitted form must not make it twice. Each token is a consent token over
 * its parameters and a random nonce; a redeemed nonce is remembered only until its token would have expired
 * anyway, so what is kept is bounded by the submissions of one token lifetime.
 */
export class SingleUseTokens {
  readonly #key: Buffer;
  /** Redeemed nonces, by when their tokens expire at the latest; in insertion order, so oldest first. */
  readonly #spent = new Map<string, number>();

  constructor(key: Buffer) {
    this.#key = key;
  }

  /** A new token for one submission of a form bound to `params`. */
  issue(params: ReadonlyMap<string, string>, now: number): string {
    const nonce = randomToken(16);
    return `${nonce}.${makeConsentToken(this.#key, withNonce(params, nonce), now)}`;
  }

  /** Whether `token` was issued for `params`, has not expired and was not redeemed before; redeems it. */
  redeem(token: string, params: ReadonlyMap<string, string>, now: number): boolean {
    const dot = token.indexOf('.');
    if (dot <= 0) return false;
    const nonce = token.slice(0, dot);
    if (!checkConsentToken(this.#key, token.slice(dot + 1), withNonce(params, nonce), now)) return false;
    for (const [spent, until] of this.#spent) {
      if (until > now) break;
      this.#spent.delete(spent);
    }
    if (this.#spent.has(nonce)) return false;
    this.#spent.set(nonce, now + CONSENT_FORM_TTL_MS);
    return true;
  }
}

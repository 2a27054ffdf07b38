import { createHmac } from 'node:crypto';

import { safeEqual } from '../random.js';

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

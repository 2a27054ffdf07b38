import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** An opaque, unguessable token: `bytes` random bytes as base64url (32 bytes → 43 characters). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Random lowercase hex, e.g. for session ids. */
export function randomHex(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

/** Base64url SHA-256 of a UTF-8 string. */
export function sha256Base64Url(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}

/**
 * Compares two secrets in time that does not depend on where they differ, so a client cannot learn a
 * secret byte by byte from response times. Hashing first makes unequal lengths safe to compare too.
 */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}

/** A guild invite code: 8–10 random url-safe characters, like the platform's. */
export function inviteCode(): string {
  const length = 8 + randomInt(3);
  return randomBytes(8).toString('base64url').slice(0, length);
}

import { safeEqual, sha256Base64Url } from '../random.js';

/** RFC 7636 §4.1: 43–128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge: base64url without padding of a 32-byte SHA-256, always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** True when `verifier` has the form RFC 7636 requires. */
export function isWellFormedVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** True when `challenge` can be an S256 challenge. */
export function isWellFormedS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

/** The S256 challenge of a verifier: base64url(SHA-256(ASCII verifier)) without padding. */
export function s256Challenge(verifier: string): string {
  return sha256Base64Url(verifier);
}

/** Whether `verifier` answers `challenge` under S256, compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return safeEqual(s256Challenge(verifier), challenge);
}

import { createHash, randomBytes } from 'node:crypto';

/** The PKCE challenge method; the platform supports only SHA-256 (`S256`). */
export enum AuthenticationCodeChallengeMethod {
  /** `code_challenge = base64url(SHA-256(code_verifier))`. */
  S256 = 0,
}

/** The challenge half of a PKCE pair: goes into the authorize URL. */
export interface AuthorizationCodeChallenge {
  /** Always {@link AuthenticationCodeChallengeMethod.S256}. */
  method: AuthenticationCodeChallengeMethod;
  /** The base64url challenge. */
  challenge: string;
}

/** A PKCE pair: the challenge for `authorize()`, the verifier for `getToken()`. Keep the verifier secret. */
export interface AuthorizationCodeVerifier {
  /** Pass to {@link AuthorizationArgs.codeChallenge}. */
  challenge: AuthorizationCodeChallenge;
  /** Pass to `getToken()`; never log it. */
  verifier: string;
}

/** RFC 7636 §4.1: 43–128 characters from the unreserved set. */
const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Encodes bytes as base64url without padding (RFC 4648 §5). */
export function base64UrlEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/** True when `verifier` has the length and alphabet RFC 7636 requires. */
export function isValidCodeVerifier(verifier: string): boolean {
  return VERIFIER_PATTERN.test(verifier);
}

/** Computes the S256 challenge of a verifier: `base64url(SHA-256(ASCII(verifier)))`. */
export function computeCodeChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/**
 * Creates a PKCE verifier from 32 secure random bytes (43 characters) and its S256 challenge,
 * as the C++ SDK's `Client::CreateAuthorizationCodeVerifier` does.
 */
export function createAuthorizationCodeVerifier(): AuthorizationCodeVerifier {
  const verifier = base64UrlEncode(randomBytes(32));
  return {
    verifier,
    challenge: { method: AuthenticationCodeChallengeMethod.S256, challenge: computeCodeChallenge(verifier) },
  };
}

/** A secure random value for the OAuth2 `state` parameter. */
export function createState(): string {
  return base64UrlEncode(randomBytes(24));
}

import { describe, expect, it } from 'vitest';

import vectors from '../../vectors/pkce.json' with { type: 'json' };
import {
  AuthenticationCodeChallengeMethod,
  base64UrlEncode,
  computeCodeChallenge,
  createAuthorizationCodeVerifier,
  isValidCodeVerifier,
} from '../../../packages/sdkpp/src/auth/pkce.js';

describe('PKCE (RFC 7636)', () => {
  it.each(vectors.vectors)('S256 challenge of $verifier', ({ verifier, challenge }) => {
    expect(computeCodeChallenge(verifier)).toBe(challenge);
  });

  it('the 00..1f vector is base64url of those 32 bytes', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i);
    expect(base64UrlEncode(bytes)).toBe(vectors.vectors[1]?.verifier);
  });

  it('creates 43-character verifiers whose challenge matches, and never repeats', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const pair = createAuthorizationCodeVerifier();
      expect(pair.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(isValidCodeVerifier(pair.verifier)).toBe(true);
      expect(pair.challenge.method).toBe(AuthenticationCodeChallengeMethod.S256);
      expect(pair.challenge.challenge).toBe(computeCodeChallenge(pair.verifier));
      seen.add(pair.verifier);
    }
    expect(seen.size).toBe(50);
  });

  it('rejects verifiers outside 43–128 unreserved characters', () => {
    expect(isValidCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isValidCodeVerifier(`${'a'.repeat(42)}!`)).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(128))).toBe(true);
    expect(isValidCodeVerifier(`${'a'.repeat(40)}-._~`)).toBe(true);
  });
});

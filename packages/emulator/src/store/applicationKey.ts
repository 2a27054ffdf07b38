import { createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';

import type { ApplicationKeyRecord } from './types.js';

// The application's Ed25519 key pair, kept in the store as a JWK so that a saved state signs with the same key
// after a restart. Made from a random seed through PKCS#8 rather than generateKeyPairSync + JWK export: Node 20
// can hang when a garbage collection finalizes a key generation job during the export of its key (see
// generateSigningJwk in ../oauth/idToken.ts).

/** DER PKCS#8 header of a raw 32-byte Ed25519 seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The private KeyObject of a 32-byte seed. */
function privateKeyFromSeed(seed: Buffer): KeyObject {
  return createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** The raw 32-byte public key of a private key. */
function rawPublicKey(privateKey: KeyObject): Buffer {
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return spki.subarray(spki.length - 32);
}

/** A fresh key pair for a new application. */
export function generateApplicationKey(): ApplicationKeyRecord {
  const seed = randomBytes(32);
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    d: seed.toString('base64url'),
    x: rawPublicKey(privateKeyFromSeed(seed)).toString('base64url'),
  };
}

/**
 * Why a saved key cannot be used (the seed is not 32 bytes, or `x` is not the seed's public key), or
 * undefined when it can.
 */
export function applicationKeyProblem(key: ApplicationKeyRecord): string | undefined {
  const seed = Buffer.from(key.d, 'base64url');
  if (seed.length !== 32) return 'is not a 32-byte Ed25519 seed';
  try {
    if (!rawPublicKey(privateKeyFromSeed(seed)).equals(Buffer.from(key.x, 'base64url'))) {
      return "is not the seed's public key";
    }
  } catch {
    return 'is not a usable Ed25519 private key';
  }
  return undefined;
}

/** The KeyObject that signs with a stored key. */
export function applicationPrivateKey(key: ApplicationKeyRecord): KeyObject {
  return privateKeyFromSeed(Buffer.from(key.d, 'base64url'));
}

/** The public half as the platform shows it (`verify_key`, the portal's Public Key): 64 hex digits. */
export function verifyKeyHex(key: ApplicationKeyRecord): string {
  return Buffer.from(key.x, 'base64url').toString('hex');
}

import { createPublicKey, verify, type KeyObject } from 'node:crypto';

import { ValidationError } from '../../errors/index.js';

// The platform signs every request it sends to an application's interactions endpoint URL and webhook events
// URL with the application's Ed25519 key: the signature (hex, header X-Signature-Ed25519) covers the
// timestamp (header X-Signature-Timestamp, Unix seconds) followed by the raw body. The application checks it
// with the public key shown for the app (64 hex digits).

/** The header that carries the signature, hex. */
export const SIGNATURE_HEADER = 'x-signature-ed25519';
/** The header that carries the signing time, Unix seconds. */
export const TIMESTAMP_HEADER = 'x-signature-timestamp';

/** DER SubjectPublicKeyInfo header of a raw Ed25519 public key (RFC 8410). */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const HEX_64 = /^[0-9a-f]{64}$/i;
const HEX_128 = /^[0-9a-f]{128}$/i;

/** The application's public key as node:crypto wants it; throws ValidationError for anything but 64 hex digits. */
export function platformPublicKey(hex: string): KeyObject {
  if (!HEX_64.test(hex)) {
    throw new ValidationError('the application public key must be 64 hex digits (32 bytes of Ed25519)');
  }
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
}

/** Why a signed request was refused. */
export type SignatureRefusal = 'missing-headers' | 'malformed' | 'bad-signature' | 'stale' | 'replayed';

/**
 * Whether `signatureHex` is the platform's signature of `timestamp` + `body` under `key`. Malformed input
 * (a signature that is not 128 hex digits) is simply not a valid signature.
 */
export function signatureValid(
  key: KeyObject,
  signatureHex: string,
  timestamp: string,
  body: Uint8Array,
): boolean {
  if (!HEX_128.test(signatureHex)) return false;
  const message = Buffer.concat([Buffer.from(timestamp, 'utf8'), body]);
  try {
    return verify(null, message, key, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}

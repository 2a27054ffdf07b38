import { createPublicKey, sign, type KeyObject } from 'node:crypto';

// How the platform signs what it sends to an application's interactions endpoint URL and webhook events URL:
// Ed25519 with the application's key over the timestamp (Unix seconds, as text) followed by the raw body; the
// signature goes hex in one header and the timestamp in another. The emulator signs, sdkpp/backend checks.

/** The header that carries the signature, hex (lowercase, as Node delivers header names). */
export const SIGNATURE_HEADER = 'x-signature-ed25519';
/** The header that carries the signing time, Unix seconds. */
export const TIMESTAMP_HEADER = 'x-signature-timestamp';

/** DER SubjectPublicKeyInfo header of a raw Ed25519 public key (RFC 8410). */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The bytes a signature covers: the timestamp, then the body. */
export function signedMessage(timestamp: string, body: Uint8Array | string): Buffer {
  return Buffer.concat([Buffer.from(timestamp, 'utf8'), typeof body === 'string' ? Buffer.from(body) : body]);
}

/** The hex signature of `body` sent at `timestamp`, with the application's private key. */
export function signRequest(privateKey: KeyObject, timestamp: string, body: Uint8Array | string): string {
  return sign(null, signedMessage(timestamp, body), privateKey).toString('hex');
}

/** The KeyObject of a public key given as 64 hex digits (checked by the caller). */
export function publicKeyFromHex(hex: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
}

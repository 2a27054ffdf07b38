import { verify, type KeyObject } from 'node:crypto';

import { ValidationError } from '@sdkpp/protocol';
import { publicKeyFromHex, signedMessage } from '@sdkpp/protocol';

export { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '@sdkpp/protocol';

// The receiving side of the platform's request signing (src/protocol/signedRequests.ts): the application
// checks each request with the public key shown for the app.

const HEX_64 = /^[0-9a-f]{64}$/i;
const HEX_128 = /^[0-9a-f]{128}$/i;

/** The application's public key as node:crypto wants it; throws ValidationError for anything but 64 hex digits. */
export function platformPublicKey(hex: string): KeyObject {
  if (!HEX_64.test(hex)) {
    throw new ValidationError('the application public key must be 64 hex digits (32 bytes of Ed25519)');
  }
  return publicKeyFromHex(hex);
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
  try {
    return verify(null, signedMessage(timestamp, body), key, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}

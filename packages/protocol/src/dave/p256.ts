import type { Signature } from 'ts-mls';

/**
 * The raw P-256 operations DAVE's MLS cipher suite 2 rests on, on keys in MLS's serialisation: a 32-byte
 * big-endian scalar and a 65-byte uncompressed point (0x04 ‖ x ‖ y). Two implementations exist: node:crypto's
 * (the default, {@link nodeP256Signature} and `nodeHpkeP256` in this package) and the sdkpp native addon's,
 * which calls OpenSSL's EC methods without node:crypto's per-call key import (a commit imports, verifies and
 * agrees keys several times). Every operation is synchronous.
 */
export interface P256Primitives {
  /** The DER ECDSA-SHA256 signature of `message` by `scalar`; throws for a scalar out of range. */
  sign(scalar: Uint8Array, message: Uint8Array): Uint8Array;
  /** Whether `signature` (DER) is `point`'s ECDSA-SHA256 signature of `message`; false when malformed. */
  verify(point: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
  /** The x coordinate of scalar·point (32 bytes); throws for a point off the curve or a bad scalar. */
  sharedSecret(scalar: Uint8Array, point: Uint8Array): Uint8Array;
  /** A fresh random key pair. */
  generate(): { scalar: Uint8Array; point: Uint8Array };
  /** The public point of `scalar`; throws for a scalar out of range. */
  publicPoint(scalar: Uint8Array): Uint8Array;
}

/**
 * A copy of `scalar` in the 32 bytes every P-256 operation here takes: OpenSSL gives and takes scalars without
 * their leading zero bytes (one in 256 is 31 bytes long). Throws for one longer than 32 bytes.
 */
export function p256Scalar32(scalar: Uint8Array): Buffer {
  if (scalar.length > 32) throw new Error('P-256: a private key longer than 32 bytes');
  const padded = Buffer.alloc(32);
  padded.set(scalar, 32 - scalar.length);
  return padded;
}

/** Runs `f`, turning a throw into a rejected promise (ts-mls maps rejections to its own errors). */
export function attempt<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** ts-mls's {@link Signature} for P-256 ECDSA-SHA256 on `p256`, each operation done at once on this thread. */
export function p256Signature(p256: P256Primitives): Signature {
  return {
    sign: (signKey, message) => attempt(() => p256.sign(signKey, message)),
    verify: (publicKey, message, signature) => attempt(() => p256.verify(publicKey, message, signature)),
    keygen: () =>
      attempt(() => {
        const { scalar, point } = p256.generate();
        return { signKey: scalar, publicKey: point };
      }),
  };
}

/** The AEAD algorithms the media engines implement, by their node:crypto names. */
export const AEAD_ALGORITHMS = ['aes-256-gcm', 'chacha20-poly1305'] as const;

/**
 * An AEAD algorithm by its node:crypto name. The transport modes add `'aes-128-gcm'` and
 * `'xchacha20-poly1305'` (24-byte nonce) later, which is why sizes come from `AEAD_PARAMETERS`.
 */
export type AeadAlgorithm = (typeof AEAD_ALGORITHMS)[number];

/** The sizes an algorithm requires, in bytes. */
export interface AeadParameters {
  /** Key size. */
  readonly keySize: number;
  /** Nonce size. */
  readonly nonceSize: number;
  /** Size of the authentication tag that ends every sealed message. */
  readonly tagSize: number;
}

/** The sizes of every algorithm, the same as the native core's table (native/core/crypto/aead.cc). */
export const AEAD_PARAMETERS: Readonly<Record<AeadAlgorithm, AeadParameters>> = {
  'aes-256-gcm': { keySize: 32, nonceSize: 12, tagSize: 16 },
  'chacha20-poly1305': { keySize: 32, nonceSize: 12, tagSize: 16 },
};

/**
 * The largest plaintext, ciphertext or AAD either engine accepts: OpenSSL's EVP takes `int` lengths, and
 * both engines refuse the same inputs so that switching engines never changes behaviour.
 */
export const AEAD_MAX_INPUT_SIZE = 2 ** 31 - 1;

/** True when `value` names an algorithm of {@link AEAD_ALGORITHMS}. */
export function isAeadAlgorithm(value: unknown): value is AeadAlgorithm {
  return typeof value === 'string' && (AEAD_ALGORITHMS as readonly string[]).includes(value);
}

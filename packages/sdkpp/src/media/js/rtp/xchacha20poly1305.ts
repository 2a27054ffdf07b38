import {
  createCipheriv,
  createDecipheriv,
  type CipherChaCha20Poly1305,
  type DecipherChaCha20Poly1305,
} from 'node:crypto';

import { hchacha20 } from './hchacha20.js';

// XChaCha20-Poly1305, IETF construction (libsodium's crypto_aead_xchacha20poly1305_ietf_*), from what
// node:crypto has: subkey = HChaCha20(key, nonce[0:16]), then ChaCha20-Poly1305 with that subkey and the
// 12-byte nonce 00000000 ‖ nonce[16:24]. native/core/crypto/xchacha20_poly1305.cc does the same.

const TAG_SIZE = 16;

function innerKeyAndNonce(key: Uint8Array, nonce: Uint8Array): [Buffer, Buffer] {
  const inner = Buffer.alloc(12);
  inner.set(nonce.subarray(16, 24), 4);
  return [hchacha20(key, nonce.subarray(0, 16)), inner];
}

/** A cipher for one message. @param key - 32 bytes. @param nonce - 24 bytes; the caller checks both. */
export function createXChaCha20Poly1305Cipher(key: Uint8Array, nonce: Uint8Array): CipherChaCha20Poly1305 {
  const [subkey, inner] = innerKeyAndNonce(key, nonce);
  return createCipheriv('chacha20-poly1305', subkey, inner, { authTagLength: TAG_SIZE });
}

/** A decipher for one message; same arguments as {@link createXChaCha20Poly1305Cipher}. */
export function createXChaCha20Poly1305Decipher(
  key: Uint8Array,
  nonce: Uint8Array,
): DecipherChaCha20Poly1305 {
  const [subkey, inner] = innerKeyAndNonce(key, nonce);
  return createDecipheriv('chacha20-poly1305', subkey, inner, { authTagLength: TAG_SIZE });
}

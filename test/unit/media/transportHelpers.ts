import { createCipheriv } from 'node:crypto';

import vectors from '../../vectors/transport.json' with { type: 'json' };

/** The reference's transport key, 00..1f. */
export const VECTOR_KEY = Buffer.from(vectors.key, 'hex');

/**
 * Builds an authentic aead_aes256_gcm_rtpsize packet with node:crypto directly, so that a test can make
 * the clear header lie about the encrypted body (extension length, padding) and still pass the tag.
 */
export function craftAesPacket(clearHeaderHex: string, plaintextHex: string, nonce: number): Buffer {
  const aad = Buffer.from(clearHeaderHex, 'hex');
  const plaintext = Buffer.from(plaintextHex, 'hex');
  const iv = Buffer.alloc(12);
  iv.writeUInt32BE(nonce, 0);
  const cipher = createCipheriv('aes-256-gcm', VECTOR_KEY, iv, { authTagLength: 16 });
  cipher.setAAD(aad, { plaintextLength: plaintext.length });
  const suffix = Buffer.alloc(4);
  suffix.writeUInt32BE(nonce, 0);
  return Buffer.concat([aad, cipher.update(plaintext), cipher.final(), cipher.getAuthTag(), suffix]);
}

/** The bytes of `out` at an offset and length an engine reported. */
export function slice(out: Uint8Array, offset: number, length: number): Buffer {
  return Buffer.from(out.subarray(offset, offset + length));
}

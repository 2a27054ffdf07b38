import { createCipheriv } from 'node:crypto';

import type { DaveFrameResult } from '../../../packages/sdkpp/src/media/index.js';

/** A frame's length from a result that must be a success. */
export function lengthOf(result: DaveFrameResult): number {
  if (!result.ok) throw new Error(`expected success, got ${result.code}`);
  return result.length;
}

/** ULEB128 bytes of `value`, written here independently of both engines. */
export function uleb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    bytes.push(byte);
  } while (value > 0);
  return bytes;
}

/**
 * A DAVE frame from its parts: interleaved bytes, an 8-byte tag, and the varint bytes between the tag and
 * the size byte (nonce, then ranges), with the supplemental size computed unless `size` overrides it.
 */
export function craftFrame(
  interleaved: Uint8Array,
  tag: Uint8Array,
  varints: number[],
  size?: number,
): Buffer {
  const supplemental = size ?? tag.length + varints.length + 3;
  return Buffer.concat([interleaved, tag, Buffer.from(varints), Buffer.from([supplemental, 0xfa, 0xfa])]);
}

/**
 * The reference encryption of an Opus (whole-frame) DAVE frame with node:crypto directly: AES-128-GCM,
 * IV = 8 zero bytes ‖ LE32(nonce), tag truncated to 8 bytes (dave-e2ee.md §1.8).
 */
export function referenceOpusFrame(key: Uint8Array, nonce: number, frame: Uint8Array): Buffer {
  const iv = Buffer.alloc(12);
  iv.writeUInt32LE(nonce, 8);
  const cipher = createCipheriv('aes-128-gcm', key, iv, { authTagLength: 8 });
  const ciphertext = Buffer.concat([cipher.update(frame), cipher.final()]);
  return craftFrame(ciphertext, cipher.getAuthTag(), uleb(nonce));
}

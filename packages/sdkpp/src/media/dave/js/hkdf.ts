import { createHmac } from 'node:crypto';

const HASH_SIZE = 32;

/**
 * HKDF-Expand with SHA-256 (RFC 5869 §2.3) from HMAC. node:crypto's hkdfSync always runs Extract first,
 * and MLS's ExpandWithLabel (and so DAVE's ratchet) uses Expand alone on a 16-byte key.
 */
export function hkdfSha256Expand(prk: Uint8Array, info: Uint8Array, length: number): Buffer {
  const out = Buffer.alloc(length);
  let previous = Buffer.alloc(0);
  for (let done = 0, counter = 1; done < length; counter++) {
    previous = createHmac('sha256', prk)
      .update(previous)
      .update(info)
      .update(Uint8Array.of(counter))
      .digest();
    previous.copy(out, done, 0, Math.min(HASH_SIZE, length - done));
    done += HASH_SIZE;
  }
  return out;
}

/** HKDF-Extract with SHA-256 (RFC 5869 §2.2); an empty salt is 32 zero bytes. */
export function hkdfSha256Extract(salt: Uint8Array, ikm: Uint8Array): Buffer {
  return createHmac('sha256', salt.length === 0 ? Buffer.alloc(HASH_SIZE) : salt)
    .update(ikm)
    .digest();
}

const LABEL_PREFIX = 'MLS 1.0 ';

/**
 * RFC 9420 ExpandWithLabel: HKDF-Expand(secret, uint16(length) ‖ <V>("MLS 1.0 " + label) ‖ <V>context,
 * length). Labels and contexts here are under 64 bytes, so each <V> prefix is one byte.
 */
export function expandWithLabel(
  secret: Uint8Array,
  label: string,
  context: Uint8Array,
  length: number,
): Buffer {
  const fullLabel = Buffer.from(LABEL_PREFIX + label, 'latin1');
  const info = Buffer.alloc(2 + 1 + fullLabel.length + 1 + context.length);
  info.writeUInt16BE(length, 0);
  info[2] = fullLabel.length;
  fullLabel.copy(info, 3);
  info[3 + fullLabel.length] = context.length;
  info.set(context, 4 + fullLabel.length);
  return hkdfSha256Expand(secret, info, length);
}

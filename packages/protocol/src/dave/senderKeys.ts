import * as nodeCrypto from 'node:crypto';

import { snowflakeLE64 } from './wire.js';

// DAVE protocol version 1 derives each member's 16-byte media base secret with the MLS exporter (RFC 9420
// §8.5) under one label, with the member's user id (little-endian u64) as the context:
//   MLS-Exporter(Label, Context, 16) = ExpandWithLabel(DeriveSecret(exporter_secret, Label), "exported",
//                                                      Hash(Context), 16)
// The inner DeriveSecret does not depend on the member, so it is done once per epoch here, and so are the
// HMAC key pads of the outer expand. A member's key then costs three one-shot SHA-256 calls, about 4.5 µs
// measured, where ts-mls's mlsExporter redoes the whole derivation (about 6.3 µs here through the suite's
// async hash and KDF, a fifth of processing a commit at 100 members when every member's key is derived).

/** The MLS exporter label of DAVE protocol version 1's sender keys. */
export const SENDER_KEY_LABEL = 'Discord Secure Frames v0';

const SHA256_BLOCK = 64;
const SHA256_SIZE = 32;
const KEY_SIZE = 16;

type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'buffer') => Buffer;
/** node:crypto's one-shot `hash` (Node ≥ 20.12), a third cheaper than a Hash object; older Nodes use one. */
const oneShot = (nodeCrypto as { hash?: OneShotHash }).hash;
const sha256: (data: Uint8Array) => Buffer = oneShot
  ? (data) => oneShot('sha256', data, 'buffer')
  : (data) => nodeCrypto.createHash('sha256').update(data).digest();

/** RFC 9420's KDFLabel (uint16 length, opaque label<V>, opaque context<V>) for short labels and contexts. */
function kdfLabel(length: number, label: string, context: Uint8Array): Buffer {
  const fullLabel = Buffer.from(`MLS 1.0 ${label}`, 'utf8');
  if (fullLabel.length > 63 || context.length > 63)
    throw new RangeError('KDFLabel: label or context too long');
  return Buffer.concat([
    Uint8Array.of(length >> 8, length & 0xff, fullLabel.length),
    fullLabel,
    Uint8Array.of(context.length),
    context,
  ]);
}

/**
 * The sender keys of one epoch: built from the epoch's `exporter_secret`, it gives each member's media base
 * secret. It holds material derived from the epoch's secrets; drop it with the epoch.
 */
export class EpochSenderKeys {
  /** HMAC's inner block: (secret ⊕ ipad) ‖ KDFLabel prefix ‖ Hash(context) ‖ 0x01, the hash rewritten per key. */
  readonly #inner: Buffer;
  /** Where Hash(context) goes in #inner. */
  readonly #contextAt: number;
  /** HMAC's outer block: (secret ⊕ opad) ‖ the inner digest. */
  readonly #outer: Buffer;

  /** @param exporterSecret the epoch's MLS `exporter_secret` (32 bytes for cipher suite 2) */
  constructor(exporterSecret: Uint8Array) {
    // DeriveSecret(exporter_secret, Label) = ExpandWithLabel(exporter_secret, Label, "", 32): one HKDF block.
    const secret = nodeCrypto
      .createHmac('sha256', exporterSecret)
      .update(kdfLabel(SHA256_SIZE, SENDER_KEY_LABEL, new Uint8Array(0)))
      .update(Uint8Array.of(1))
      .digest();
    // HKDF-Expand(secret, KDFLabel(16, "exported", Hash(context)), 16) is HMAC(secret, KDFLabel ‖ 0x01) cut to
    // 16 bytes; with a 32-byte key, HMAC = H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)), K zero-padded to a block.
    const prefix = kdfLabel(KEY_SIZE, 'exported', new Uint8Array(SHA256_SIZE)).subarray(0, -SHA256_SIZE);
    this.#inner = Buffer.alloc(SHA256_BLOCK + prefix.length + SHA256_SIZE + 1);
    this.#outer = Buffer.alloc(SHA256_BLOCK + SHA256_SIZE);
    for (let i = 0; i < SHA256_BLOCK; i++) {
      const k = secret[i] ?? 0;
      this.#inner[i] = k ^ 0x36;
      this.#outer[i] = k ^ 0x5c;
    }
    prefix.copy(this.#inner, SHA256_BLOCK);
    this.#contextAt = SHA256_BLOCK + prefix.length;
    this.#inner[this.#inner.length - 1] = 1;
    secret.fill(0);
  }

  /** `userId`'s 16-byte media base secret in this epoch. */
  keyFor(userId: string): Uint8Array {
    sha256(snowflakeLE64(userId)).copy(this.#inner, this.#contextAt);
    sha256(this.#inner).copy(this.#outer, SHA256_BLOCK);
    return new Uint8Array(sha256(this.#outer).subarray(0, KEY_SIZE));
  }
}

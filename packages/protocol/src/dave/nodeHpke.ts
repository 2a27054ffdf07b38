import { createCipheriv, createDecipheriv, createECDH, createHmac } from 'node:crypto';

import type { Hpke, PrivateKey, PublicKey } from 'ts-mls';

import { attempt, p256Scalar32, type P256Primitives } from './p256.js';

/* eslint-disable @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-assignment --
   ts-mls types HPKE keys as WebCrypto's CryptoKey, a DOM type this Node build does not load, so they read as
   unresolved here; to ts-mls they are opaque handles that only come back to this provider. */

// RFC 9180 HPKE in base mode for MLS cipher suite 2: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, on
// node:crypto (OpenSSL), as ts-mls's `Hpke` interface wants it; the P-256 steps on node:crypto too, or on
// another P256Primitives (the sdkpp addon's). ts-mls's default goes through @hpke/core on
// WebCrypto: about 2 ms per seal or open and 1 ms per DeriveKeyPair; this does each in well under 0.2 ms.
// Keys keep ts-mls's serialisations (a 32-byte scalar, a 65-byte uncompressed point) and are checked against
// @hpke/core in test/unit/dave/nodeHpke.test.ts.

const KEM_ID = 0x0010;
const KDF_ID = 0x0001;
const AEAD_ID = 0x0001;
const N_SECRET = 32;
const N_KEY = 16;
const N_NONCE = 12;
const TAG = 16;
/** The order of P-256's base point. */
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
/** P-256's field prime and curve constant b (y² = x³ − 3x + b). */
const P256_P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const P256_B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

const text = (s: string): Buffer => Buffer.from(s, 'ascii');
const i2osp = (value: number, length: number): Buffer => {
  const out = Buffer.alloc(length);
  out.writeUIntBE(value, 0, length);
  return out;
};

const KEM_SUITE = Buffer.concat([text('KEM'), i2osp(KEM_ID, 2)]);
const HPKE_SUITE = Buffer.concat([text('HPKE'), i2osp(KEM_ID, 2), i2osp(KDF_ID, 2), i2osp(AEAD_ID, 2)]);
const VERSION = text('HPKE-v1');

function extract(salt: Uint8Array, ikm: Uint8Array): Buffer {
  return createHmac('sha256', salt.length > 0 ? salt : Buffer.alloc(32))
    .update(ikm)
    .digest();
}

function expand(prk: Uint8Array, info: Uint8Array, length: number): Buffer {
  const blocks: Buffer[] = [];
  let block = Buffer.alloc(0);
  for (let counter = 1; blocks.length * 32 < length; counter++) {
    block = createHmac('sha256', prk).update(block).update(info).update(Uint8Array.of(counter)).digest();
    blocks.push(block);
  }
  return Buffer.concat(blocks).subarray(0, length);
}

function labeledExtract(suite: Buffer, salt: Uint8Array, label: string, ikm: Uint8Array): Buffer {
  return extract(salt, Buffer.concat([VERSION, suite, text(label), ikm]));
}

function labeledExpand(
  suite: Buffer,
  prk: Uint8Array,
  label: string,
  info: Uint8Array,
  length: number,
): Buffer {
  return expand(prk, Buffer.concat([i2osp(length, 2), VERSION, suite, text(label), info]), length);
}

/** Our key objects: the serialised bytes, behind ts-mls's opaque CryptoKey-typed handles. */
interface NodePrivateKey {
  readonly sdkppHpke: 'private';
  readonly scalar: Buffer;
  readonly point: Buffer;
}
interface NodePublicKey {
  readonly sdkppHpke: 'public';
  readonly point: Buffer;
}

/**
 * The P-256 steps of DHKEM: {@link P256Primitives}' key operations, and optionally a one-call ephemeral
 * agreement (node:crypto's ECDH object gives the agreement on the key it just made without re-deriving
 * the public point from the scalar, which a separate generate + sharedSecret would do).
 */
export type HpkeP256Dh = Pick<P256Primitives, 'sharedSecret' | 'generate' | 'publicPoint'> & {
  ephemeral?: (point: Uint8Array) => { enc: Uint8Array; dh: Uint8Array };
};

/** DHKEM's P-256 steps on node:crypto's ECDH. */
const nodeDh: HpkeP256Dh = {
  sharedSecret(scalar, point) {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(scalar);
    return ecdh.computeSecret(point);
  },
  generate() {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    return { scalar: ecdh.getPrivateKey(), point: ecdh.getPublicKey() };
  },
  publicPoint(scalar) {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(scalar); // throws for 0 or ≥ n
    return ecdh.getPublicKey();
  },
  ephemeral(point) {
    const ecdh = createECDH('prime256v1');
    const enc = ecdh.generateKeys();
    return { enc, dh: ecdh.computeSecret(point) };
  },
};

/**
 * Whether the 64 bytes after the 0x04 prefix are the coordinates of a point on P-256. The cofactor is 1, so a
 * point on the curve is in the prime-order group, and the point at infinity has no uncompressed form: this is
 * the whole validation (SEC1 §3.2.2.1). Done in BigInt (about 3 µs) rather than by importing the point into
 * OpenSSL (createPublicKey: about 150 µs on Node 20's OpenSSL 3.0, a tenth of a commit's time).
 */
function onCurve(point: Uint8Array): boolean {
  const coordinates = Buffer.from(point.buffer, point.byteOffset + 1, 64).toString('hex');
  const x = BigInt(`0x${coordinates.slice(0, 64)}`);
  const y = BigInt(`0x${coordinates.slice(64)}`);
  if (x >= P256_P || y >= P256_P) return false;
  return (y * y - (x * x * x - 3n * x + P256_B)) % P256_P === 0n;
}

function publicKey(point: Uint8Array): PublicKey {
  if (point.length !== 65 || point[0] !== 4) throw new Error('HPKE: not an uncompressed P-256 point');
  if (!onCurve(point)) throw new Error('HPKE: the point is not on P-256');
  const key: NodePublicKey = { sdkppHpke: 'public', point: Buffer.from(point) };
  return key;
}

function asPrivate(key: PrivateKey): NodePrivateKey {
  const k = key as unknown as NodePrivateKey;
  if (k.sdkppHpke !== 'private') throw new Error('HPKE: not a private key of this provider');
  return k;
}

function asPublic(key: PublicKey): NodePublicKey {
  const k = key as unknown as NodePublicKey;
  if (k.sdkppHpke !== 'public') throw new Error('HPKE: not a public key of this provider');
  return k;
}

function sharedSecret(dh: Uint8Array, enc: Uint8Array, recipient: Uint8Array): Buffer {
  const kemContext = Buffer.concat([enc, recipient]);
  const prk = labeledExtract(KEM_SUITE, Buffer.alloc(0), 'eae_prk', dh);
  return labeledExpand(KEM_SUITE, prk, 'shared_secret', kemContext, N_SECRET);
}

/** RFC 9180 KeySchedule in mode_base. */
function keySchedule(shared: Uint8Array, info: Uint8Array): { key: Buffer; nonce: Buffer; exporter: Buffer } {
  const pskIdHash = labeledExtract(HPKE_SUITE, Buffer.alloc(0), 'psk_id_hash', Buffer.alloc(0));
  const infoHash = labeledExtract(HPKE_SUITE, Buffer.alloc(0), 'info_hash', info);
  const context = Buffer.concat([Uint8Array.of(0), pskIdHash, infoHash]);
  const secret = labeledExtract(HPKE_SUITE, shared, 'secret', Buffer.alloc(0));
  return {
    key: labeledExpand(HPKE_SUITE, secret, 'key', context, N_KEY),
    nonce: labeledExpand(HPKE_SUITE, secret, 'base_nonce', context, N_NONCE),
    exporter: labeledExpand(HPKE_SUITE, secret, 'exp', context, N_SECRET),
  };
}

function sealAead(
  key: Uint8Array,
  nonce: Uint8Array,
  aad: Uint8Array | undefined,
  plaintext: Uint8Array,
): Uint8Array {
  const cipher = createCipheriv('aes-128-gcm', key, nonce);
  if (aad) cipher.setAAD(aad);
  return new Uint8Array(Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]));
}

function openAead(
  key: Uint8Array,
  nonce: Uint8Array,
  aad: Uint8Array | undefined,
  sealed: Uint8Array,
): Uint8Array {
  if (sealed.length < TAG) throw new Error('AEAD: ciphertext shorter than its tag');
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
  return new Uint8Array(
    Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG)), decipher.final()]),
  );
}

/** ts-mls's {@link Hpke} for cipher suite 2, its P-256 steps on `dh` (node:crypto's when not given). */
export function hpkeP256(dh: HpkeP256Dh = nodeDh): Hpke {
  const privateKey = (bytes: Uint8Array): PrivateKey => {
    const scalar = p256Scalar32(bytes);
    const key: NodePrivateKey = { sdkppHpke: 'private', scalar, point: Buffer.from(dh.publicPoint(scalar)) };
    return key;
  };
  const encap = (recipient: NodePublicKey): { shared: Buffer; enc: Uint8Array } => {
    let agreed: { enc: Uint8Array; dh: Uint8Array };
    if (dh.ephemeral) agreed = dh.ephemeral(recipient.point);
    else {
      const ephemeral = dh.generate();
      agreed = { enc: ephemeral.point, dh: dh.sharedSecret(ephemeral.scalar, recipient.point) };
    }
    return { shared: sharedSecret(agreed.dh, agreed.enc, recipient.point), enc: agreed.enc };
  };
  const decap = (recipient: NodePrivateKey, enc: Uint8Array): Buffer =>
    sharedSecret(dh.sharedSecret(recipient.scalar, enc), Buffer.from(enc), recipient.point);
  return {
    keyLength: N_KEY,
    nonceLength: N_NONCE,
    seal: (recipient, plaintext, info, aad) =>
      attempt(() => {
        const { shared, enc } = encap(asPublic(recipient));
        const { key, nonce } = keySchedule(shared, info);
        return { ct: sealAead(key, nonce, aad, plaintext), enc: new Uint8Array(enc) };
      }),
    open: (recipient, enc, ciphertext, info, aad) =>
      attempt(() => {
        const { key, nonce } = keySchedule(decap(asPrivate(recipient), enc), info);
        return openAead(key, nonce, aad, ciphertext);
      }),
    exportSecret: (recipient, exporterContext, length, info) =>
      attempt(() => {
        const { shared, enc } = encap(asPublic(recipient));
        const { exporter } = keySchedule(shared, info);
        const secret = labeledExpand(HPKE_SUITE, exporter, 'sec', exporterContext, length);
        return { enc: new Uint8Array(enc), secret: new Uint8Array(secret) };
      }),
    importSecret: (recipient, exporterContext, enc, length, info) =>
      attempt(() => {
        const { exporter } = keySchedule(decap(asPrivate(recipient), enc), info);
        return new Uint8Array(labeledExpand(HPKE_SUITE, exporter, 'sec', exporterContext, length));
      }),
    importPrivateKey: (bytes) => attempt(() => privateKey(bytes)),
    importPublicKey: (bytes) => attempt(() => publicKey(bytes)),
    exportPrivateKey: (key) => attempt(() => new Uint8Array(asPrivate(key).scalar)),
    exportPublicKey: (key) => attempt(() => new Uint8Array(asPublic(key).point)),
    encryptAead: (key, nonce, aad, plaintext) => attempt(() => sealAead(key, nonce, aad, plaintext)),
    decryptAead: (key, nonce, aad, ciphertext) => attempt(() => openAead(key, nonce, aad, ciphertext)),
    deriveKeyPair: (ikm) =>
      attempt(() => {
        // RFC 9180 §7.1.3: rejection sampling of the scalar.
        const prk = labeledExtract(KEM_SUITE, Buffer.alloc(0), 'dkp_prk', ikm);
        for (let counter = 0; counter < 256; counter++) {
          const candidate = labeledExpand(KEM_SUITE, prk, 'candidate', i2osp(counter, 1), 32);
          const scalar = BigInt(`0x${candidate.toString('hex')}`);
          if (scalar !== 0n && scalar < P256_ORDER) {
            const key = privateKey(candidate);
            return { privateKey: key, publicKey: publicKey(asPrivate(key).point) };
          }
        }
        throw new Error('HPKE: DeriveKeyPair found no scalar');
      }),
    generateKeyPair: () =>
      attempt(() => {
        const pair = dh.generate();
        const point = Buffer.from(pair.point);
        const key: NodePrivateKey = { sdkppHpke: 'private', scalar: p256Scalar32(pair.scalar), point };
        const pub: NodePublicKey = { sdkppHpke: 'public', point }; // made here, so on the curve
        return { privateKey: key, publicKey: pub };
      }),
  };
}

/** ts-mls's {@link Hpke} for cipher suite 2 on node:crypto. */
export const nodeHpkeP256: Hpke = hpkeP256();

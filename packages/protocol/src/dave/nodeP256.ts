import {
  createECDH,
  createHash,
  createHmac,
  timingSafeEqual,
  createPrivateKey,
  createPublicKey,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

import type { Hash, Kdf, Signature } from 'ts-mls';

import { p256Scalar32 } from './p256.js';

// ts-mls keeps P-256 keys as raw bytes: a 32-byte scalar and a 65-byte uncompressed point (SEC1). node:crypto
// wants KeyObjects, so they are converted and cached (a session signs with one key and verifies a few dozen
// member keys per commit; parsing a key costs more than verifying with it). Private keys are cached by the
// identity of ts-mls's byte array (a WeakMap), so no secret outlives the session state that holds it.

const CACHE_LIMIT = 256;
const privateKeys = new WeakMap<Uint8Array, KeyObject>();
const publicKeys = new Map<string, KeyObject>();

/** Puts `value` in `cache` under `id`, dropping the oldest entry first when `limit` are held. */
function remember<V>(cache: Map<string, V>, id: string, value: V, limit = CACHE_LIMIT): V {
  if (cache.size >= limit) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(id, value);
  return value;
}

function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** The uncompressed public point of a raw P-256 scalar. */
export function p256PublicKey(signKey: Uint8Array): Uint8Array {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(signKey);
  return new Uint8Array(ecdh.getPublicKey(null, 'uncompressed'));
}

function privateKeyObject(signKey: Uint8Array): KeyObject {
  const cached = privateKeys.get(signKey);
  if (cached) return cached;
  const point = p256PublicKey(signKey);
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: b64url(signKey),
      x: b64url(point.subarray(1, 33)),
      y: b64url(point.subarray(33)),
    },
    format: 'jwk',
  });
  privateKeys.set(signKey, key);
  return key;
}

function publicKeyObject(publicKey: Uint8Array): KeyObject {
  const id = b64url(publicKey);
  const cached = publicKeys.get(id);
  if (cached) return cached;
  // A JWK, not the point wrapped in DER SPKI: on Node 20's OpenSSL 3.0 the DER import goes through the
  // generic decoder and takes 250-500 µs, the JWK one 150 µs (each new member's key is imported once per
  // commit that adds it). Only uncompressed points (0x04 ‖ x ‖ y) have a JWK form; anything else still goes
  // the DER way, where OpenSSL decides what it accepts.
  const key =
    publicKey.length === 65 && publicKey[0] === 0x04
      ? createPublicKey({
          key: {
            kty: 'EC',
            crv: 'P-256',
            x: b64url(publicKey.subarray(1, 33)),
            y: b64url(publicKey.subarray(33)),
          },
          format: 'jwk',
        })
      : createPublicKey({ key: Buffer.concat([P256_SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
  return remember(publicKeys, id, key);
}

/** DER SubjectPublicKeyInfo header of an uncompressed P-256 point (id-ecPublicKey, prime256v1). */
const P256_SPKI_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

/**
 * Generates a P-256 key pair in ts-mls's raw form (32-byte scalar, 65-byte uncompressed point).
 *
 * Through ECDH, not generateKeyPairSync + export({ format: 'jwk' }): on Node 20 that export holds the key's
 * mutex while it allocates the JWK strings, and a garbage collection there that finalizes the key's own
 * generation job locks the same mutex again: the process hangs for good (seen in CI, a gdb backtrace of
 * ExportJWKEcKey → GC → ~KeyGenJob → uv_mutex_lock).
 */
export function generateP256KeyPair(): { signKey: Uint8Array; publicKey: Uint8Array } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  // A plain Uint8Array (p256Scalar32 returns a Buffer, whose slice() shares memory instead of copying).
  const signKey = new Uint8Array(p256Scalar32(ecdh.getPrivateKey()));
  return { signKey, publicKey: new Uint8Array(ecdh.getPublicKey(null, 'uncompressed')) };
}

/**
 * ts-mls's {@link Signature} for P-256 ECDSA with SHA-256 and DER signatures (what cipher suite 2 and every
 * DAVE implementation use), on node:crypto. Verification of a malformed key or signature returns false.
 */
export const nodeP256Signature: Signature = {
  sign(signKey, message) {
    return Promise.resolve(new Uint8Array(sign('sha256', message, privateKeyObject(signKey))));
  },
  verify(publicKey, message, signature) {
    return verifySoon(publicKey, message, signature);
  },
  keygen() {
    return Promise.resolve(generateP256KeyPair());
  },
};

function verifyNow(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return verify('sha256', message, publicKeyObject(publicKey), signature);
  } catch {
    return false;
  }
}

/** A verification asked for and not yet started. */
interface VerifyJob {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
  resolve: (valid: boolean) => void;
}

/** At most this many verifications go to the thread pool at once (libuv's pool has 4 threads by default). */
const POOL_BATCH = 64;
let queued: VerifyJob[] = [];

/**
 * Verifies now, or side by side with the verifications asked for in the same turn of the event loop: a member
 * joining checks the signature of every leaf of the tree (ts-mls starts those checks together, see
 * validateRatchetTree in scripts/patch-ts-mls.mjs), at 85 µs each on Node 20's OpenSSL. A lone verification
 * runs on this thread at once (a round trip through the pool would only add latency); of several, the first
 * runs here and the rest on libuv's thread pool, so the cores share them.
 */
function verifySoon(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  return new Promise((resolve) => {
    queued.push({ publicKey, message, signature, resolve });
    if (queued.length === 1) queueMicrotask(runQueued);
  });
}

function runQueued(): void {
  const jobs = queued;
  queued = [];
  for (let i = 1; i < jobs.length; i++) {
    const job = jobs[i];
    if (job === undefined) continue;
    if (i > POOL_BATCH) {
      job.resolve(verifyNow(job.publicKey, job.message, job.signature));
      continue;
    }
    try {
      verify('sha256', job.message, publicKeyObject(job.publicKey), job.signature, (error, valid) => {
        job.resolve(error === null && valid);
      });
    } catch {
      job.resolve(false); // a key OpenSSL cannot read
    }
  }
  const first = jobs[0];
  if (first) first.resolve(verifyNow(first.publicKey, first.message, first.signature));
}

/** How many verified (key, message, signature) triples one session's {@link sessionP256Signature} keeps. */
const VERIFIED_LIMIT = 64;

/**
 * `base` (by default {@link nodeP256Signature}) for one DAVE session, which remembers the last 64 signatures it
 * found valid with their key and message. ts-mls checks a proposed key package when the proposal arrives (op 27) and the same
 * signatures again when the commit that adds it arrives (op 29): at 85 µs a verification on Node 20's OpenSSL,
 * the repeat is a tenth of processing a commit. Only a byte-for-byte repeat of a triple that verified is
 * answered from memory; anything else is verified. Per session, so one call's checks never answer another's.
 */
export function sessionP256Signature(base: Signature = nodeP256Signature): Signature {
  const verified = new Map<string, { publicKey: Buffer; message: Buffer }>();
  return {
    ...base,
    verify(publicKey, message, signature) {
      const id = b64url(signature);
      const known = verified.get(id);
      if (known?.publicKey.equals(publicKey) === true && known.message.equals(message)) {
        return Promise.resolve(true);
      }
      // Copied now: the caller may reuse its buffers before the verification has run.
      const entry = { publicKey: Buffer.from(publicKey), message: Buffer.from(message) };
      return base.verify(entry.publicKey, entry.message, Buffer.from(signature)).then((valid) => {
        if (valid) remember(verified, id, entry, VERIFIED_LIMIT);
        return valid;
      });
    },
  };
}

function hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac('sha256', key).update(data).digest());
}

/**
 * ts-mls's {@link Hash} for SHA-256 on node:crypto. ts-mls's default goes through WebCrypto, whose every call
 * is an asynchronous hop to the thread pool (about 0.07 ms for a few bytes); the MLS key schedule and tree
 * hashing make hundreds of these calls per commit.
 */
export const nodeSha256: Hash = {
  digest(data) {
    return Promise.resolve(new Uint8Array(createHash('sha256').update(data).digest()));
  },
  mac(key, data) {
    return Promise.resolve(hmacSha256(key, data));
  },
  verifyMac(key, mac, data) {
    const expected = hmacSha256(key, data);
    return Promise.resolve(expected.length === mac.length && timingSafeEqual(expected, mac));
  },
};

/**
 * ts-mls's {@link Kdf} for HKDF-SHA256 (RFC 5869) on node:crypto HMAC, for the same reason as
 * {@link nodeSha256}. (Node's own `hkdf` always extracts first, so extract and expand are written out.)
 */
export const nodeHkdfSha256: Kdf = {
  size: 32,
  extract(salt, ikm) {
    return Promise.resolve(hmacSha256(salt.length > 0 ? salt : new Uint8Array(32), ikm));
  },
  expand(prk, info, len) {
    if (len > 255 * 32) return Promise.reject(new RangeError('HKDF-Expand: output too long'));
    const out = new Uint8Array(len);
    let block = new Uint8Array(0);
    for (let counter = 1, at = 0; at < len; counter++) {
      block = new Uint8Array(
        createHmac('sha256', prk).update(block).update(info).update(Uint8Array.of(counter)).digest(),
      );
      out.set(block.subarray(0, Math.min(32, len - at)), at);
      at += 32;
    }
    return Promise.resolve(out);
  },
};

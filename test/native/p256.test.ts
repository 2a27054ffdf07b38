import { createECDH, createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';
import type { Hpke } from 'ts-mls';

import { hpkeP256 } from '../../packages/protocol/src/dave/nodeHpke.js';
import { loadTsMls } from '../../packages/protocol/src/dave/tsMls.js';
import type { NativeAddon } from '../../packages/sdkpp/src/media/addon/types.js';
import { nativeP256 } from '../../packages/sdkpp/src/media/dave/session/nativeP256.js';
import { requireNativeAddon } from './requireAddon.js';

// The addon's P-256 (native/core/crypto/openssl_p256.cc), which the DAVE session's MLS cipher suite runs on:
// RFC 6979's P-256 key and signature, node:crypto on the other side of every operation, HPKE against
// @hpke/core, and every malformed key, point and signature refused with a typed error or a false.

// RFC 6979 A.2.5: the P-256 key, and the SHA-256 signature of "sample" (r ‖ s).
const RFC6979 = {
  x: 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721',
  ux: '60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6',
  uy: '7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299',
  r: 'efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716',
  s: 'f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8',
};
/** The order of P-256's base point, big-endian. */
const ORDER = Buffer.from('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551', 'hex');

/** A DER ECDSA-Sig-Value of two 32-byte big-endian integers. */
function der(r: Buffer, s: Buffer): Buffer {
  const integer = (v: Buffer): Buffer => {
    let i = 0;
    while (i < v.length - 1 && v[i] === 0) i++;
    const body = (v[i] ?? 0) & 0x80 ? Buffer.concat([Buffer.of(0), v.subarray(i)]) : v.subarray(i);
    return Buffer.concat([Buffer.of(0x02, body.length), body]);
  };
  const content = Buffer.concat([integer(r), integer(s)]);
  return Buffer.concat([Buffer.of(0x30, content.length), content]);
}

function nodeKeys(scalar: Buffer, point: Buffer) {
  const b64 = (b: Buffer): string => b.toString('base64url');
  const jwk = { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33)) };
  return {
    publicKey: createPublicKey({ key: jwk, format: 'jwk' }),
    privateKey: createPrivateKey({ key: { ...jwk, d: b64(scalar) }, format: 'jwk' }),
  };
}

let addon: Required<NativeAddon>;
beforeAll(() => {
  addon = requireNativeAddon() as Required<NativeAddon>;
});

describe('the native P-256', () => {
  it('is there on this platform (its libcrypto has EC), and the DAVE session takes it', () => {
    for (const name of ['p256Sign', 'p256Verify', 'p256SharedSecret', 'p256Generate', 'p256PublicPoint']) {
      expect(typeof (addon as unknown as Record<string, unknown>)[name], name).toBe('function');
    }
    expect(nativeP256()).toBeDefined();
  });

  it('matches RFC 6979\'s key and verifies its signature of "sample"', () => {
    const scalar = Buffer.from(RFC6979.x, 'hex');
    const point = Buffer.concat([Buffer.of(4), Buffer.from(RFC6979.ux + RFC6979.uy, 'hex')]);
    expect(addon.p256PublicPoint(scalar)).toEqual(point);
    const signature = der(Buffer.from(RFC6979.r, 'hex'), Buffer.from(RFC6979.s, 'hex'));
    expect(addon.p256Verify(point, Buffer.from('sample'), signature)).toBe(true);
    expect(addon.p256Verify(point, Buffer.from('samplf'), signature)).toBe(false);
  });

  it('signs what node:crypto verifies and verifies what it signs', () => {
    for (let i = 0; i < 30; i++) {
      const [scalar, point] = addon.p256Generate();
      expect(scalar).toHaveLength(32);
      expect(point).toHaveLength(65);
      const { publicKey, privateKey } = nodeKeys(scalar, point);
      const message = randomBytes(i * 23);
      expect(verify('sha256', message, publicKey, addon.p256Sign(scalar, message))).toBe(true);
      const theirs = sign('sha256', message, privateKey);
      expect(addon.p256Verify(point, message, theirs)).toBe(true);
      const tampered = Buffer.from(theirs);
      tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
      expect(addon.p256Verify(point, message, tampered)).toBe(false);
      expect(addon.p256Verify(point, Buffer.concat([message, Buffer.of(0)]), theirs)).toBe(false);
    }
  });

  it("agrees keys with node:crypto's ECDH both ways and derives the same public points", () => {
    for (let i = 0; i < 30; i++) {
      const [scalar, point] = addon.p256Generate();
      const other = createECDH('prime256v1');
      const otherPoint = other.generateKeys();
      expect(addon.p256SharedSecret(scalar, otherPoint)).toEqual(other.computeSecret(point));
      const mine = createECDH('prime256v1');
      mine.setPrivateKey(scalar);
      expect(mine.getPublicKey()).toEqual(point);
      // The addon takes 32-byte scalars; OpenSSL gives one without its leading zero bytes (1 in 256).
      const otherScalar = Buffer.alloc(32);
      other.getPrivateKey().copy(otherScalar, 32 - other.getPrivateKey().length);
      expect(addon.p256PublicPoint(otherScalar)).toEqual(otherPoint);
    }
  });

  it('refuses scalars out of range and points off the curve with ERR_P256_INVALID_KEY', () => {
    const [scalar, point] = addon.p256Generate();
    const message = Buffer.from('m');
    const offCurve = Buffer.from(point);
    offCurve[64] = (offCurve[64] ?? 0) ^ 1;
    const compressed = Buffer.concat([Buffer.of(2 + ((point[64] ?? 0) & 1)), point.subarray(1, 33)]);
    const badScalars = [
      Buffer.alloc(32),
      ORDER,
      Buffer.alloc(32, 0xff),
      scalar.subarray(1),
      Buffer.alloc(33, 1),
    ];
    for (const bad of badScalars) {
      expect(() => addon.p256Sign(bad, message)).toThrow(
        expect.objectContaining({ code: 'ERR_P256_INVALID_KEY' }),
      );
      expect(() => addon.p256PublicPoint(bad)).toThrow(
        expect.objectContaining({ code: 'ERR_P256_INVALID_KEY' }),
      );
      expect(() => addon.p256SharedSecret(bad, point)).toThrow(RangeError);
    }
    for (const bad of [offCurve, compressed, point.subarray(0, 64), Buffer.alloc(65), Buffer.alloc(0)]) {
      expect(() => addon.p256SharedSecret(scalar, bad)).toThrow(
        expect.objectContaining({ code: 'ERR_P256_INVALID_KEY' }),
      );
      expect(addon.p256Verify(bad, message, addon.p256Sign(scalar, message))).toBe(false);
    }
    // The scalar never appears in a message: only sizes do.
    try {
      addon.p256Sign(ORDER, message);
    } catch (error) {
      expect(String(error)).not.toContain(ORDER.toString('hex'));
    }
  });

  it('answers false for malformed signatures, whatever their length', () => {
    const [scalar, point] = addon.p256Generate();
    const message = Buffer.from('message');
    const good = addon.p256Sign(scalar, message);
    const candidates = [
      Buffer.alloc(0),
      Buffer.alloc(1),
      good.subarray(0, good.length - 1),
      Buffer.concat([good, Buffer.of(0)]), // trailing garbage: not the canonical DER
      Buffer.alloc(72, 0x30),
      Buffer.alloc(73),
      Buffer.alloc(4096, 0xff),
      randomBytes(64), // a raw r ‖ s, not DER
    ];
    for (const signature of candidates) expect(addon.p256Verify(point, message, signature)).toBe(false);
    expect(addon.p256Verify(point, message, good)).toBe(true);
  });

  it('refuses arguments that are not bytes with ERR_INVALID_ARG_TYPE', () => {
    const call = addon.p256Verify as unknown as (...args: unknown[]) => boolean;
    expect(() => call('04', Buffer.alloc(1), Buffer.alloc(1))).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
    const signWith = addon.p256Sign as unknown as (...args: unknown[]) => Buffer;
    expect(() => signWith(new Uint16Array(16), Buffer.alloc(1))).toThrow(TypeError);
  });
});

describe('HPKE (cipher suite 2) on the native P-256', () => {
  let ours: Hpke;
  let theirs: Hpke;
  beforeAll(async () => {
    const primitives = nativeP256();
    if (!primitives) throw new Error('no native P-256');
    ours = hpkeP256(primitives);
    const mls = await loadTsMls();
    theirs = (await mls.getCiphersuiteImpl('MLS_128_DHKEMP256_AES128GCM_SHA256_P256')).hpke;
  });

  /* eslint-disable @typescript-eslint/no-unsafe-assignment -- ts-mls's HPKE key types are DOM CryptoKeys */
  it('opens what @hpke/core seals and the other way round, and refuses a tampered ciphertext', async () => {
    for (const [sealer, opener] of [
      [ours, theirs],
      [theirs, ours],
    ] as const) {
      for (let i = 0; i < 5; i++) {
        const pair = await opener.generateKeyPair();
        const recipient = await sealer.importPublicKey(await opener.exportPublicKey(pair.publicKey));
        const plaintext = randomBytes(i * 41);
        const info = randomBytes(i);
        const { ct, enc } = await sealer.seal(recipient, plaintext, info, undefined);
        expect(Buffer.from(await opener.open(pair.privateKey, enc, ct, info, undefined))).toEqual(plaintext);
        const bad = Uint8Array.from(ct);
        bad[0] = (bad[0] ?? 0) ^ 1;
        await expect(opener.open(pair.privateKey, enc, bad, info, undefined)).rejects.toThrow();
      }
    }
  });

  it('derives the same key pairs as @hpke/core, and imports a private key to the same point', async () => {
    for (let i = 0; i < 10; i++) {
      const ikm = randomBytes(32);
      const a = await ours.deriveKeyPair(ikm);
      const b = await theirs.deriveKeyPair(ikm);
      expect(await ours.exportPublicKey(a.publicKey)).toEqual(await theirs.exportPublicKey(b.publicKey));
      const scalar = await ours.exportPrivateKey(a.privateKey);
      const reimported = await ours.importPrivateKey(scalar);
      expect(await ours.exportPrivateKey(reimported)).toEqual(scalar);
    }
  });
  /* eslint-enable @typescript-eslint/no-unsafe-assignment */
});

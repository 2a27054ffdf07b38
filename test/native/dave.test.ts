import { hkdfSync, randomBytes, randomInt } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import { DAVE_RESULTS } from '../../packages/sdkpp/src/media/index.js';
import { hkdfSha256Expand, hkdfSha256Extract } from '../../packages/sdkpp/src/media/dave/js/hkdf.js';
import type { NativeAddon } from '../../packages/sdkpp/src/media/addon/types.js';
import { requireNativeAddon } from './requireAddon.js';

// RFC 5869 appendix A, test cases 1 and 3 (SHA-256).
const RFC5869 = [
  {
    ikm: '0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b',
    salt: '000102030405060708090a0b0c',
    info: 'f0f1f2f3f4f5f6f7f8f9',
    length: 42,
    prk: '077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5',
    okm: '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
  },
  {
    ikm: '0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b',
    salt: '',
    info: '',
    length: 42,
    prk: '19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04',
    okm: '8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8',
  },
];

describe('the native HKDF-SHA256 and DAVE exports', () => {
  let addon: NativeAddon;
  beforeAll(() => {
    addon = requireNativeAddon();
  });

  it('lists the DAVE result names in the order of src/media/dave/types.ts', () => {
    expect(addon.daveResultNames()).toEqual([...DAVE_RESULTS]);
  });

  it.each(RFC5869)('matches RFC 5869 ($length bytes, salt "$salt")', (vector) => {
    const prk = addon.hkdfSha256Extract(Buffer.from(vector.salt, 'hex'), Buffer.from(vector.ikm, 'hex'));
    expect(prk.toString('hex')).toBe(vector.prk);
    expect(addon.hkdfSha256Expand(prk, Buffer.from(vector.info, 'hex'), vector.length).toString('hex')).toBe(
      vector.okm,
    );
    // The JS engine's HMAC-built twin gives the same bytes.
    expect(hkdfSha256Extract(Buffer.from(vector.salt, 'hex'), Buffer.from(vector.ikm, 'hex'))).toEqual(prk);
    expect(hkdfSha256Expand(prk, Buffer.from(vector.info, 'hex'), vector.length).toString('hex')).toBe(
      vector.okm,
    );
  });

  it('agrees with node:crypto hkdfSync on random inputs, and expands short (16-byte) keys', () => {
    for (let i = 0; i < 50; i++) {
      const salt = randomBytes(randomInt(0, 64));
      const ikm = randomBytes(randomInt(1, 64));
      const info = randomBytes(randomInt(0, 200));
      const length = randomInt(1, 300);
      const expected = Buffer.from(hkdfSync('sha256', ikm, salt, info, length));
      const prk = addon.hkdfSha256Extract(salt, ikm);
      expect(addon.hkdfSha256Expand(prk, info, length)).toEqual(expected);
      const shortKey = randomBytes(16);
      expect(addon.hkdfSha256Expand(shortKey, info, length)).toEqual(
        hkdfSha256Expand(shortKey, info, length),
      );
    }
  });

  it('refuses output sizes RFC 5869 forbids and over-long infos', () => {
    const prk = randomBytes(32);
    for (const length of [0, 255 * 32 + 1]) {
      expect(() => addon.hkdfSha256Expand(prk, Buffer.alloc(0), length)).toThrow(
        expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }),
      );
    }
    expect(addon.hkdfSha256Expand(prk, Buffer.alloc(0), 255 * 32)).toHaveLength(8160);
    expect(() => addon.hkdfSha256Expand(prk, Buffer.alloc(257), 16)).toThrow(
      expect.objectContaining({ code: 'ERR_DAVE_BACKEND' }),
    );
  });
});

describe('the native DAVE self-test', () => {
  it('passes, and a steady-state frame makes no heap allocation', () => {
    const report = requireNativeAddon().daveSelfTest();
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    // gcm-*: the frame cipher against NIST's AES-GCM vector, and its CPU-instruction backend against
    // OpenSSL's on random messages in random pieces.
    expect(report.checks.map((check) => check.name)).toEqual([
      'ratchet-vector',
      'gcm-known-answer',
      'gcm-backends-agree',
      'opus-frame-layout',
      'round-trips',
      'refusals',
      'no-allocation-per-frame',
    ]);
    expect(report.ok).toBe(true);
    expect(report.frames).toBe(1000);
    if (process.platform === 'linux') expect(report.countingAvailable).toBe(true);
    expect(report.allocationsInFrames).toBe(0);
  });
});

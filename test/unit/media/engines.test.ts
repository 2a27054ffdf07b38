import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import {
  AEAD_ALGORITHMS,
  createMediaEngine,
  MediaEngineError,
  type AeadAlgorithm,
  type MediaEngine,
  type MediaEngineErrorCode,
  type MediaEngineKind,
} from '../../../packages/sdkpp/src/media/index.js';
import aeadVectors from '../../vectors/aead.json' with { type: 'json' };
import { referenceSeal, thrownBy } from './reference.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../../packages/sdkpp/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

const ENGINES: { kind: MediaEngineKind }[] = [{ kind: 'native' }, { kind: 'js' }];
const none = Buffer.alloc(0);

function expectCode(action: () => unknown, code: MediaEngineErrorCode): MediaEngineError {
  const error = thrownBy(action);
  expect(error).toBeInstanceOf(MediaEngineError);
  expect((error as MediaEngineError).code).toBe(code);
  return error as MediaEngineError;
}

// One contract, two engines: every test here runs against the native addon and the JS engine alike. The
// native engine is created with prefer: 'native', so a missing addon fails this suite with the remedy.
describe.each(ENGINES)('the $kind media engine', ({ kind }) => {
  let engine: MediaEngine;
  beforeAll(() => {
    engine = createMediaEngine({ prefer: kind });
  });

  it('describes itself', () => {
    expect(engine.info.engine).toBe(kind);
    expect(engine.info.version).toBe(packageVersion);
    expect(engine.info.crypto.version).toMatch(/^OpenSSL \d+\.\d+\.\d+/);
    // The native addon is built with libopus in CI (.ci/run); the JS engine has libopus in wasm.
    expect(engine.info.codec.name).toBe(kind === 'native' ? 'libopus' : 'opus-wasm');
    expect(Object.isFrozen(engine.info.codec)).toBe(true);
    expect(engine.info.features).toEqual([...AEAD_ALGORITHMS]);
    expect(engine.info.fallbackReason).toBeUndefined();
    expect(Object.isFrozen(engine.info)).toBe(true);
  });

  it('passes its crypto self-test', () => {
    const result = engine.cryptoSelfTest();
    expect(result).toEqual({
      ok: true,
      results: AEAD_ALGORITHMS.map((algorithm) => ({
        algorithm,
        ok: true,
        knownAnswer: true,
        roundTrip: true,
        rejectsTampering: true,
      })),
    });
  });

  describe.each(aeadVectors.vectors)('known answer $name', (vector) => {
    const algorithm = vector.algorithm as AeadAlgorithm;
    const [key, nonce, aad, plaintext, sealed] = [
      vector.key,
      vector.nonce,
      vector.aad,
      vector.plaintext,
      vector.ciphertext + vector.tag,
    ].map((hex) => Buffer.from(hex, 'hex')) as [Buffer, Buffer, Buffer, Buffer, Buffer];

    it('seals byte-exact', () => {
      expect(engine.aeadSeal(algorithm, key, nonce, aad, plaintext).toString('hex')).toBe(
        sealed.toString('hex'),
      );
    });

    it('opens byte-exact', () => {
      expect(engine.aeadOpen(algorithm, key, nonce, aad, sealed).toString('hex')).toBe(vector.plaintext);
    });
  });

  describe.each(AEAD_ALGORITHMS)('%s', (algorithm) => {
    it('matches node:crypto byte for byte on random inputs, and opens its own output', () => {
      for (let i = 0; i < 300; i++) {
        const key = randomBytes(32);
        const nonce = randomBytes(12);
        const aad = randomBytes(i % 4 === 0 ? 0 : randomInt(1, 65));
        const plaintext = randomBytes(randomInt(0, 1500));
        const sealed = engine.aeadSeal(algorithm, key, nonce, aad, plaintext);
        expect(sealed.equals(referenceSeal(algorithm, key, nonce, aad, plaintext))).toBe(true);
        expect(engine.aeadOpen(algorithm, key, nonce, aad, sealed).equals(plaintext)).toBe(true);
      }
    });

    it('takes plain Uint8Arrays and views into larger buffers', () => {
      const backing = new Uint8Array(randomBytes(300));
      const key = backing.subarray(1, 33);
      const nonce = backing.subarray(40, 52);
      const aad = new Uint8Array(randomBytes(9));
      const plaintext = backing.subarray(60, 299);
      const sealed = engine.aeadSeal(algorithm, key, nonce, aad, plaintext);
      expect(sealed.equals(referenceSeal(algorithm, key, nonce, aad, plaintext))).toBe(true);
      expect(engine.aeadOpen(algorithm, key, nonce, aad, new Uint8Array(sealed))).toEqual(
        Buffer.from(plaintext),
      );
    });

    it('seals and opens a zero-length plaintext, with and without AAD', () => {
      const key = randomBytes(32);
      const nonce = randomBytes(12);
      for (const aad of [none, randomBytes(13)]) {
        const sealed = engine.aeadSeal(algorithm, key, nonce, aad, none);
        expect(sealed.length).toBe(16);
        expect(sealed.equals(referenceSeal(algorithm, key, nonce, aad, none))).toBe(true);
        expect(engine.aeadOpen(algorithm, key, nonce, aad, sealed).length).toBe(0);
      }
    });

    it('rejects every tampered input with ERR_AEAD_AUTHENTICATION_FAILED', () => {
      const key = randomBytes(32);
      const nonce = randomBytes(12);
      const aad = randomBytes(20);
      const sealed = engine.aeadSeal(algorithm, key, nonce, aad, randomBytes(100));
      const flipped = (bytes: Buffer, index: number): Buffer => {
        const copy = Buffer.from(bytes);
        copy[index] = (copy[index] ?? 0) ^ 0x01;
        return copy;
      };
      const attempts: [string, () => unknown][] = [
        ['ciphertext', () => engine.aeadOpen(algorithm, key, nonce, aad, flipped(sealed, 5))],
        ['tag', () => engine.aeadOpen(algorithm, key, nonce, aad, flipped(sealed, sealed.length - 1))],
        ['aad', () => engine.aeadOpen(algorithm, key, nonce, flipped(aad, 0), sealed)],
        ['missing aad', () => engine.aeadOpen(algorithm, key, nonce, none, sealed)],
        ['nonce', () => engine.aeadOpen(algorithm, key, flipped(nonce, 11), aad, sealed)],
        ['key', () => engine.aeadOpen(algorithm, flipped(key, 0), nonce, aad, sealed)],
        ['truncated', () => engine.aeadOpen(algorithm, key, nonce, aad, sealed.subarray(1))],
      ];
      for (const [what, attempt] of attempts) {
        const error = expectCode(attempt, 'ERR_AEAD_AUTHENTICATION_FAILED');
        expect(error.message, what).toContain(`${algorithm} authentication failed`);
      }
      // The failures leave nothing behind: the genuine message still opens.
      expect(engine.aeadOpen(algorithm, key, nonce, aad, sealed).length).toBe(100);
    });

    it('refuses wrong key and nonce sizes with a typed error', () => {
      const nonce = randomBytes(12);
      const key = randomBytes(32);
      for (const size of [0, 16, 31, 33, 64]) {
        const error = expectCode(
          () => engine.aeadSeal(algorithm, randomBytes(size), nonce, none, none),
          'ERR_AEAD_INVALID_KEY_SIZE',
        );
        expect(error.message).toBe(
          `${algorithm} needs a 32-byte key, got ${size} ${size === 1 ? 'byte' : 'bytes'}`,
        );
        expectCode(
          () => engine.aeadOpen(algorithm, randomBytes(size), nonce, none, randomBytes(16)),
          'ERR_AEAD_INVALID_KEY_SIZE',
        );
      }
      for (const size of [0, 8, 11, 13, 24]) {
        expectCode(
          () => engine.aeadSeal(algorithm, key, randomBytes(size), none, none),
          'ERR_AEAD_INVALID_NONCE_SIZE',
        );
        expectCode(
          () => engine.aeadOpen(algorithm, key, randomBytes(size), none, randomBytes(16)),
          'ERR_AEAD_INVALID_NONCE_SIZE',
        );
      }
      for (const size of [0, 1, 15]) {
        expectCode(
          () => engine.aeadOpen(algorithm, key, nonce, none, randomBytes(size)),
          'ERR_AEAD_CIPHERTEXT_TOO_SHORT',
        );
      }
    });

    it('never puts key bytes in an error message', () => {
      const key = randomBytes(31);
      const error = expectCode(
        () => engine.aeadSeal(algorithm, key, randomBytes(12), none, none),
        'ERR_AEAD_INVALID_KEY_SIZE',
      );
      expect(error.message).not.toContain(key.toString('hex'));
      expect(error.message).not.toContain(key.toString('base64'));
    });
  });

  it('refuses arguments of the wrong type with ERR_INVALID_ARG_TYPE', () => {
    const loose = engine as unknown as Record<'aeadSeal' | 'aeadOpen', (...args: unknown[]) => Buffer>;
    const key = randomBytes(32);
    const nonce = randomBytes(12);
    const badArgs: unknown[][] = [
      [],
      [42, key, nonce, none, none],
      ['aes-256-gcm', 'key', nonce, none, none],
      ['aes-256-gcm', key, [1, 2, 3], none, none],
      ['aes-256-gcm', key, nonce, null, none],
      ['aes-256-gcm', key, nonce, none, undefined],
      ['aes-256-gcm', new Uint32Array(8), nonce, none, none],
      ['aes-256-gcm', key.buffer, nonce, none, none],
    ];
    for (const args of badArgs) {
      expectCode(() => loose.aeadSeal(...args), 'ERR_INVALID_ARG_TYPE');
      expectCode(() => loose.aeadOpen(...args), 'ERR_INVALID_ARG_TYPE');
    }
  });

  it('refuses algorithms it does not implement', () => {
    const seal = engine.aeadSeal.bind(engine) as (...args: unknown[]) => Buffer;
    for (const name of ['aes-128-gcm', 'xchacha20-poly1305', 'AES-256-GCM', '']) {
      expectCode(
        () => seal(name, randomBytes(32), randomBytes(12), none, none),
        'ERR_AEAD_UNSUPPORTED_ALGORITHM',
      );
    }
  });
});

describe('the two engines', () => {
  it('fail alike, down to the message', () => {
    const native = createMediaEngine({ prefer: 'native' });
    const js = createMediaEngine({ prefer: 'js' });
    const key = randomBytes(32);
    const nonce = randomBytes(12);
    const cases: [string, (engine: MediaEngine) => unknown][] = [
      ['short key', (engine) => engine.aeadSeal('aes-256-gcm', key.subarray(2), nonce, none, none)],
      ['long nonce', (engine) => engine.aeadSeal('chacha20-poly1305', key, randomBytes(24), none, none)],
      ['short input', (engine) => engine.aeadOpen('aes-256-gcm', key, nonce, none, randomBytes(3))],
      ['forged', (engine) => engine.aeadOpen('chacha20-poly1305', key, nonce, none, randomBytes(40))],
      ['bad algorithm', (engine) => engine.aeadSeal('rot13' as AeadAlgorithm, key, nonce, none, none)],
      [
        'bad key type',
        (engine) => engine.aeadSeal('aes-256-gcm', 'k' as unknown as Uint8Array, nonce, none, none),
      ],
    ];
    for (const [what, attempt] of cases) {
      const fromNative = thrownBy(() => attempt(native)) as MediaEngineError;
      const fromJs = thrownBy(() => attempt(js)) as MediaEngineError;
      expect({ code: fromJs.code, message: fromJs.message }, what).toEqual({
        code: fromNative.code,
        message: fromNative.message,
      });
    }
  });
});

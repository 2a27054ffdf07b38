import { randomBytes, randomInt } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import {
  createMediaEngine,
  DAVE_RESULTS,
  MediaEngineError,
  OPUS_SILENCE_FRAME,
  type DaveDecryptor,
  type DaveEncryptor,
  type DaveRange,
  type DaveResultCode,
  type MediaEngine,
  type MediaEngineKind,
} from '../../../packages/sdkpp/src/media/index.js';
import { craftFrame, lengthOf, referenceOpusFrame, uleb } from './daveHelpers.js';
import { thrownBy } from './reference.js';

const KINDS: MediaEngineKind[] = ['native', 'js'];
const ENGINES = KINDS.map((kind) => ({ kind }));
const PAIRS = KINDS.flatMap((sender) => KINDS.map((receiver) => ({ sender, receiver })));
const GENERATION = 2 ** 24;
// davey's hash_ratchet.rs vector (dave-e2ee.md §1.7).
const VECTOR_BASE = Buffer.from('cedd61b1b8a1ca69046554282cf70b7b', 'hex');
const VECTOR_KEY_0 = '7530f9a9945e2d2e06d0651f7b2a864b';

const engines = new Map<MediaEngineKind, MediaEngine>();
function engine(kind: MediaEngineKind): MediaEngine {
  let made = engines.get(kind);
  if (made === undefined) {
    made = createMediaEngine({ prefer: kind });
    engines.set(kind, made);
  }
  return made;
}

function encryptOne(encryptor: DaveEncryptor, frame: Uint8Array, ranges?: DaveRange[]): Buffer {
  const out = Buffer.alloc(encryptor.maxEncryptedLength(frame.length, ranges));
  return out.subarray(0, lengthOf(encryptor.encrypt(frame, out, ranges)));
}

describe.each(PAIRS)(
  'DAVE frames from the $sender engine to the $receiver engine',
  ({ sender, receiver }) => {
    it('round-trip Opus frames of every size, and frames with clear ranges', () => {
      const base = randomBytes(16);
      const encryptor = engine(sender).createDaveEncryptor();
      encryptor.setKeyRatchet(base);
      const decryptor = engine(receiver).createDaveDecryptor();
      decryptor.transitionToKeyRatchet(base);
      for (let i = 0; i < 200; i++) {
        const frame = randomBytes(randomInt(0, 1500));
        const ranges: DaveRange[] = [];
        for (let at = 0; i % 2 === 1 && at < frame.length && ranges.length < 8;) {
          const offset = randomInt(at, frame.length + 1);
          const size = randomInt(0, frame.length - offset + 1);
          ranges.push({ offset, size });
          at = offset + size + 1;
        }
        const sealed = encryptOne(encryptor, frame, ranges);
        expect(encryptor.stats().lastNonce).toBe(i + 1);
        const out = Buffer.alloc(sealed.length);
        expect(decryptor.decrypt(sealed, out)).toEqual({
          ok: true,
          length: frame.length,
          passthrough: false,
        });
        expect(out.subarray(0, frame.length)).toEqual(frame);
        for (const { offset, size } of ranges) {
          expect(sealed.subarray(offset, offset + size)).toEqual(frame.subarray(offset, offset + size));
        }
      }
      expect(decryptor.stats().ok).toBe(200);
    });

    it('decrypt across key generations, and the frames of the previous generation for 10 s', () => {
      let now = 1_000;
      const base = randomBytes(16);
      const encryptor = engine(sender).createDaveEncryptor();
      encryptor.setKeyRatchet(base);
      const decryptor = engine(receiver).createDaveDecryptor({ now: () => now });
      decryptor.transitionToKeyRatchet(base);
      const frame = randomBytes(120);
      encryptor.setNextNonce(GENERATION - 3); // the last frames of generation 0
      const oldFrames = [1, 2, 3].map(() => encryptOne(encryptor, frame));
      const newFrame = encryptOne(encryptor, frame);
      const out = Buffer.alloc(200);
      expect(lengthOf(decryptor.decrypt(oldFrames[0] ?? Buffer.alloc(0), out))).toBe(120);
      expect(lengthOf(decryptor.decrypt(newFrame, out))).toBe(120);
      expect(out.subarray(0, 120)).toEqual(frame);
      now += 9_999;
      expect(lengthOf(decryptor.decrypt(oldFrames[1] ?? Buffer.alloc(0), out))).toBe(120);
      now += 1;
      expect(decryptor.decrypt(oldFrames[2] ?? Buffer.alloc(0), out)).toEqual({
        ok: false,
        code: 'ERR_DAVE_KEY_EXPIRED',
      });
      expect(decryptor.stats().failures.ERR_DAVE_KEY_EXPIRED).toBe(1);
    });
  },
);

describe.each(ENGINES)('the $kind engine’s DAVE layer', ({ kind }) => {
  let media: MediaEngine;
  beforeAll(() => {
    media = engine(kind);
  });

  function pair(options: { now?: () => number; passthrough?: boolean } = {}) {
    const base = randomBytes(16);
    const encryptor = media.createDaveEncryptor();
    encryptor.setKeyRatchet(base);
    const decryptor = media.createDaveDecryptor(options);
    decryptor.transitionToKeyRatchet(base);
    return { base, encryptor, decryptor };
  }

  function expectRefused(decryptor: DaveDecryptor, frame: Uint8Array, code: DaveResultCode): void {
    const before = decryptor.stats().failures[code];
    const out = Buffer.alloc(frame.length).fill(0xee);
    expect(decryptor.decrypt(frame, out)).toEqual({ ok: false, code });
    expect(decryptor.stats().failures[code]).toBe(before + 1);
    // A refused frame leaves no plaintext behind in the caller's buffer.
    expect(out.subarray(0, Math.max(0, frame.length - 11)).every((byte) => byte === 0 || byte === 0xee)).toBe(
      true,
    );
  }

  it('derives the hash ratchet’s published generation-0 key, and distinct later ones', () => {
    expect(media.daveFrameKey(VECTOR_BASE, 0).toString('hex')).toBe(VECTOR_KEY_0);
    const keys = [0, 1, 2, 255].map((g) => media.daveFrameKey(VECTOR_BASE, g).toString('hex'));
    expect(new Set(keys).size).toBe(4);
    for (const other of KINDS) {
      expect(engine(other).daveFrameKey(VECTOR_BASE, 255).toString('hex')).toBe(keys[3]);
    }
    expect((thrownBy(() => media.daveFrameKey(Buffer.alloc(15), 0)) as MediaEngineError).code).toBe(
      'ERR_DAVE_INVALID_KEY_SIZE',
    );
    expect((thrownBy(() => media.daveFrameKey(VECTOR_BASE, -1)) as MediaEngineError).code).toBe(
      'ERR_OUT_OF_RANGE',
    );
  });

  it('writes the documented Opus frame: whole frame encrypted, 8-byte tag, ULEB128 nonce, size, FA FA', () => {
    const { base, encryptor } = pair();
    const key = media.daveFrameKey(base, 0);
    const frame = randomBytes(120);
    const first = encryptOne(encryptor, frame);
    expect(first.length).toBe(132); // the lab example: 120 bytes became 132, ending 01 0c fa fa
    expect(first.subarray(-4).toString('hex')).toBe('010cfafa');
    expect(first).toEqual(referenceOpusFrame(key, 1, frame));
    encryptor.setNextNonce(128); // the first nonce whose ULEB128 takes two bytes
    const later = encryptOne(encryptor, frame);
    expect(later.subarray(-5).toString('hex')).toBe('80010dfafa');
    expect(later).toEqual(referenceOpusFrame(key, 128, frame));
    encryptor.setNextNonce(GENERATION + 5); // generation 1 uses the ratchet's next key
    expect(encryptOne(encryptor, frame)).toEqual(
      referenceOpusFrame(media.daveFrameKey(base, 1), GENERATION + 5, frame),
    );
  });

  it('refuses a sender key that is not 16 bytes', () => {
    const encryptor = media.createDaveEncryptor();
    const decryptor = media.createDaveDecryptor();
    expect((thrownBy(() => encryptor.setKeyRatchet(Buffer.alloc(32))) as MediaEngineError).code).toBe(
      'ERR_DAVE_INVALID_KEY_SIZE',
    );
    expect((thrownBy(() => decryptor.transitionToKeyRatchet(Buffer.alloc(0))) as MediaEngineError).code).toBe(
      'ERR_DAVE_INVALID_KEY_SIZE',
    );
  });

  it('passes the Opus silence frame through both ways, with or without a key', () => {
    const silence = Buffer.from(OPUS_SILENCE_FRAME);
    for (const { encryptor, decryptor } of [
      pair(),
      { encryptor: media.createDaveEncryptor(), decryptor: media.createDaveDecryptor() },
    ]) {
      const out = Buffer.alloc(16);
      expect(encryptor.encrypt(silence, out)).toEqual({ ok: true, length: 3, passthrough: true });
      expect(out.subarray(0, 3)).toEqual(silence);
      expect(decryptor.decrypt(silence, out)).toEqual({ ok: true, length: 3, passthrough: true });
      expect(encryptor.stats().passthrough).toBe(1);
      expect(decryptor.stats().passthrough).toBe(1);
    }
  });

  it('passes plain frames in passthrough mode, and for 10 s after it ends', () => {
    let now = 0;
    const frame = randomBytes(100);
    const encryptor = media.createDaveEncryptor();
    encryptor.setPassthroughMode(true);
    const out = Buffer.alloc(200);
    expect(encryptor.encrypt(frame, out)).toEqual({ ok: true, length: 100, passthrough: true });
    expect(out.subarray(0, 100)).toEqual(frame);
    encryptor.setPassthroughMode(false);
    expect(encryptor.encrypt(frame, out)).toEqual({ ok: false, code: 'ERR_DAVE_NO_KEY' });

    const decryptor = media.createDaveDecryptor({ passthrough: true, now: () => now });
    expect(decryptor.decrypt(frame, out)).toEqual({ ok: true, length: 100, passthrough: true });
    decryptor.transitionToPassthroughMode(false);
    now += 9_999;
    expect(decryptor.decrypt(frame, out)).toEqual({ ok: true, length: 100, passthrough: true });
    now += 1;
    expectRefused(decryptor, frame, 'ERR_DAVE_BAD_MARKER');
    expectRefused(decryptor, frame.subarray(0, 5), 'ERR_DAVE_FRAME_TOO_SHORT');
    decryptor.transitionToPassthroughMode(true);
    expect(decryptor.decrypt(frame, out)).toEqual({ ok: true, length: 100, passthrough: true });
    expect(decryptor.stats().passthrough).toBe(3);
  });

  it('refuses a DAVE frame without a key, and encrypting without one', () => {
    const { encryptor } = pair();
    const sealed = encryptOne(encryptor, randomBytes(50));
    expectRefused(media.createDaveDecryptor({ passthrough: true }), sealed, 'ERR_DAVE_NO_KEY');
    expect(media.createDaveEncryptor().encrypt(randomBytes(10), Buffer.alloc(64))).toEqual({
      ok: false,
      code: 'ERR_DAVE_NO_KEY',
    });
  });

  it('refuses every kind of malformed footer with its code, and counts it', () => {
    const { encryptor, decryptor } = pair();
    const frame = randomBytes(120);
    const good = encryptOne(encryptor, frame);
    const body = good.subarray(0, 120);
    const tag = good.subarray(120, 128);
    const cases: [string, Buffer, DaveResultCode][] = [
      ['empty', Buffer.alloc(0), 'ERR_DAVE_FRAME_TOO_SHORT'],
      ['ten bytes', good.subarray(-10), 'ERR_DAVE_FRAME_TOO_SHORT'],
      ['no marker', Buffer.concat([good.subarray(0, -1), Buffer.from([0xfb])]), 'ERR_DAVE_BAD_MARKER'],
      ['size past the frame', craftFrame(body, tag, [1], 255), 'ERR_DAVE_BAD_SUPPLEMENTAL_SIZE'],
      [
        'size past a short frame',
        craftFrame(Buffer.alloc(0), tag, [1], 13),
        'ERR_DAVE_BAD_SUPPLEMENTAL_SIZE',
      ],
      ['size below the minimum', craftFrame(body, tag, [1], 10), 'ERR_DAVE_BAD_SUPPLEMENTAL_SIZE'],
      ['no nonce', craftFrame(body, tag, []), 'ERR_DAVE_BAD_NONCE'],
      ['unterminated nonce', craftFrame(body, tag, [0x81, 0x80]), 'ERR_DAVE_BAD_NONCE'],
      ['nonce over 32 bits', craftFrame(body, tag, uleb(2 ** 32)), 'ERR_DAVE_BAD_NONCE'],
      [
        'nonce over 64 bits',
        craftFrame(body, tag, [...new Array<number>(10).fill(0xff), 0x01]),
        'ERR_DAVE_BAD_NONCE',
      ],
      ['range without a size', craftFrame(body, tag, [1, 4]), 'ERR_DAVE_BAD_RANGES'],
      ['unterminated range', craftFrame(body, tag, [1, 0x80]), 'ERR_DAVE_BAD_RANGES'],
      ['range past the end', craftFrame(body, tag, [1, 100, 21]), 'ERR_DAVE_BAD_RANGES'],
      ['range offset past the end', craftFrame(body, tag, [1, ...uleb(121), 0]), 'ERR_DAVE_BAD_RANGES'],
      [
        'huge range size',
        craftFrame(body, tag, [1, 0, ...new Array<number>(9).fill(0xff), 0x01]),
        'ERR_DAVE_BAD_RANGES',
      ],
      ['overlapping ranges', craftFrame(body, tag, [1, 0, 10, 5, 2]), 'ERR_DAVE_BAD_RANGES'],
      ['ranges out of order', craftFrame(body, tag, [1, 50, 2, 10, 2]), 'ERR_DAVE_BAD_RANGES'],
      [
        'flipped tag bit',
        craftFrame(
          body,
          tag.map((b, i) => (i === 0 ? b ^ 1 : b)),
          [1],
        ),
        'ERR_DAVE_AUTHENTICATION_FAILED',
      ],
      [
        'flipped ciphertext bit',
        craftFrame(
          body.map((b, i) => (i === 60 ? b ^ 0x80 : b)),
          tag,
          [1],
        ),
        'ERR_DAVE_AUTHENTICATION_FAILED',
      ],
      ['another nonce', craftFrame(body, tag, [2]), 'ERR_DAVE_AUTHENTICATION_FAILED'],
      ['a clear range added', craftFrame(body, tag, [1, 0, 4]), 'ERR_DAVE_AUTHENTICATION_FAILED'],
      [
        'generation 251',
        craftFrame(body, tag, uleb(251 * GENERATION + 1)),
        'ERR_DAVE_GENERATION_TOO_FAR_AHEAD',
      ],
    ];
    for (const [name, malformed, code] of cases) {
      expect({ name, result: decryptor.decrypt(malformed, Buffer.alloc(malformed.length + 1)) }).toEqual({
        name,
        result: { ok: false, code },
      });
    }
    const counted = decryptor.stats().failures;
    for (const code of new Set(cases.map(([, , c]) => c))) {
      expect({ code, count: counted[code] }).toEqual({
        code,
        count: cases.filter(([, , c]) => c === code).length,
      });
    }
    // None of it disturbed the real stream.
    expect(decryptor.decrypt(good, Buffer.alloc(132))).toEqual({ ok: true, length: 120, passthrough: false });
    expect(decryptor.stats().ok).toBe(1);
  });

  it('wipes the output when a tag is wrong, and refuses a wrong key', () => {
    const { encryptor } = pair();
    const sealed = encryptOne(encryptor, randomBytes(120));
    const stranger = media.createDaveDecryptor();
    stranger.transitionToKeyRatchet(randomBytes(16));
    expectRefused(stranger, sealed, 'ERR_DAVE_AUTHENTICATION_FAILED');
  });

  it('rejects replayed nonces and accepts reordered ones within the window', () => {
    const { encryptor, decryptor } = pair();
    const frames = Array.from({ length: 5 }, () => encryptOne(encryptor, randomBytes(40)));
    const out = Buffer.alloc(100);
    for (const index of [0, 3, 1, 4, 2])
      expect(lengthOf(decryptor.decrypt(frames[index] ?? Buffer.alloc(0), out))).toBe(40);
    for (const frame of frames) expectRefused(decryptor, frame, 'ERR_DAVE_REPLAYED_NONCE');
    // Older than the 1024-nonce window: refused even though never seen.
    const stale = encryptOne(encryptor, randomBytes(40)); // nonce 6
    encryptor.setNextNonce(2000);
    expect(lengthOf(decryptor.decrypt(encryptOne(encryptor, randomBytes(40)), out))).toBe(40);
    expectRefused(decryptor, stale, 'ERR_DAVE_REPLAYED_NONCE');
  });

  it('accepts a generation 250 ahead but not 251', () => {
    const { encryptor, decryptor } = pair();
    const out = Buffer.alloc(100);
    encryptor.setNextNonce(251 * GENERATION);
    expectRefused(decryptor, encryptOne(encryptor, randomBytes(40)), 'ERR_DAVE_GENERATION_TOO_FAR_AHEAD');
    encryptor.setNextNonce(250 * GENERATION);
    expect(lengthOf(decryptor.decrypt(encryptOne(encryptor, randomBytes(40)), out))).toBe(40);
  });

  it('keeps the previous epoch’s key for 10 s after a transition', () => {
    let now = 5_000;
    const { encryptor, decryptor } = pair({ now: () => now });
    const out = Buffer.alloc(100);
    const oldFrames = [encryptOne(encryptor, randomBytes(40)), encryptOne(encryptor, randomBytes(40))];
    const next = randomBytes(16);
    decryptor.transitionToKeyRatchet(next);
    encryptor.setKeyRatchet(next);
    expect(lengthOf(decryptor.decrypt(encryptOne(encryptor, randomBytes(40)), out))).toBe(40);
    expect(lengthOf(decryptor.decrypt(oldFrames[0] ?? Buffer.alloc(0), out))).toBe(40);
    now += 10_000;
    expectRefused(decryptor, oldFrames[1] ?? Buffer.alloc(0), 'ERR_DAVE_AUTHENTICATION_FAILED');
  });

  it('refuses bad clear ranges and small or overlapping output buffers', () => {
    const { encryptor, decryptor } = pair();
    const frame = randomBytes(50);
    const out = Buffer.alloc(100);
    for (const ranges of [
      [{ offset: 40, size: 11 }],
      [
        { offset: 10, size: 5 },
        { offset: 12, size: 1 },
      ],
      [{ offset: 0.5, size: 1 }],
    ]) {
      expect(encryptor.encrypt(frame, out, ranges)).toEqual({ ok: false, code: 'ERR_DAVE_BAD_RANGES' });
    }
    // More ranges than a one-byte footer size can describe.
    const tooMany = Array.from({ length: 130 }, (_, i) => ({ offset: 2 * i, size: 1 }));
    expect(encryptor.encrypt(randomBytes(300), Buffer.alloc(600), tooMany)).toEqual({
      ok: false,
      code: 'ERR_DAVE_BAD_RANGES',
    });
    expect(encryptor.encrypt(frame, Buffer.alloc(61))).toEqual({
      ok: false,
      code: 'ERR_DAVE_OUTPUT_TOO_SMALL',
    });
    const shared = Buffer.alloc(200);
    shared.set(frame, 10);
    expect(encryptor.encrypt(shared.subarray(10, 60), shared)).toEqual({
      ok: false,
      code: 'ERR_DAVE_OVERLAPPING_BUFFERS',
    });
    expect(encryptor.stats().failures.ERR_DAVE_BAD_RANGES).toBe(4);
    // Exactly in place is allowed both ways.
    const inPlace = Buffer.alloc(100);
    inPlace.set(frame);
    const length = lengthOf(encryptor.encrypt(inPlace.subarray(0, 50), inPlace));
    expect(decryptor.decrypt(inPlace.subarray(0, length), Buffer.alloc(10))).toEqual({
      ok: false,
      code: 'ERR_DAVE_OUTPUT_TOO_SMALL',
    });
    expect(lengthOf(decryptor.decrypt(inPlace.subarray(0, length), inPlace))).toBe(50);
    expect(inPlace.subarray(0, 50)).toEqual(frame);
  });

  it('never throws on mutated frames, and counts each one once', () => {
    const { encryptor, decryptor } = pair();
    const frames = Array.from({ length: 20 }, () =>
      encryptOne(encryptor, randomBytes(randomInt(0, 300)), randomInt(2) ? [{ offset: 0, size: 0 }] : []),
    );
    let results = 0;
    for (let i = 0; i < 2000; i++) {
      const frame = Buffer.from(frames[randomInt(frames.length)] ?? Buffer.alloc(0));
      for (let flips = randomInt(1, 4); flips > 0 && frame.length > 0; flips--)
        frame[randomInt(frame.length)] = randomInt(256);
      const cut = randomInt(3) === 0 ? frame.subarray(randomInt(frame.length + 1)) : frame;
      const result = decryptor.decrypt(cut, Buffer.alloc(cut.length));
      expect(DAVE_RESULTS).toContain(result.ok ? (result.passthrough ? 'PASSTHROUGH' : 'OK') : result.code);
      results++;
    }
    const stats = decryptor.stats();
    const failures = Object.values(stats.failures).reduce((a, b) => a + b, 0);
    expect(stats.ok + stats.passthrough + failures).toBe(results);
  });
});

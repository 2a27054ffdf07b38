import { randomBytes, randomInt } from 'node:crypto';

import type { Codec, MediaType } from '@snazzah/davey';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  createMediaEngine,
  OPUS_SILENCE_FRAME,
  type MediaEngineKind,
} from '../../packages/sdkpp/src/media/index.js';
import { createDaveTestGroup, type DaveTestGroup } from './daveGroup.js';

// Interop with an independent DAVE implementation (@snazzah/davey: Rust, OpenMLS) over a real MLS group:
// davey derives its frame keys from the group internally, we from the ts-mls member's exporter. Frames
// must cross both ways byte-compatibly. Only generation 0 can be exercised: davey refuses any later
// generation for about 27 hours after a ratchet is made (dave-e2ee.md §0.4).

const ENGINES: { kind: MediaEngineKind; firstNonce: number }[] = [
  // davey keeps one replay window per sender, so each engine sends from its own range of nonces.
  { kind: 'native', firstNonce: 1 },
  { kind: 'js', firstNonce: 10_000 },
];

// davey's enums are `const enum`s, which this project's isolated-module build cannot read; their values
// from its index.d.ts.
/* eslint-disable @typescript-eslint/no-unsafe-enum-assignment -- plain numbers typed as davey's enums */
const AUDIO = 0 as MediaType;
const VIDEO = 1 as MediaType;
const VP8 = 2 as Codec;
/* eslint-enable @typescript-eslint/no-unsafe-enum-assignment */

let group: DaveTestGroup;
beforeAll(async () => {
  group = await createDaveTestGroup();
});

it('builds a real group: every member holds the same epoch', () => {
  expect(group.davey.ready).toBe(true);
  expect(group.davey.epoch).toBe(1n);
  expect(group.epochAuthenticators.ours).toHaveLength(32);
  expect(group.epochAuthenticators.davey).toEqual(group.epochAuthenticators.ours);
  expect(group.daveyPeer.getEpochAuthenticator()).toEqual(group.epochAuthenticators.ours);
  expect(group.ourKey).not.toEqual(group.daveyKey);
});

describe.each(ENGINES)('the $kind engine and davey', ({ kind, firstNonce }) => {
  it('decrypts davey’s Opus frames of every size', () => {
    const decryptor = createMediaEngine({ prefer: kind }).createDaveDecryptor();
    decryptor.transitionToKeyRatchet(group.daveyKey);
    for (let i = 0; i < 50; i++) {
      const frame = randomBytes(randomInt(1, 1000));
      const sealed = group.davey.encryptOpus(frame);
      const out = Buffer.alloc(sealed.length);
      expect(decryptor.decrypt(sealed, out)).toEqual({ ok: true, length: frame.length, passthrough: false });
      expect(out.subarray(0, frame.length)).toEqual(frame);
      // A replay of davey's frame is refused like any other.
      expect(decryptor.decrypt(sealed, out)).toEqual({ ok: false, code: 'ERR_DAVE_REPLAYED_NONCE' });
    }
    expect(decryptor.stats().ok).toBe(50);
  });

  it('decrypts davey’s VP8 key frames, whose first 10 bytes stay in clear', () => {
    const decryptor = createMediaEngine({ prefer: kind }).createDaveDecryptor();
    decryptor.transitionToKeyRatchet(group.daveyKey);
    const frame = randomBytes(300);
    frame[0] = (frame[0] ?? 0) & 0xfe; // P bit 0: a key frame
    const sealed = group.davey.encrypt(VIDEO, VP8, frame);
    expect(sealed.subarray(0, 10)).toEqual(frame.subarray(0, 10));
    const out = Buffer.alloc(sealed.length);
    expect(decryptor.decrypt(sealed, out)).toEqual({ ok: true, length: 300, passthrough: false });
    expect(out.subarray(0, 300)).toEqual(frame);
  });

  it('encrypts Opus frames and frames with clear ranges that davey decrypts', () => {
    const encryptor = createMediaEngine({ prefer: kind }).createDaveEncryptor();
    encryptor.setKeyRatchet(group.ourKey);
    encryptor.setNextNonce(firstNonce);
    const sender = String(group.ourUserId);
    const failuresBefore = group.davey.getDecryptionStats(sender)?.failures ?? 0;
    for (let i = 0; i < 50; i++) {
      const frame = randomBytes(randomInt(1, 1000));
      const ranges = i % 5 === 4 ? [{ offset: 0, size: Math.min(10, frame.length) }] : undefined;
      const out = Buffer.alloc(encryptor.maxEncryptedLength(frame.length, ranges));
      const result = encryptor.encrypt(frame, out, ranges);
      if (!result.ok) throw new Error(result.code);
      const media = ranges === undefined ? AUDIO : VIDEO;
      expect(group.davey.decrypt(sender, media, out.subarray(0, result.length))).toEqual(frame);
    }
    expect(group.davey.getDecryptionStats(sender)?.failures ?? 0).toBe(failuresBefore);
  });

  it('passes the silence frame through as davey does', () => {
    const silence = Buffer.from(OPUS_SILENCE_FRAME);
    expect(group.davey.encryptOpus(silence)).toEqual(silence);
    const decryptor = createMediaEngine({ prefer: kind }).createDaveDecryptor();
    decryptor.transitionToKeyRatchet(group.daveyKey);
    expect(decryptor.decrypt(silence, Buffer.alloc(3))).toEqual({ ok: true, length: 3, passthrough: true });
  });

  it('is refused by davey when the key is not the member’s own', () => {
    const encryptor = createMediaEngine({ prefer: kind }).createDaveEncryptor();
    encryptor.setKeyRatchet(group.daveyKey); // the other member's key, under our user id
    encryptor.setNextNonce(firstNonce + 5_000);
    const out = Buffer.alloc(200);
    const result = encryptor.encrypt(randomBytes(100), out);
    if (!result.ok) throw new Error(result.code);
    expect(() =>
      group.davey.decrypt(String(group.ourUserId), AUDIO, out.subarray(0, result.length)),
    ).toThrow();
  });
});

import { randomBytes, randomInt } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import {
  createMediaEngine,
  MediaEngineError,
  ONE_BYTE_EXTENSION_PROFILE,
  TRANSPORT_ENCRYPTION_MODES,
  type MediaEngine,
  type MediaEngineErrorCode,
  type MediaEngineKind,
  type RtpHeaderInit,
  type RtpResultCode,
  type TransportCryptor,
  type TransportOpenResult,
} from '../../../packages/sdkpp/src/media/index.js';
import vectors from '../../vectors/transport.json' with { type: 'json' };
import { thrownBy } from './reference.js';
import { craftAesPacket, slice, VECTOR_KEY } from './transportHelpers.js';

const ENGINES: { kind: MediaEngineKind }[] = [{ kind: 'native' }, { kind: 'js' }];
const SILENCE = Buffer.from('f8fffe', 'hex');
const VECTOR_HEADER: RtpHeaderInit = { sequence: 0x0102, timestamp: 0x0a0b0c0d, ssrc: 0x12345678 };
const AES = 'aead_aes256_gcm_rtpsize';
const XCHACHA = 'aead_xchacha20_poly1305_rtpsize';

function expectCode(action: () => unknown, code: MediaEngineErrorCode): void {
  const error = thrownBy(action);
  expect(error).toBeInstanceOf(MediaEngineError);
  expect((error as MediaEngineError).code).toBe(code);
}

function expectFailure(result: TransportOpenResult, code: RtpResultCode): void {
  expect(result).toEqual({ ok: false, code });
}

function randomHeader(): RtpHeaderInit {
  const withExtension = randomInt(2) === 1;
  return {
    marker: randomInt(2) === 1,
    payloadType: randomInt(128),
    sequence: randomInt(0x10000),
    timestamp: randomInt(2 ** 32),
    ssrc: randomInt(2 ** 32),
    csrcs: Array.from({ length: randomInt(16) }, () => randomInt(2 ** 32)),
    ...(withExtension
      ? { extension: { profile: ONE_BYTE_EXTENSION_PROFILE, body: randomBytes(4 * randomInt(4)) } }
      : {}),
    paddingSize: randomInt(3) === 0 ? randomInt(1, 256) : 0,
  };
}

// Seals with `sender` and opens with `receiver`, checking every field on the way.
function roundTrip(sender: TransportCryptor, receiver: TransportCryptor): void {
  const header = randomHeader();
  const payload = randomBytes(randomInt(0, 1200));
  const out = Buffer.alloc(sender.sealedLength(header, payload.length));
  const size = sender.seal(header, payload, out);
  expect(size).toBe(out.length);
  const plaintext = Buffer.alloc(size);
  const opened = receiver.open(out, plaintext);
  if (!opened.ok) throw new Error(`open failed: ${opened.code}`);
  expect(opened.nonce).toBe(sender.stats().lastNonce);
  expect(slice(plaintext, opened.payloadOffset, opened.payloadLength)).toEqual(payload);
  expect(opened.header).toEqual({
    marker: header.marker,
    payloadType: header.payloadType,
    sequence: header.sequence,
    timestamp: header.timestamp,
    ssrc: header.ssrc,
    csrcs: header.csrcs,
    extension:
      header.extension === undefined
        ? null
        : { profile: header.extension.profile, words: header.extension.body.length / 4 },
    paddingSize: header.paddingSize,
  });
  if (header.extension !== undefined) {
    expect(slice(plaintext, opened.extensionOffset, opened.extensionLength)).toEqual(
      Buffer.from(header.extension.body),
    );
  }
}

// One contract, two engines: the native engine is created with prefer: 'native', so a missing addon
// fails here with the remedy instead of silently testing the JS engine twice.
describe.each(ENGINES)('the $kind engine’s voice transport', ({ kind }) => {
  let engine: MediaEngine;
  beforeAll(() => {
    engine = createMediaEngine({ prefer: kind });
  });

  describe('the reference’s test vectors', () => {
    it.each(vectors.transport)('$name: seals byte for byte', (vector) => {
      const cryptor = engine.createTransportCryptor(vector.mode as typeof AES, VECTOR_KEY);
      const header: RtpHeaderInit = {
        ...vector.header,
        ...(vector.extension === null
          ? {}
          : {
              extension: {
                profile: vector.extension.profile,
                body: Buffer.from(vector.extension.body, 'hex'),
              },
            }),
      };
      const out = Buffer.alloc(100);
      const size = cryptor.seal(header, Buffer.from(vector.payload, 'hex'), out, vector.nonce);
      expect(out.subarray(0, size).toString('hex')).toBe(vector.packet);
    });

    it.each(vectors.transport)('$name: opens to the payload', (vector) => {
      const cryptor = engine.createTransportCryptor(vector.mode as typeof AES, VECTOR_KEY);
      const packet = Buffer.from(vector.packet, 'hex');
      const out = Buffer.alloc(packet.length);
      const opened = cryptor.open(packet, out);
      if (!opened.ok) throw new Error(opened.code);
      expect(opened.nonce).toBe(vector.nonce);
      expect(opened.header).toMatchObject({ ...vector.header, payloadType: 120, marker: false });
      expect(slice(out, opened.payloadOffset, opened.payloadLength).toString('hex')).toBe(vector.payload);
      if (vector.extension !== null) {
        expect(opened.header.extension).toEqual({ profile: vector.extension.profile, words: 1 });
        expect(slice(out, opened.extensionOffset, opened.extensionLength).toString('hex')).toBe(
          vector.extension.body,
        );
      }
    });

    it.each(TRANSPORT_ENCRYPTION_MODES)('%s: the first packet carries nonce 1', (mode) => {
      const cryptor = engine.createTransportCryptor(mode, VECTOR_KEY);
      const out = Buffer.alloc(64);
      const size = cryptor.seal(VECTOR_HEADER, SILENCE, out);
      const expected = vectors.transport.find((vector) => vector.mode === mode && vector.nonce === 1);
      expect(out.subarray(0, size).toString('hex')).toBe(expected?.packet);
      cryptor.seal(VECTOR_HEADER, SILENCE, out);
      expect(out.readUInt32BE(size - 4)).toBe(2);
      expect(cryptor.stats()).toMatchObject({ sealed: 2, lastNonce: 2 });
    });
  });

  describe.each(TRANSPORT_ENCRYPTION_MODES)('%s', (mode) => {
    it('round-trips random headers (CSRCs, extensions, padding, marker) and payloads', () => {
      const key = randomBytes(32);
      const sender = engine.createTransportCryptor(mode, key);
      const receiver = engine.createTransportCryptor(mode, key);
      for (let i = 0; i < 50; i++) roundTrip(sender, receiver);
      expect(receiver.stats().opened).toBe(50);
    });

    it('interoperates with the other engine in both directions', () => {
      const other = createMediaEngine({ prefer: kind === 'native' ? 'js' : 'native' });
      const key = randomBytes(32);
      const mine = engine.createTransportCryptor(mode, key);
      const theirs = other.createTransportCryptor(mode, key);
      for (let i = 0; i < 20; i++) {
        roundTrip(mine, theirs);
        roundTrip(theirs, mine);
      }
    });

    it('seals with an explicit nonce without moving the counter', () => {
      const cryptor = engine.createTransportCryptor(mode, VECTOR_KEY);
      const out = Buffer.alloc(64);
      const size = cryptor.seal(VECTOR_HEADER, SILENCE, out, 0xffffffff);
      expect(out.readUInt32BE(size - 4)).toBe(0xffffffff);
      expect(cryptor.stats().lastNonce).toBe(0);
      const opened = cryptor.open(out.subarray(0, size), Buffer.alloc(size));
      expect(opened).toMatchObject({ ok: true, nonce: 0xffffffff });
    });

    it('seals a payload that already sits at its place in the output buffer', () => {
      const cryptor = engine.createTransportCryptor(mode, VECTOR_KEY);
      const out = Buffer.alloc(64);
      SILENCE.copy(out, 12);
      const size = cryptor.seal(VECTOR_HEADER, out.subarray(12, 15), out, 1);
      const expected = vectors.transport.find((vector) => vector.mode === mode && vector.nonce === 1);
      expect(out.subarray(0, size).toString('hex')).toBe(expected?.packet);
    });

    it('opens in place, into the packet’s own ciphertext bytes', () => {
      const cryptor = engine.createTransportCryptor(mode, VECTOR_KEY);
      const packet = Buffer.alloc(64);
      const size = cryptor.seal({ ...VECTOR_HEADER, csrcs: [1, 2] }, SILENCE, packet);
      const opened = cryptor.open(packet.subarray(0, size), packet.subarray(20));
      if (!opened.ok) throw new Error(opened.code);
      expect(slice(packet, 20 + opened.payloadOffset, opened.payloadLength)).toEqual(SILENCE);
    });

    it('refuses an output buffer that overlaps the packet anywhere but in place', () => {
      const cryptor = engine.createTransportCryptor(mode, VECTOR_KEY);
      const packet = Buffer.alloc(64);
      const size = cryptor.seal(VECTOR_HEADER, randomBytes(20), packet);
      expectFailure(
        cryptor.open(packet.subarray(0, size), packet.subarray(5)),
        'ERR_RTP_OVERLAPPING_BUFFERS',
      );
      expect(cryptor.open(packet.subarray(0, size), packet.subarray(12)).ok).toBe(true);
    });

    it('refuses what the wrong key, nonce, header or tag sealed, and counts it', () => {
      const key = randomBytes(32);
      const sender = engine.createTransportCryptor(mode, key);
      const receiver = engine.createTransportCryptor(mode, key);
      const stranger = engine.createTransportCryptor(mode, randomBytes(32));
      const packet = Buffer.alloc(100);
      const size = sender.seal({ ...VECTOR_HEADER, csrcs: [7] }, randomBytes(40), packet);
      const sealed = packet.subarray(0, size);
      const out = Buffer.alloc(size);
      const tampered = (index: number): Buffer => {
        const copy = Buffer.from(sealed);
        copy[index] = (copy[index] ?? 0) ^ 0x01;
        return copy;
      };
      expectFailure(stranger.open(sealed, out), 'ERR_RTP_AUTHENTICATION_FAILED');
      expectFailure(receiver.open(tampered(size - 1), out), 'ERR_RTP_AUTHENTICATION_FAILED'); // nonce
      expectFailure(receiver.open(tampered(size - 5), out), 'ERR_RTP_AUTHENTICATION_FAILED'); // tag
      expectFailure(receiver.open(tampered(20), out), 'ERR_RTP_AUTHENTICATION_FAILED'); // ciphertext
      expectFailure(receiver.open(tampered(3), out), 'ERR_RTP_AUTHENTICATION_FAILED'); // sequence (AAD)
      expectFailure(receiver.open(tampered(13), out), 'ERR_RTP_AUTHENTICATION_FAILED'); // CSRC (AAD)
      expect(out.every((byte) => byte === 0)).toBe(true); // nothing unauthenticated came out
      expect(receiver.open(sealed, out).ok).toBe(true);
      expect(receiver.stats()).toMatchObject({
        opened: 1,
        failures: expect.objectContaining({ ERR_RTP_AUTHENTICATION_FAILED: 5 }) as unknown,
      });
    });
  });

  describe('malformed packets', () => {
    let cryptor: TransportCryptor;
    const good = Buffer.from(vectors.transport[0]?.packet ?? '', 'hex');
    const out = Buffer.alloc(256);
    beforeAll(() => {
      cryptor = engine.createTransportCryptor(AES, VECTOR_KEY);
    });

    it.each([
      ['an empty datagram', Buffer.alloc(0), 'ERR_RTP_TRUNCATED_HEADER'],
      ['a truncated header', good.subarray(0, 11), 'ERR_RTP_TRUNCATED_HEADER'],
      ['version 1', Buffer.concat([Buffer.from([0x40]), good.subarray(1)]), 'ERR_RTP_BAD_VERSION'],
      ['version 3', Buffer.concat([Buffer.from([0xc0]), good.subarray(1)]), 'ERR_RTP_BAD_VERSION'],
      [
        '15 CSRCs in 35 bytes',
        Buffer.concat([Buffer.from([0x8f]), good.subarray(1)]),
        'ERR_RTP_CSRC_PAST_END',
      ],
      [
        'an extension preamble past the end',
        Buffer.from('90780102 0a0b0c0d 12345678 bede'.replace(/ /g, ''), 'hex'),
        'ERR_RTP_EXTENSION_PAST_END',
      ],
      ['no room for the tag and nonce', good.subarray(0, 12 + 19), 'ERR_RTP_PACKET_TOO_SHORT'],
      ['a header only', good.subarray(0, 12), 'ERR_RTP_PACKET_TOO_SHORT'],
    ] as const)('%s', (_name, packet, code) => {
      expectFailure(cryptor.open(packet, out), code);
    });

    it.each([
      [
        'an extension body longer than the plaintext',
        '907801020a0b0c0d12345678bede0004',
        'f8fffe',
        'ERR_RTP_EXTENSION_PAST_END',
      ],
      ['padding longer than the payload', 'a07801020a0b0c0d12345678', 'f8ff04', 'ERR_RTP_BAD_PADDING'],
      ['a padding count of 0', 'a07801020a0b0c0d12345678', 'f8ff00', 'ERR_RTP_BAD_PADDING'],
      ['padding with no payload at all', 'a07801020a0b0c0d12345678', '', 'ERR_RTP_BAD_PADDING'],
      [
        'padding that eats into the extension',
        'b07801020a0b0c0d12345678bede0001',
        '10ff0000f803',
        'ERR_RTP_BAD_PADDING',
      ],
    ] as const)('authentic, but %s', (_name, clear, plaintext, code) => {
      expectFailure(cryptor.open(craftAesPacket(clear, plaintext, 9), out), code);
    });

    it('removes valid padding', () => {
      const opened = cryptor.open(craftAesPacket('a07801020a0b0c0d12345678', 'f8fffe000003', 3), out);
      if (!opened.ok) throw new Error(opened.code);
      expect(opened.header.paddingSize).toBe(3);
      expect(slice(out, opened.payloadOffset, opened.payloadLength)).toEqual(SILENCE);
    });

    it('reports a short output buffer instead of writing past it', () => {
      expectFailure(cryptor.open(good, Buffer.alloc(2)), 'ERR_RTP_OUTPUT_TOO_SMALL');
    });

    it('never throws and never succeeds on any truncation or random corruption', () => {
      const fresh = engine.createTransportCryptor(AES, VECTOR_KEY);
      const buffer = Buffer.alloc(good.length);
      for (let length = 0; length < good.length; length++) {
        expect(fresh.open(good.subarray(0, length), buffer).ok).toBe(false);
      }
      for (let i = 0; i < 300; i++) {
        const junk = randomBytes(randomInt(0, 80));
        if (i % 2 === 0 && junk.length > 0) junk[0] = 0x80 | ((junk[0] ?? 0) % 0x40); // version 2
        expect(fresh.open(junk, buffer).ok).toBe(false);
      }
      const stats = fresh.stats();
      const counted = Object.values(stats.failures).reduce((sum, count) => sum + count, 0);
      expect(counted).toBe(good.length + 300);
      expect(stats.opened).toBe(0);
    });

    it('counts each code', () => {
      const counting = engine.createTransportCryptor(AES, VECTOR_KEY);
      counting.open(good.subarray(0, 5), out);
      counting.open(Buffer.concat([Buffer.from([0x40]), good.subarray(1)]), out);
      counting.open(good.subarray(0, 20), out);
      counting.open(good, out);
      const { failures, opened } = counting.stats();
      expect(opened).toBe(1);
      expect(failures).toMatchObject({
        ERR_RTP_TRUNCATED_HEADER: 1,
        ERR_RTP_BAD_VERSION: 1,
        ERR_RTP_PACKET_TOO_SHORT: 1,
        ERR_RTP_AUTHENTICATION_FAILED: 0,
      });
    });
  });

  describe('caller mistakes', () => {
    it('refuses unknown modes and wrong key sizes', () => {
      expectCode(
        () => engine.createTransportCryptor('xsalsa20_poly1305' as typeof AES, VECTOR_KEY),
        'ERR_RTP_UNSUPPORTED_MODE',
      );
      expectCode(() => engine.createTransportCryptor(XCHACHA, randomBytes(16)), 'ERR_RTP_INVALID_KEY_SIZE');
      expectCode(
        () => engine.createTransportCryptor(AES, 'key' as unknown as Uint8Array),
        'ERR_INVALID_ARG_TYPE',
      );
    });

    it('refuses impossible headers, short outputs and misplaced payloads', () => {
      const cryptor = engine.createTransportCryptor(AES, VECTOR_KEY);
      const out = Buffer.alloc(64);
      for (const header of [
        { ...VECTOR_HEADER, payloadType: 128 },
        { ...VECTOR_HEADER, sequence: 0x10000 },
        { ...VECTOR_HEADER, ssrc: -1 },
        { ...VECTOR_HEADER, timestamp: 1.5 },
        { ...VECTOR_HEADER, csrcs: Array.from({ length: 16 }, () => 1) },
        { ...VECTOR_HEADER, paddingSize: 256 },
        { ...VECTOR_HEADER, extension: { profile: 0xbede, body: Buffer.alloc(3) } },
      ]) {
        expectCode(() => cryptor.seal(header, SILENCE, out), 'ERR_RTP_INVALID_HEADER');
      }
      expectCode(() => cryptor.seal(VECTOR_HEADER, SILENCE, Buffer.alloc(34)), 'ERR_RTP_OUTPUT_TOO_SMALL');
      expectCode(() => cryptor.seal(VECTOR_HEADER, out.subarray(0, 3), out), 'ERR_RTP_OVERLAPPING_BUFFERS');
      expectCode(() => cryptor.seal(VECTOR_HEADER, SILENCE, out, 2 ** 32), 'ERR_RTP_INVALID_HEADER');
      expectCode(() => cryptor.open('packet' as unknown as Uint8Array, out), 'ERR_INVALID_ARG_TYPE');
      expect(cryptor.stats()).toMatchObject({ sealed: 0, lastNonce: 0 });
    });
  });

  describe('plain RTP', () => {
    it('writes and parses headers with CSRCs, an extension and padding', () => {
      for (let i = 0; i < 30; i++) {
        const header = randomHeader();
        const payload = randomBytes(randomInt(1, 200));
        const packet = Buffer.alloc(2000);
        let size = engine.writeRtpHeader(header, packet);
        size += payload.copy(packet, size);
        const padding = header.paddingSize ?? 0;
        if (padding > 0) {
          packet[size + padding - 1] = padding;
          size += padding;
        }
        const parsed = engine.parseRtpPacket(packet.subarray(0, size));
        if (!parsed.ok) throw new Error(parsed.code);
        expect(slice(packet, parsed.payloadOffset, parsed.payloadLength)).toEqual(payload);
        expect(parsed.header).toMatchObject({ ssrc: header.ssrc, csrcs: header.csrcs, paddingSize: padding });
        if (header.extension !== undefined) {
          expect(slice(packet, parsed.extensionOffset, parsed.extensionLength)).toEqual(
            Buffer.from(header.extension.body),
          );
        }
      }
    });

    it.each([
      ['11 bytes', '80780102 0a0b0c0d 123456', 'ERR_RTP_TRUNCATED_HEADER'],
      ['version 0', '00780102 0a0b0c0d 12345678', 'ERR_RTP_BAD_VERSION'],
      ['2 CSRCs, 1 present', '82780102 0a0b0c0d 12345678 00000001', 'ERR_RTP_CSRC_PAST_END'],
      [
        'an extension body past the end',
        '90780102 0a0b0c0d 12345678 bede0002 10ff0000',
        'ERR_RTP_EXTENSION_PAST_END',
      ],
      ['padding past the payload', 'a0780102 0a0b0c0d 12345678 f8ff05', 'ERR_RTP_BAD_PADDING'],
    ] as const)('refuses %s', (_name, hex, code) => {
      expect(engine.parseRtpPacket(Buffer.from(hex.replace(/ /g, ''), 'hex'))).toEqual({ ok: false, code });
    });

    it('refuses an output buffer too small for the header', () => {
      expectCode(
        () => engine.writeRtpHeader({ ...VECTOR_HEADER, csrcs: [1] }, Buffer.alloc(15)),
        'ERR_RTP_OUTPUT_TOO_SMALL',
      );
    });
  });

  describe('IP discovery', () => {
    it.each(vectors.ipDiscovery)('encodes and decodes the $name vector', (vector) => {
      const packet = vector.packet as Parameters<MediaEngine['encodeIpDiscovery']>[0];
      const out = Buffer.alloc(80, 0xee);
      expect(engine.encodeIpDiscovery(packet, out)).toBe(74);
      expect(out.subarray(0, 74).toString('hex')).toBe(vector.hex);
      expect(engine.decodeIpDiscovery(Buffer.from(vector.hex, 'hex'))).toEqual({ ok: true, packet });
    });

    it('decodes an IPv6 address and ignores bytes after the NUL', () => {
      const bytes = Buffer.from(vectors.ipDiscovery[1]?.hex ?? '', 'hex');
      bytes.fill(0, 8, 72);
      bytes.write('2001:db8::1', 8, 'latin1');
      bytes[40] = 0x41;
      expect(engine.decodeIpDiscovery(bytes)).toMatchObject({ ok: true, packet: { address: '2001:db8::1' } });
    });

    it('returns a code for every malformed datagram', () => {
      const response = Buffer.from(vectors.ipDiscovery[1]?.hex ?? '', 'hex');
      const variant = (edit: (bytes: Buffer) => void): Buffer => {
        const copy = Buffer.from(response);
        edit(copy);
        return copy;
      };
      const cases: [Buffer, RtpResultCode][] = [
        [response.subarray(0, 73), 'ERR_IP_DISCOVERY_BAD_LENGTH'],
        [Buffer.concat([response, Buffer.alloc(1)]), 'ERR_IP_DISCOVERY_BAD_LENGTH'],
        [Buffer.alloc(0), 'ERR_IP_DISCOVERY_BAD_LENGTH'],
        [variant((b) => b.writeUInt16BE(71, 2)), 'ERR_IP_DISCOVERY_BAD_LENGTH'],
        [variant((b) => b.writeUInt16BE(3, 0)), 'ERR_IP_DISCOVERY_BAD_TYPE'],
        [variant((b) => b.fill(0x31, 8, 72)), 'ERR_IP_DISCOVERY_BAD_ADDRESS'],
        [variant((b) => b.write('x', 8)), 'ERR_IP_DISCOVERY_BAD_ADDRESS'],
        [variant((b) => (b[9] = 0xe9)), 'ERR_IP_DISCOVERY_BAD_ADDRESS'],
        [variant((b) => b.fill(0, 8, 72)), 'ERR_IP_DISCOVERY_BAD_ADDRESS'],
      ];
      for (const [bytes, code] of cases) expect(engine.decodeIpDiscovery(bytes)).toEqual({ ok: false, code });
    });

    it('refuses to encode what it would refuse to decode', () => {
      const out = Buffer.alloc(74);
      const base = { type: 'response', ssrc: 1, address: '10.0.0.1', port: 1 } as const;
      expectCode(
        () => engine.encodeIpDiscovery({ ...base, address: '' }, out),
        'ERR_IP_DISCOVERY_BAD_ADDRESS',
      );
      expectCode(
        () => engine.encodeIpDiscovery({ ...base, address: 'a'.repeat(64) }, out),
        'ERR_IP_DISCOVERY_BAD_ADDRESS',
      );
      expectCode(
        () => engine.encodeIpDiscovery({ ...base, address: 'host.example' }, out),
        'ERR_IP_DISCOVERY_BAD_ADDRESS',
      );
      expectCode(
        () => engine.encodeIpDiscovery({ ...base, type: 'ping' as 'request' }, out),
        'ERR_IP_DISCOVERY_BAD_TYPE',
      );
      expectCode(() => engine.encodeIpDiscovery({ ...base, port: 65536 }, out), 'ERR_RTP_INVALID_HEADER');
      expectCode(() => engine.encodeIpDiscovery(base, Buffer.alloc(73)), 'ERR_RTP_OUTPUT_TOO_SMALL');
    });
  });
});

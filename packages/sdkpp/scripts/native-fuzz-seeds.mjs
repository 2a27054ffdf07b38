// The seed corpus of every fuzz target (native/fuzz/fuzz_targets.h), made from the test vectors in
// test/vectors so that a new vector is a new seed without a second copy of its bytes. Written to
// build-sanitize/fuzz/seeds/<target>/; the sanitizer test driver replays them and the fuzzers start from them.
import { Buffer } from 'node:buffer';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { repoRoot } from './native-sanitize.mjs';

// The repository's test vectors (test/vectors at its root; this package is packages/sdkpp).
const readVectors = (name) =>
  JSON.parse(readFileSync(path.join(repoRoot, '..', '..', 'test', 'vectors', name), 'utf8'));
const hex = (text) => Buffer.from(text, 'hex');

function u16(value) {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value);
  return bytes;
}
function u32(value) {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value >>> 0);
  return bytes;
}

/** An unencrypted RTP packet of a transport vector: its clear header, extension body and payload. */
function plainRtp(vector, { padding = 0 } = {}) {
  const extension = vector.extension ? hex(vector.extension.body) : Buffer.alloc(0);
  const first = 0x80 | (padding > 0 ? 0x20 : 0) | (vector.extension ? 0x10 : 0);
  const parts = [
    Buffer.from([first, 120]),
    u16(vector.header.sequence),
    u32(vector.header.timestamp),
    u32(vector.header.ssrc),
  ];
  if (vector.extension) parts.push(u16(vector.extension.profile), u16(extension.length / 4), extension);
  parts.push(hex(vector.payload));
  if (padding > 0) parts.push(Buffer.alloc(padding - 1), Buffer.from([padding]));
  return Buffer.concat(parts);
}

/** The input layout FuzzTransportSeal reads (native/fuzz/transport_fuzz.cc), for one vector. */
function sealInput(vector) {
  const extension = vector.extension ? hex(vector.extension.body) : Buffer.alloc(0);
  return Buffer.concat([
    Buffer.from([vector.mode === 'aead_aes256_gcm_rtpsize' ? 0 : 1, 0, 120]),
    u16(vector.header.sequence),
    u32(vector.header.timestamp),
    u32(vector.header.ssrc),
    Buffer.from([0, vector.extension ? 1 : 0]),
    vector.extension
      ? Buffer.concat([u16(vector.extension.profile), Buffer.from([extension.length / 4])])
      : Buffer.alloc(0),
    Buffer.from([0]),
    u32(vector.nonce),
    extension,
    hex(vector.payload),
  ]);
}

/** ULEB128, the DAVE footer's varint. */
function leb128(value) {
  const bytes = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    bytes.push(byte);
  } while (value > 0);
  return Buffer.from(bytes);
}

/**
 * A DAVE frame's shape (dave-e2ee.md §1.8): body ‖ tag (8) ‖ ULEB128 nonce ‖ ULEB128 ranges ‖ size ‖ FA FA.
 * The tag is not a real one (the parser runs before any crypto; dave_seal covers authenticated frames).
 */
function daveFrame(body, nonce, ranges = []) {
  const footer = Buffer.concat([
    Buffer.alloc(8, 0xa5),
    leb128(nonce),
    ...ranges.flatMap(([offset, size]) => [leb128(offset), leb128(size)]),
  ]);
  return Buffer.concat([body, footer, Buffer.from([footer.length + 3, 0xfa, 0xfa])]);
}

/** The input layout FuzzDaveSeal reads (native/fuzz/dave_fuzz.cc): nonce, ranges, frame. */
function daveSealInput(nonce, ranges, frame) {
  return Buffer.concat([
    u32(nonce),
    Buffer.from([ranges.length]),
    ...ranges.flatMap(([offset, size]) => [u16(offset), u16(size)]),
    frame,
  ]);
}

/**
 * The input layout FuzzJitterBuffer reads (native/fuzz/audio_fuzz.cc): delays, first sequence and
 * timestamp, then steps: op 1 pushes the next packet (a u16 length, then the payload), op 0 pops.
 */
function jitterInput(payload, steps) {
  const push = Buffer.concat([Buffer.from([1]), u16(payload.length), payload]);
  return Buffer.concat([
    Buffer.from([1, 10]),
    u16(0xfffe), // wraps around after two packets
    u32(0xffffff00),
    ...steps.split('').map((step) => (step === 'p' ? push : Buffer.from([0]))),
  ]);
}

/** Seeds per target, as name → bytes. */
export function seedCorpus() {
  const transport = readVectors('transport.json');
  const packets = transport.transport.map((vector) => hex(vector.packet));
  const discovery = transport.ipDiscovery.map((vector) => hex(vector.hex));
  const silence = hex(transport.transport[0].payload);
  const named = (prefix, list) => Object.fromEntries(list.map((bytes, i) => [`${prefix}-${i}`, bytes]));
  return {
    rtp_packet: {
      ...named('sealed', packets),
      ...named(
        'plain',
        transport.transport.map((vector) => plainRtp(vector)),
      ),
      ...named(
        'padded',
        transport.transport.map((vector) => plainRtp(vector, { padding: 4 })),
      ),
    },
    transport_open: named('vector', packets),
    transport_seal: named('vector', transport.transport.map(sealInput)),
    ip_discovery: named('vector', discovery),
    // The transport vectors' Opus payload (the silence frame) and a 120-byte frame, as DAVE carries them.
    dave_frame: {
      silence: hex(transport.transport[0].payload),
      opus: daveFrame(Buffer.alloc(120, 0x3c), 1),
      'opus-generation-1': daveFrame(Buffer.alloc(120, 0x3c), 0x1000001),
      ranges: daveFrame(Buffer.alloc(40, 0x42), 300, [
        [0, 4],
        [10, 2],
      ]),
      plain: Buffer.alloc(40, 0x42),
    },
    dave_seal: {
      silence: daveSealInput(1, [], hex(transport.transport[0].payload)),
      opus: daveSealInput(1, [], Buffer.alloc(120, 0x3c)),
      ranges: daveSealInput(
        0x1000005,
        [
          [0, 4],
          [10, 2],
        ],
        Buffer.alloc(40, 0x42),
      ),
    },
    jitter_buffer: {
      steady: jitterInput(silence, 'pppp......'),
      burst: jitterInput(silence, '..pppppppppp..............'),
    },
    // The silence frame with and without FEC, then a code-3 packet (TOC 0xfb: CELT FB 20 ms, many frames).
    opus_decode: {
      silence: Buffer.concat([Buffer.from([0, 0, 0]), silence]),
      'silence-fec': Buffer.concat([Buffer.from([1, 0, 8]), silence]),
      'code-3': Buffer.from([0, 0x03, 0xc0, 0xfb, 0x83, 0x01, 0x02, 0x03]),
    },
    // RFC 6979 A.2.5's P-256 key, point and DER signature of "sample": shape 3 (a whole point and scalar).
    p256: {
      'rfc6979-sample': Buffer.concat([
        Buffer.from([3]),
        hex(
          '0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299',
        ),
        Buffer.from([72]),
        hex(
          '3046022100efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716022100f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8',
        ),
        hex('c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721'),
        Buffer.from('sample'),
      ]),
    },
  };
}

/** Writes the seeds under `root` (replacing what was there) and returns how many per target. */
export function writeSeedCorpus(root) {
  const counts = {};
  for (const [target, seeds] of Object.entries(seedCorpus())) {
    const dir = path.join(root, target);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of Object.entries(seeds)) writeFileSync(path.join(dir, name), bytes);
    counts[target] = Object.keys(seeds).length;
  }
  return counts;
}

// Audio costs, one JSON line each: {"name","unit","value","peer","peerValue","ratio"}, ratio = peer cost /
// our cost measured in the same run (above 1: ours is faster). Run: npx tsx bench/audio.ts, or npm run bench
//   mix-25            the native engine mixing 25 speakers for one 20 ms tick, vs the JS engine's mixer
//   opus-encode/-decode  the native engine's libopus per 20 ms frame (64 kbit/s, FEC on), vs
//                     @discordjs/opus when installed, else opusscript, configured alike
//   opus-*-wasm       the same for the JS engine's codec (libopus in wasm, @evan/opus)
import { createRequire } from 'node:module';

import {
  createMediaEngine,
  OPUS_FRAME_SAMPLES,
  OPUS_MAX_PACKET_SIZE,
  type MediaEngine,
} from '../src/media/index.js';
import { makeFrames } from './lib/frames.js';
import { nsPerCall as time, report, result } from './lib/report.js';

const require = createRequire(import.meta.url);
const FRAMES = 200;
const SPEAKERS = 25;
const ROUNDS = { mix: 5000, encode: 2000, decode: 5000 };

function mixCost(engine: MediaEngine, frames: Int16Array[]): number {
  const processor = engine.createAudioProcessor();
  const all = new Int16Array(SPEAKERS * OPUS_FRAME_SAMPLES);
  for (let s = 0; s < SPEAKERS; s++) all.set(frames[s] as Int16Array, s * OPUS_FRAME_SAMPLES);
  const keys = Uint32Array.from({ length: SPEAKERS }, (_, i) => i);
  for (const key of keys) processor.setUserGain(key, 0.8);
  const out = new Int16Array(OPUS_FRAME_SAMPLES);
  return time(ROUNDS.mix, () => processor.mix(all, keys, SPEAKERS, out));
}

function ourCodec(
  engine: MediaEngine,
  frames: Int16Array[],
): { encode: number; decode: number; packets: Uint8Array[] } {
  const encoder = engine.createOpusEncoder({ bitrate: 64000 });
  const out = new Uint8Array(OPUS_MAX_PACKET_SIZE);
  const packets = frames.map((frame) => out.slice(0, encoder.encode(frame, out)));
  const encode = time(ROUNDS.encode, (i) => encoder.encode(frames[i % FRAMES] as Int16Array, out));
  const decoder = engine.createOpusDecoder();
  const pcm = new Int16Array(OPUS_FRAME_SAMPLES);
  const decode = time(ROUNDS.decode, (i) => decoder.decode(packets[i % FRAMES] as Uint8Array, pcm));
  return { encode, decode, packets };
}

interface PeerCodec {
  readonly name: string;
  encode(pcm: Buffer): Buffer;
  decode(packet: Buffer): Buffer;
}

/** @discordjs/opus if it is installed, else opusscript, both at 64 kbit/s VOIP with FEC as ours. */
function peerCodec(): PeerCodec {
  try {
    const { OpusEncoder } = require('@discordjs/opus') as {
      OpusEncoder: new (
        rate: number,
        channels: number,
      ) => {
        encode(pcm: Buffer): Buffer;
        decode(packet: Buffer): Buffer;
        applyEncoderCTL(ctl: number, value: number): void;
        setBitrate(bitrate: number): void;
      };
    };
    const codec = new OpusEncoder(48000, 2);
    codec.setBitrate(64000);
    codec.applyEncoderCTL(4012, 1);
    codec.applyEncoderCTL(4014, 10);
    return { name: '@discordjs/opus', encode: (pcm) => codec.encode(pcm), decode: (p) => codec.decode(p) };
  } catch {
    const OpusScript = require('opusscript') as typeof import('opusscript');
    const encoder = new OpusScript(48000, 2, OpusScript.Application.VOIP);
    encoder.encoderCTL(4002, 64000);
    encoder.encoderCTL(4012, 1);
    encoder.encoderCTL(4014, 10);
    const decoder = new OpusScript(48000, 2, OpusScript.Application.VOIP);
    return {
      name: 'opusscript',
      encode: (pcm) => encoder.encode(pcm, 960),
      decode: (p) => decoder.decode(p),
    };
  }
}

const frames = makeFrames(FRAMES);
const native = createMediaEngine({ prefer: 'native' });
const js = createMediaEngine({ prefer: 'js' });

report(result('mix-25', 'ns', mixCost(native, frames), 'js engine mixer', mixCost(js, frames)));

const peer = peerCodec();
const pcmBuffers = frames.map((frame) => Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
const peerPackets = pcmBuffers.map((pcm) => Buffer.from(peer.encode(pcm)));
const peerEncode = time(ROUNDS.encode, (i) => peer.encode(pcmBuffers[i % FRAMES] as Buffer));
const peerDecode = time(ROUNDS.decode, (i) => peer.decode(peerPackets[i % FRAMES] as Buffer));

for (const [suffix, engine] of [
  ['', native],
  ['-wasm', js],
] as const) {
  const ours = ourCodec(engine, frames);
  report(result(`opus-encode${suffix}`, 'ns', ours.encode, peer.name, peerEncode));
  report(result(`opus-decode${suffix}`, 'ns', ours.decode, peer.name, peerDecode));
}
console.error(
  `codecs: native ${native.info.codec.name} ${native.info.codec.version}; js ${js.info.codec.version}`,
);

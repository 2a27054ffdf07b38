// Audio costs, one JSON line each: {"name","unit","value","peer","peerValue","ratio"}, ratio = peer cost /
// our cost measured in the same run (above 1: ours is faster). Run: npx tsx bench/audio.ts, or npm run bench
//   mix-25            the native engine mixing 25 speakers for one 20 ms tick, vs the JS engine's mixer
//   opus-encode/-decode  the native engine's libopus per 20 ms frame (64 kbit/s, FEC on), vs
//                     @discordjs/opus (built by scripts/bench-peers.mjs), else opusscript, configured alike
//   opus-*-wasm       the same for the JS engine's codec (libopus in wasm, @evan/opus)
import {
  createMediaEngine,
  OPUS_FRAME_SAMPLES,
  OPUS_MAX_PACKET_SIZE,
  type MediaEngine,
} from '../packages/sdkpp/src/media/index.js';
import { makeFrames } from './lib/frames.js';
import { peerOpus } from './lib/peerOpus.js';
import { nsPerCall as time, report, result } from './lib/report.js';

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

const frames = makeFrames(FRAMES);
const native = createMediaEngine({ prefer: 'native' });
const js = createMediaEngine({ prefer: 'js' });

report(result('mix-25', 'ns', mixCost(native, frames), 'js engine mixer', mixCost(js, frames)));

// The codec benches compare with a codec of the same build kind as ours: @discordjs/opus, else opusscript.
const peer = peerOpus('opusscript');
const peerEncoder = peer.createEncoder();
const peerDecoder = peer.createDecoder();
const pcmBuffers = frames.map((frame) => Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
const peerPackets = pcmBuffers.map((pcm) => Buffer.from(peerEncoder.encode(pcm)));
const peerEncode = time(ROUNDS.encode, (i) => peerEncoder.encode(pcmBuffers[i % FRAMES] as Buffer));
const peerDecode = time(ROUNDS.decode, (i) => peerDecoder.decode(peerPackets[i % FRAMES] as Buffer));

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

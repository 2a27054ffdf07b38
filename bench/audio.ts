// Audio costs, one JSON line each: {"name","unit","value","peer","peerValue","ratio"}, ratio = peer cost /
// our cost measured in the same run (above 1: ours is faster). Run: npx tsx bench/audio.ts, or npm run bench
//   mix-25            the native engine mixing 25 speakers for one 20 ms tick, vs the JS engine's mixer
//   opus-encode/-decode  the native engine's libopus per 20 ms stereo frame, vs @discordjs/opus (built by
//                     scripts/bench-peers.mjs), else opusscript
//   opus-*-vs-evan    the same vs @evan/opus's native libopus, the fastest Opus binding on npm
//   opus-*-wasm       the JS engine's codec (libopus in wasm, @evan/opus) vs the same peer as opus-*
// Every encoder runs the same settings (bench/lib/peerOpus.ts BENCH_ENCODER_SETTINGS, set CTL by CTL on each
// peer): 48 kHz stereo, application VOIP, 64 kbit/s, complexity 9, in-band FEC planned for 10 % packet
// loss, DTX off, VBR on and constrained; ours get them from createOpusEncoder's defaults plus libopus's.
// Every decoder decodes the same packets (our native encoder's), since a packet's mode sets its decode cost.
import {
  createMediaEngine,
  OPUS_FRAME_SAMPLES,
  OPUS_MAX_PACKET_SIZE,
  type MediaEngine,
} from '../packages/sdkpp/src/media/index.js';
import { makeFrames } from './lib/frames.js';
import { evanOpus, peerOpus, type PeerOpus } from './lib/peerOpus.js';
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

/** ns per encode and per decode of our engine's codec; decode reads `packets`. */
function ourCodec(
  engine: MediaEngine,
  frames: Int16Array[],
  packets: Uint8Array[],
): { encode: number; decode: number } {
  const encoder = engine.createOpusEncoder({ bitrate: 64000 });
  const out = new Uint8Array(OPUS_MAX_PACKET_SIZE);
  const encode = time(ROUNDS.encode, (i) => encoder.encode(frames[i % FRAMES] as Int16Array, out));
  const decoder = engine.createOpusDecoder();
  const pcm = new Int16Array(OPUS_FRAME_SAMPLES);
  const decode = time(ROUNDS.decode, (i) => decoder.decode(packets[i % FRAMES] as Uint8Array, pcm));
  return { encode, decode };
}

/** The same for a peer binding, which takes and returns Buffers. */
function peerCodec(peer: PeerOpus, pcm: Buffer[], packets: Buffer[]): { encode: number; decode: number } {
  const encoder = peer.createEncoder();
  const decoder = peer.createDecoder();
  const encode = time(ROUNDS.encode, (i) => encoder.encode(pcm[i % FRAMES] as Buffer));
  const decode = time(ROUNDS.decode, (i) => decoder.decode(packets[i % FRAMES] as Buffer));
  return { encode, decode };
}

const frames = makeFrames(FRAMES);
const native = createMediaEngine({ prefer: 'native' });
const js = createMediaEngine({ prefer: 'js' });

report(result('mix-25', 'ns', mixCost(native, frames), 'js engine mixer', mixCost(js, frames)));

/** Our native encoder's packets of the bench frames: what every decoder below decodes. */
const packets = ((): Uint8Array[] => {
  const encoder = native.createOpusEncoder({ bitrate: 64000 });
  const out = new Uint8Array(OPUS_MAX_PACKET_SIZE);
  return frames.map((frame) => out.slice(0, encoder.encode(frame, out)));
})();
const pcmBuffers = frames.map((frame) => Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
const packetBuffers = packets.map((packet) => Buffer.from(packet));

// The codec benches compare with a codec of the same build kind as ours: @discordjs/opus, else opusscript;
// and with the fastest native binding, @evan/opus.
const peer = peerOpus('opusscript');
const peerCost = peerCodec(peer, pcmBuffers, packetBuffers);
const evan = evanOpus();
const evanCost = peerCodec(evan, pcmBuffers, packetBuffers);

const nativeCost = ourCodec(native, frames, packets);
report(result('opus-encode', 'ns', nativeCost.encode, peer.name, peerCost.encode));
report(result('opus-decode', 'ns', nativeCost.decode, peer.name, peerCost.decode));
report(result('opus-encode-vs-evan', 'ns', nativeCost.encode, evan.name, evanCost.encode));
report(result('opus-decode-vs-evan', 'ns', nativeCost.decode, evan.name, evanCost.decode));
const wasmCost = ourCodec(js, frames, packets);
report(result('opus-encode-wasm', 'ns', wasmCost.encode, peer.name, peerCost.encode));
report(result('opus-decode-wasm', 'ns', wasmCost.decode, peer.name, peerCost.decode));
console.error(
  `codecs: native ${native.info.codec.name} ${native.info.codec.version}; js ${js.info.codec.version}`,
);

// Full per-frame voice paths, one JSON line each (ratio = peer cost / ours, measured in the same run):
//   send-path           per 20 ms frame, our native engine: capture step (gain + VAD, AudioProcessor) → Opus
//                       encode → DAVE encrypt → RTP header + transport seal (aead_aes256_gcm_rtpsize), all into
//                       reused caller-owned buffers
//   receive-path-5      per 20 ms tick with N = 5 speakers: transport open → DAVE decrypt → jitter buffer
//                       push + pop → Opus decode, per speaker, then the mix of the 5 (AudioProcessor.mix)
//   send-path-js, receive-path-5-js   the same through our JS engine (node:crypto, libopus in wasm)
//   send-path-no-codec, receive-path-5-no-codec   both paths with the Opus step left out on both sides
//                       (pre-encoded packets; PCM as if decoded for free): the engine's own cost, because
//                       libopus is most of each path
// The peer is the discord.js stack doing the same work: an Opus binding returning a new Buffer per call,
// @snazzah/davey's encryptOpus / decrypt, and node:crypto AES-256-GCM the way @discordjs/voice's Networking
// and VoiceReceiver use it (a cipher object and Buffer.concat per packet, a 12-byte header Buffer per
// packet). Its send side applies the capture gain and measures the level in one JS loop (as prism-media's
// VolumeTransformer does the gain); its receive side mixes in a JS loop and has no jitter buffer, because
// @discordjs/voice has none (ours does that work on top).
// The Opus binding: @discordjs/opus, which @discordjs/voice uses. Its install would try a GitHub download,
// so `npm run bench` builds it from its npm tarball (scripts/bench-peers.mjs); where that fails the peer is
// @evan/opus's native libopus (the same kind of binding); the `peer` field names which. With
// @discordjs/opus as the peer, send-path-vs-evan and receive-path-5-vs-evan also compare against @evan/opus,
// whose newer libopus with AVX2 kernels is the fastest Opus binding on npm. Every encoder, ours and the
// peers', runs the same settings (bench/lib/peerOpus.ts BENCH_ENCODER_SETTINGS: VOIP, 64 kbit/s, complexity
// 9, in-band FEC for 10 % loss, DTX off, constrained VBR); every decoder decodes our native encoder's packets.
// DAVE keys come from one real MLS group (test/interop/daveGroup): ours use the ts-mls member's exporter
// key; davey's peer member encrypts and the davey member decrypts. davey's group has one remote sender, so
// the peer's 5 "speakers" are 5 consecutive frames of that sender (its per-frame cost is the same).
// Run: npx tsx bench/paths.ts, or npm run bench -- paths
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

import type { MediaType } from '@snazzah/davey';

import {
  createMediaEngine,
  JitterFrameKind,
  OPUS_FRAME_SAMPLES,
  OPUS_MAX_PACKET_SIZE,
  SendAction,
  type MediaEngineKind,
} from '../packages/sdkpp/src/media/index.js';
import { createDaveTestGroup } from '../test/interop/daveGroup.js';
import { makeFrames } from './lib/frames.js';
import { evanOpus, peerOpus, type PeerOpus } from './lib/peerOpus.js';
import { nsPerCall, report, result } from './lib/report.js';

// Frames (send) and ticks (receive) measured; without the codec a frame costs microseconds, so more.
const ROUNDS = { send: 2000, receive: 1000 };
const ROUNDS_CODEC_FREE = { send: 20_000, receive: 5000 };
const roundsOf = (codec: boolean): typeof ROUNDS => (codec ? ROUNDS : ROUNDS_CODEC_FREE);
const SPEAKERS = 5;
const FRAMES = 200;
const KEY = randomBytes(32);
const SSRC = 0x12345678;
// davey's MediaType is a const enum, which isolated modules cannot read; AUDIO is 0.
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- its value from davey's index.d.ts
const AUDIO = 0 as MediaType;
const DAVE_OUT = OPUS_MAX_PACKET_SIZE + 255;
const PACKET_OUT = DAVE_OUT + 64;

/** nsPerCall calls its step rounds/10 times to warm up, then rounds times: how many inputs that needs. */
const calls = (rounds: number): number => Math.ceil(rounds / 10) + rounds;

const group = await createDaveTestGroup();
const frames = makeFrames(FRAMES);
const opus = peerOpus();
// The fastest native Opus binding on npm, reported too whenever the stack's own binding is the main peer.
const strongest = opus.name === evanOpus().name ? undefined : evanOpus();
const native = createMediaEngine({ prefer: 'native' });
/** Opus packets of the bench frames, as any libopus encoder makes them (ours, natively). */
const encoded = ((): Uint8Array[] => {
  const encoder = native.createOpusEncoder({ bitrate: 64000 });
  const out = new Uint8Array(OPUS_MAX_PACKET_SIZE);
  return frames.map((frame) => out.slice(0, encoder.encode(frame, out)));
})();

/** ns per frame of our send path through `kind`'s engine; without `codec`, packets come pre-encoded. */
function oursSend(kind: MediaEngineKind, codec = true): number {
  const engine = createMediaEngine({ prefer: kind });
  const processor = engine.createAudioProcessor();
  const encoder = engine.createOpusEncoder({ bitrate: 64000 });
  const encryptor = engine.createDaveEncryptor();
  encryptor.setKeyRatchet(group.ourKey);
  const cryptor = engine.createTransportCryptor('aead_aes256_gcm_rtpsize', KEY);
  const pcm = new Int16Array(OPUS_FRAME_SAMPLES);
  const packet = new Uint8Array(OPUS_MAX_PACKET_SIZE);
  const sealed = new Uint8Array(DAVE_OUT);
  const datagram = new Uint8Array(PACKET_OUT);
  let sequence = 0;
  return nsPerCall(roundsOf(codec).send, (i) => {
    pcm.set(frames[i % FRAMES] as Int16Array);
    if (processor.processCapture(pcm) !== SendAction.Voice) throw new Error('VAD said no voice');
    let opus = encoded[i % FRAMES] as Uint8Array;
    if (codec) {
      const size = encoder.encode(pcm, packet);
      if (size < 0) throw new Error(`encode failed: ${size}`);
      opus = packet.subarray(0, size);
    }
    const encrypted = encryptor.encrypt(opus, sealed);
    if (!encrypted.ok) throw new Error(`DAVE encrypt failed: ${encrypted.code}`);
    sequence = (sequence + 1) & 0xffff;
    cryptor.seal(
      { sequence, timestamp: (sequence * 960) >>> 0, ssrc: SSRC },
      sealed.subarray(0, encrypted.length),
      datagram,
    );
  });
}

/** ns per frame of the discord.js stack's send path; without `codec`, packets come pre-encoded. */
function peerSend(opus: PeerOpus, codec = true): number {
  const encoder = opus.createEncoder();
  const pcm = Buffer.alloc(OPUS_FRAME_SAMPLES * 2);
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, OPUS_FRAME_SAMPLES);
  const nonce = Buffer.alloc(12);
  const gain = 1;
  let level = 0;
  let sequence = 0;
  let counter = 0;
  const ns = nsPerCall(roundsOf(codec).send, (i) => {
    samples.set(frames[i % FRAMES] as Int16Array);
    // Capture gain and level in one pass, as a JS volume transform would.
    let energy = 0;
    for (let j = 0; j < samples.length; j++) {
      const value = Math.max(-32768, Math.min(32767, Math.round((samples[j] as number) * gain)));
      samples[j] = value;
      energy += value * value;
    }
    level = Math.sqrt(energy / samples.length);
    const packet = codec ? encoder.encode(pcm) : (encoded[i % FRAMES] as Uint8Array);
    const frame = group.daveyPeer.encryptOpus(
      Buffer.from(packet.buffer, packet.byteOffset, packet.byteLength),
    );
    // @discordjs/voice Networking.createAudioPacket + encryptOpusPacket.
    sequence = (sequence + 1) & 0xffff;
    const header = Buffer.alloc(12);
    header[0] = 0x80;
    header[1] = 0x78;
    header.writeUIntBE(sequence, 2, 2);
    header.writeUIntBE((sequence * 960) >>> 0, 4, 4);
    header.writeUIntBE(SSRC, 8, 4);
    counter = (counter + 1) >>> 0;
    nonce.writeUInt32BE(counter, 0);
    const cipher = createCipheriv('aes-256-gcm', KEY, nonce);
    cipher.setAAD(header);
    const encrypted = Buffer.concat([cipher.update(frame), cipher.final(), cipher.getAuthTag()]);
    Buffer.concat([header, encrypted, nonce.subarray(0, 4)]);
  });
  if (level === 0) throw new Error('the peer measured no level');
  return ns;
}

/** Which packet speaker `s` sends at tick `t`: each speaker somewhere else in the frames. */
const packetOf = (t: number, s: number): number => (t + 37 * s) % FRAMES;

/** Sealed datagrams `[tick][speaker]`: DAVE frames by `encrypt`, sealed by our cryptor (the wire format). */
function datagrams(ticks: number, encrypt: (opusPacket: Uint8Array) => Uint8Array): Uint8Array[][] {
  const cryptor = native.createTransportCryptor('aead_aes256_gcm_rtpsize', KEY);
  const out: Uint8Array[][] = [];
  for (let t = 0; t < ticks; t++) {
    const row: Uint8Array[] = [];
    for (let s = 0; s < SPEAKERS; s++) {
      const frame = encrypt(encoded[packetOf(t, s)] as Uint8Array);
      const header = { sequence: t & 0xffff, timestamp: (t * 960) >>> 0, ssrc: SSRC + s };
      const datagram = new Uint8Array(cryptor.sealedLength(header, frame.length));
      cryptor.seal(header, frame, datagram);
      row.push(datagram);
    }
    out.push(row);
  }
  return out;
}

/**
 * ns per 20 ms tick of our receive path for 5 speakers through `kind`'s engine; without `codec`, each
 * speaker's PCM is the frame its packet was encoded from, as if decoded for free.
 */
function oursReceive(kind: MediaEngineKind, codec = true): number {
  const engine = createMediaEngine({ prefer: kind });
  const encryptor = native.createDaveEncryptor();
  encryptor.setKeyRatchet(group.ourKey);
  const scratch = new Uint8Array(DAVE_OUT);
  const input = datagrams(calls(roundsOf(codec).receive), (packet) => {
    const sealed = encryptor.encrypt(packet, scratch);
    if (!sealed.ok) throw new Error(sealed.code);
    return scratch.slice(0, sealed.length);
  });
  const cryptor = engine.createTransportCryptor('aead_aes256_gcm_rtpsize', KEY);
  const speakers = Array.from({ length: SPEAKERS }, (_, s) => {
    const decryptor = engine.createDaveDecryptor();
    decryptor.transitionToKeyRatchet(group.ourKey);
    return {
      decryptor,
      jitter: engine.createJitterBuffer(),
      decoder: engine.createOpusDecoder(),
      pcm: new Int16Array(0), // replaced below by a view of the shared mix input
      index: s,
    };
  });
  const processor = engine.createAudioProcessor();
  const all = new Int16Array(SPEAKERS * OPUS_FRAME_SAMPLES);
  for (const speaker of speakers) {
    speaker.pcm = all.subarray(speaker.index * OPUS_FRAME_SAMPLES, (speaker.index + 1) * OPUS_FRAME_SAMPLES);
  }
  const keys = Uint32Array.from({ length: SPEAKERS }, (_, s) => SSRC + s);
  for (const key of keys) processor.setUserGain(key, 0.8);
  const opened = new Uint8Array(PACKET_OUT);
  const plain = new Uint8Array(DAVE_OUT);
  const playout = new Uint8Array(OPUS_MAX_PACKET_SIZE);
  const mixed = new Int16Array(OPUS_FRAME_SAMPLES);
  let tick = 0;
  const ns = nsPerCall(roundsOf(codec).receive, () => {
    const row = input[tick] as Uint8Array[];
    for (const speaker of speakers) {
      const open = cryptor.open(row[speaker.index] as Uint8Array, opened);
      if (!open.ok) throw new Error(`open failed: ${open.code}`);
      const payload = opened.subarray(open.payloadOffset, open.payloadOffset + open.payloadLength);
      const frame = speaker.decryptor.decrypt(payload, plain);
      if (!frame.ok) throw new Error(`DAVE decrypt failed: ${frame.code}`);
      speaker.jitter.push(
        open.header.sequence,
        open.header.timestamp,
        plain.subarray(0, frame.length),
        tick * 20,
      );
      const play = speaker.jitter.pop(playout);
      if (!codec) {
        speaker.pcm.set(frames[packetOf(tick, speaker.index)] as Int16Array);
      } else if (play.kind === JitterFrameKind.Packet || play.kind === JitterFrameKind.Fec) {
        speaker.decoder.decode(
          playout.subarray(0, play.size),
          speaker.pcm,
          play.kind === JitterFrameKind.Fec,
        );
      } else if (play.kind === JitterFrameKind.Conceal) {
        speaker.decoder.conceal(speaker.pcm);
      } else {
        speaker.pcm.fill(0);
      }
    }
    processor.mix(all, keys, SPEAKERS, mixed);
    tick++;
  });
  const played = speakers.reduce((sum, speaker) => sum + speaker.jitter.status().packets, 0);
  if (played < SPEAKERS * roundsOf(codec).receive) throw new Error(`only ${played} packets played`);
  return ns;
}

/** ns per 20 ms tick of the discord.js stack receiving 5 speakers and mixing them in JS (see oursReceive). */
function peerReceive(opus: PeerOpus, codec = true): number {
  // Encrypted tick by tick, speaker by speaker: the order they are decrypted in below.
  const input = datagrams(calls(roundsOf(codec).receive), (packet) =>
    group.daveyPeer.encryptOpus(Buffer.from(packet)),
  );
  const sender = String(group.peerUserId);
  const decoders = Array.from({ length: SPEAKERS }, () => opus.createDecoder());
  const gains = new Float64Array(SPEAKERS).fill(0.8);
  const nonce = Buffer.alloc(12);
  const pcms: Int16Array[] = [];
  const mixed = new Int16Array(OPUS_FRAME_SAMPLES);
  let tick = 0;
  return nsPerCall(roundsOf(codec).receive, () => {
    const row = input[tick++] as Uint8Array[];
    for (let s = 0; s < SPEAKERS; s++) {
      // A view, as dgram hands @discordjs/voice a Buffer.
      const bytes = row[s] as Uint8Array;
      const datagram = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      // @discordjs/voice VoiceReceiver.decrypt (aead_aes256_gcm_rtpsize, no header extension here).
      datagram.copy(nonce, 0, datagram.length - 4);
      const header = datagram.subarray(0, 12);
      const encrypted = datagram.subarray(12, datagram.length - 20);
      const tag = datagram.subarray(datagram.length - 20, datagram.length - 4);
      const decipher = createDecipheriv('aes-256-gcm', KEY, nonce);
      decipher.setAAD(header);
      decipher.setAuthTag(tag);
      const frame = Buffer.concat([decipher.update(encrypted), decipher.final()]);
      const packet = group.davey.decrypt(sender, AUDIO, frame);
      if (codec) {
        const pcm = decoders[s]?.decode(packet) as Uint8Array;
        pcms[s] = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 2);
      } else {
        if (packet.length === 0) throw new Error('davey gave no frame');
        pcms[s] = frames[packetOf(tick - 1, s)] as Int16Array;
      }
    }
    for (let i = 0; i < OPUS_FRAME_SAMPLES; i++) {
      let sum = 0;
      for (let s = 0; s < SPEAKERS; s++) sum += ((pcms[s] as Int16Array)[i] as number) * (gains[s] as number);
      mixed[i] = sum > 32767 ? 32767 : sum < -32768 ? -32768 : sum;
    }
  });
}

const peerName = `${opus.name} + @snazzah/davey + node:crypto`;
const peerCodecFree = '@snazzah/davey + node:crypto (JS gain, JS mix)';
const peers = {
  send: peerSend(opus),
  receive: peerReceive(opus),
  sendCodecFree: peerSend(opus, false),
  receiveCodecFree: peerReceive(opus, false),
};
const ours = { send: oursSend('native'), receive: oursReceive('native') };
report(result('send-path', 'ns', ours.send, peerName, peers.send));
report(result('receive-path-5', 'ns', ours.receive, peerName, peers.receive));
if (strongest) {
  const name = `${strongest.name} + @snazzah/davey + node:crypto`;
  report(result('send-path-vs-evan', 'ns', ours.send, name, peerSend(strongest)));
  report(result('receive-path-5-vs-evan', 'ns', ours.receive, name, peerReceive(strongest)));
}
report(result('send-path-js', 'ns', oursSend('js'), peerName, peers.send));
report(result('receive-path-5-js', 'ns', oursReceive('js'), peerName, peers.receive));
// The same paths without the Opus step on either side: what the engine itself costs, codec aside.
report(result('send-path-no-codec', 'ns', oursSend('native', false), peerCodecFree, peers.sendCodecFree));
report(
  result(
    'receive-path-5-no-codec',
    'ns',
    oursReceive('native', false),
    peerCodecFree,
    peers.receiveCodecFree,
  ),
);

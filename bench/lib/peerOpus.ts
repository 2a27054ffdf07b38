import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** An Opus codec of the discord.js stack's kind: new Buffers out, as @discordjs/opus returns them. */
export interface PeerOpus {
  /** The package, as the bench's `peer` field names it. */
  readonly name: string;
  /** One encoder (48 kHz stereo) with {@link BENCH_ENCODER_SETTINGS}, the settings ours runs by default. */
  createEncoder(): { encode(pcm: Buffer): Uint8Array };
  /** One decoder (48 kHz stereo); decode returns interleaved 16-bit PCM bytes. */
  createDecoder(): { decode(packet: Uint8Array): Uint8Array };
}

interface DiscordjsOpus {
  OpusEncoder: new (
    rate: number,
    channels: number,
  ) => {
    encode(pcm: Buffer): Buffer;
    decode(packet: Buffer): Buffer;
    applyEncoderCTL(ctl: number, value: number): void;
    setBitrate(bitrate: number): void;
  };
}

interface EvanOpus {
  Encoder: new (options: { channels: 2; sample_rate: 48000; application: 'voip' }) => {
    /** Sets (throwing when libopus refuses) or, without a value, gets one setting. */
    ctl(cmd: number, value?: number): number;
    encode(pcm: ArrayBufferView): Uint8Array;
  };
  Decoder: new (options: { channels: 2; sample_rate: 48000 }) => {
    decode(packet: ArrayBufferView): Uint8Array;
  };
}

// libopus encoder CTLs (opus_defines.h), the same numbers every binding passes through.
const SET_APPLICATION = 4000;
const SET_BITRATE = 4002;
const SET_VBR = 4006;
const SET_COMPLEXITY = 4010;
const GET_COMPLEXITY = 4011;
const SET_INBAND_FEC = 4012;
const SET_PACKET_LOSS_PERC = 4014;
const SET_DTX = 4016;
const SET_VBR_CONSTRAINT = 4020;
const APPLICATION_VOIP = 2048;

/**
 * The encoder settings of every side of the Opus benches: what our engines' createOpusEncoder({ bitrate:
 * 64000 }) runs (OpusEncoderOptions' defaults: the VOIP application, in-band FEC planned for 10 % loss) and,
 * for what ours leaves to libopus, libopus's defaults (complexity 9, DTX off, VBR on and constrained). Each
 * peer gets every one of them set explicitly, because bindings open their encoders differently:
 * @discordjs/opus opens its encoder in the audio application, not VOIP.
 */
export const BENCH_ENCODER_SETTINGS = Object.freeze({
  application: 'voip',
  bitrate: 64000,
  complexity: 9,
  inbandFec: true,
  packetLossPercent: 10,
  dtx: false,
  vbr: true,
  constrainedVbr: true,
});

/** {@link BENCH_ENCODER_SETTINGS} as libopus encoder CTLs and their values, in the order they are set. */
const ENCODER_CTLS: readonly (readonly [number, number])[] = [
  [SET_APPLICATION, APPLICATION_VOIP],
  [SET_BITRATE, BENCH_ENCODER_SETTINGS.bitrate],
  [SET_COMPLEXITY, BENCH_ENCODER_SETTINGS.complexity],
  [SET_INBAND_FEC, BENCH_ENCODER_SETTINGS.inbandFec ? 1 : 0],
  [SET_PACKET_LOSS_PERC, BENCH_ENCODER_SETTINGS.packetLossPercent],
  [SET_DTX, BENCH_ENCODER_SETTINGS.dtx ? 1 : 0],
  [SET_VBR, BENCH_ENCODER_SETTINGS.vbr ? 1 : 0],
  [SET_VBR_CONSTRAINT, BENCH_ENCODER_SETTINGS.constrainedVbr ? 1 : 0],
];

/**
 * Where scripts/bench-peers.mjs builds @discordjs/opus from its npm tarball (`npm run bench` runs it first):
 * @discordjs/opus cannot be a dependency, because its install first downloads a prebuilt from GitHub.
 */
const DISCORDJS_OPUS_BUILD = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../build-deps/bench-peers/discordjs-opus/module/opus.node',
);

/**
 * The NODE_PATH folder where scripts/bench-peers.mjs puts @discordjs/opus as a package (an index that loads
 * the build above), so that prism-media finds it inside @discordjs/voice (bench/mainThread.ts).
 */
export const DISCORDJS_OPUS_NODE_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../build-deps/bench-peers/discordjs-opus/node-path',
);

/**
 * @discordjs/opus, the binding @discordjs/voice uses (through prism-media): installed, or built from its
 * npm tarball by scripts/bench-peers.mjs (the same native code its from-source install compiles). Undefined
 * when neither is there.
 */
export function discordjsOpus(): PeerOpus | undefined {
  let binding: DiscordjsOpus;
  try {
    binding = require('@discordjs/opus') as DiscordjsOpus;
  } catch {
    if (!existsSync(DISCORDJS_OPUS_BUILD)) return undefined;
    binding = require(DISCORDJS_OPUS_BUILD) as DiscordjsOpus;
  }
  const make = (): InstanceType<DiscordjsOpus['OpusEncoder']> => {
    const codec = new binding.OpusEncoder(48000, 2);
    // Throws when libopus refuses one (applyEncoderCTL checks for OPUS_OK).
    for (const [ctl, value] of ENCODER_CTLS) codec.applyEncoderCTL(ctl, value);
    return codec;
  };
  return { name: '@discordjs/opus', createEncoder: make, createDecoder: make };
}

/**
 * @evan/opus's native build: a faster libopus than @discordjs/opus's (a newer release with AVX2 kernels),
 * the strongest Opus binding on npm, so the path benches report against it too.
 */
export function evanOpus(): PeerOpus {
  // Loading the native build directly: @evan/opus's index silently falls back to wasm otherwise.
  const { Encoder, Decoder } = require('@evan/opus/node/index.js') as EvanOpus;
  return {
    name: '@evan/opus (native libopus)',
    createEncoder: () => {
      const encoder = new Encoder({ channels: 2, sample_rate: 48000, application: 'voip' });
      for (const [ctl, value] of ENCODER_CTLS) encoder.ctl(ctl, value);
      // Its ctl answers a GET with the value: a check that the settings above reached libopus.
      if (encoder.ctl(GET_COMPLEXITY) !== BENCH_ENCODER_SETTINGS.complexity) {
        throw new Error('@evan/opus did not take the bench complexity');
      }
      return encoder;
    },
    createDecoder: () => new Decoder({ channels: 2, sample_rate: 48000 }),
  };
}

/**
 * The Opus peer of the discord.js stack: @discordjs/opus when installed or built (see discordjsOpus);
 * otherwise `fallback`: @evan/opus (a native libopus binding of the same kind) or opusscript (wasm, what
 * prism-media falls back to without @discordjs/opus). `SDKPP_BENCH_PEER_OPUS=opusscript` forces opusscript.
 */
export function peerOpus(fallback: 'evan' | 'opusscript' = 'evan'): PeerOpus {
  if (process.env.SDKPP_BENCH_PEER_OPUS === 'opusscript') return opusscript();
  return discordjsOpus() ?? (fallback === 'opusscript' ? opusscript() : evanOpus());
}

/** opusscript configured as the others; its encode takes the frame size (960 per channel). */
function opusscript(): PeerOpus {
  const OpusScript = require('opusscript') as typeof import('opusscript');
  const make = (): InstanceType<typeof OpusScript> => {
    const codec = new OpusScript(48000, 2, OpusScript.Application.VOIP);
    for (const [ctl, value] of ENCODER_CTLS) codec.encoderCTL(ctl, value);
    return codec;
  };
  return {
    name: 'opusscript',
    createEncoder: () => {
      const codec = make();
      return { encode: (pcm) => codec.encode(pcm, 960) };
    },
    createDecoder: () => {
      const codec = make();
      return {
        decode: (packet) => codec.decode(Buffer.from(packet.buffer, packet.byteOffset, packet.byteLength)),
      };
    },
  };
}

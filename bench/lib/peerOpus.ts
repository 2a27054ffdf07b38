import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** An Opus codec of the discord.js stack's kind: new Buffers out, as @discordjs/opus returns them. */
export interface PeerOpus {
  /** The package, as the bench's `peer` field names it. */
  readonly name: string;
  /** One encoder (48 kHz stereo, VOIP, 64 kbit/s, in-band FEC for 10 % loss, as ours by default). */
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
    ctl(cmd: number, value: number): number;
    encode(pcm: ArrayBufferView): Uint8Array;
  };
  Decoder: new (options: { channels: 2; sample_rate: 48000 }) => {
    decode(packet: ArrayBufferView): Uint8Array;
  };
}

// libopus encoder CTLs (opus_defines.h), the same numbers every binding passes through.
const SET_BITRATE = 4002;
const SET_INBAND_FEC = 4012;
const SET_PACKET_LOSS_PERC = 4014;

/**
 * The Opus peer for the path benches: @discordjs/opus (what @discordjs/voice uses, through prism-media)
 * when it is installed; otherwise @evan/opus with its native libopus, a stand-in of the same kind (libopus
 * compiled natively, a new buffer per call). @discordjs/opus is not a dependency because its install first
 * downloads a prebuilt from GitHub, which this project's installs must never do.
 * `fallback: 'opusscript'` takes opusscript instead of @evan/opus when @discordjs/opus is missing (the codec
 * benches compare codec builds of one kind). `SDKPP_BENCH_PEER_OPUS=opusscript` picks opusscript (wasm) instead: what prism-media falls back to when
 * @discordjs/opus is missing, so what a discord.js bot installed like this project would really run.
 */
export function peerOpus(fallback: 'evan' | 'opusscript' = 'evan'): PeerOpus {
  if (process.env.SDKPP_BENCH_PEER_OPUS === 'opusscript') return opusscript();
  try {
    const { OpusEncoder } = require('@discordjs/opus') as DiscordjsOpus;
    const make = (): InstanceType<DiscordjsOpus['OpusEncoder']> => {
      const codec = new OpusEncoder(48000, 2);
      codec.setBitrate(64000);
      codec.applyEncoderCTL(SET_INBAND_FEC, 1);
      codec.applyEncoderCTL(SET_PACKET_LOSS_PERC, 10);
      return codec;
    };
    return { name: '@discordjs/opus', createEncoder: make, createDecoder: make };
  } catch {
    if (fallback === 'opusscript') return opusscript();
    // Loading the native build directly: @evan/opus's index silently falls back to wasm otherwise.
    const { Encoder, Decoder } = require('@evan/opus/node/index.js') as EvanOpus;
    return {
      name: '@evan/opus (native libopus)',
      createEncoder: () => {
        const encoder = new Encoder({ channels: 2, sample_rate: 48000, application: 'voip' });
        encoder.ctl(SET_BITRATE, 64000);
        encoder.ctl(SET_INBAND_FEC, 1);
        encoder.ctl(SET_PACKET_LOSS_PERC, 10);
        return encoder;
      },
      createDecoder: () => new Decoder({ channels: 2, sample_rate: 48000 }),
    };
  }
}

/** opusscript configured as the others; its encode takes the frame size (960 per channel). */
function opusscript(): PeerOpus {
  const OpusScript = require('opusscript') as typeof import('opusscript');
  const make = (): InstanceType<typeof OpusScript> => {
    const codec = new OpusScript(48000, 2, OpusScript.Application.VOIP);
    codec.encoderCTL(SET_BITRATE, 64000);
    codec.encoderCTL(SET_INBAND_FEC, 1);
    codec.encoderCTL(SET_PACKET_LOSS_PERC, 10);
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

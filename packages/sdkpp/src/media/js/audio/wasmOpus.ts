import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { MediaEngineError } from '../../MediaEngineError.js';
import type { CheckedEncoderOptions } from '../../audio/args.js';
import type { OpusDecoderCore, OpusEncoderCore } from '../../audio/cores.js';
import {
  AUDIO_RESULTS,
  AudioResult,
  OPUS_CHANNELS,
  OPUS_FRAME_SAMPLES,
  OPUS_FRAME_SAMPLES_PER_CHANNEL,
  OPUS_MAX_PACKET_SAMPLES_PER_CHANNEL,
  OPUS_SAMPLE_RATE,
} from '../../audio/types.js';

// libopus compiled to WebAssembly, as shipped by @evan/opus (MIT; libopus is BSD). Its wasm exports the
// plain libopus C API (opus_encode, opus_decode with its decode_fec flag, the CTLs), which is what FEC
// and concealment need; opusscript's wrapper hard-codes decode_fec = 0 and conceals 60 ms at a time, and
// opus-decoder has no encoder. We instantiate the .wasm ourselves (its own JS wrapper copies every frame
// into a new array and hides FEC): one instance per process, codec states and I/O buffers malloc'd in it
// once per encoder or decoder, so a frame costs two copies and no allocation.

const require = createRequire(import.meta.url);

// libopus constants (opus_defines.h).
const OPUS_OK = 0;
const OPUS_BAD_ARG = -1;
const OPUS_BUFFER_TOO_SMALL = -2;
const OPUS_INVALID_PACKET = -4;
const OPUS_APPLICATION_VOIP = 2048;
const OPUS_APPLICATION_AUDIO = 2049;
const OPUS_SET_BITRATE = 4002;
const OPUS_SET_INBAND_FEC = 4012;
const OPUS_SET_PACKET_LOSS_PERC = 4014;
// Room for the largest packet libopus may write, and for a 120 ms packet's PCM.
const PACKET_CAPACITY = 4000;
const PCM_CAPACITY = OPUS_MAX_PACKET_SAMPLES_PER_CHANNEL * OPUS_CHANNELS;

// Node has WebAssembly, but this project's lib settings (no DOM) do not type it: the little used here.
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
}
const { WebAssembly: wasmApi } = globalThis as unknown as { WebAssembly: WasmApi };

interface OpusWasmExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  malloc(size: number): number;
  free(pointer: number): void;
  opus_encoder_get_size(channels: number): number;
  opus_encoder_init(state: number, rate: number, channels: number, application: number): number;
  opus_encode(state: number, pcm: number, frameSize: number, data: number, maxBytes: number): number;
  opus_encoder_ctl_set(state: number, request: number, value: number): number;
  opus_decoder_get_size(channels: number): number;
  opus_decoder_init(state: number, rate: number, channels: number): number;
  opus_decode(
    state: number,
    data: number,
    length: number,
    pcm: number,
    frameSize: number,
    fec: number,
  ): number;
  _initialize?(): void;
}

let wasm: OpusWasmExports | undefined;
let codecVersion: string | undefined;

/** The package that provides the wasm codec and its version, as `MediaEngineInfo.codec.version` shows. */
export function wasmOpusVersion(): string {
  if (codecVersion !== undefined) return codecVersion;
  const manifest = JSON.parse(readFileSync(require.resolve('@evan/opus/package.json'), 'utf8')) as {
    version: string;
  };
  codecVersion = `@evan/opus ${manifest.version} (libopus, wasm)`;
  return codecVersion;
}

function instance(): OpusWasmExports {
  if (wasm !== undefined) return wasm;
  let bytes: Buffer;
  try {
    bytes = readFileSync(require.resolve('@evan/opus/wasm/opus.wasm'));
  } catch (error) {
    throw new MediaEngineError('ERR_OPUS_UNAVAILABLE', 'The wasm Opus codec (@evan/opus) is not installed', {
      cause: error,
    });
  }
  const ignore = (): number => 0;
  const created = new wasmApi.Instance(new wasmApi.Module(bytes), {
    wasi_snapshot_preview1: { fd_seek: ignore, fd_write: ignore, fd_close: ignore, proc_exit: ignore },
    // Views are re-made from memory.buffer on every call, so growth needs no bookkeeping here.
    env: { emscripten_notify_memory_growth: ignore },
  });
  wasm = created.exports as OpusWasmExports;
  wasm._initialize?.();
  return wasm;
}

function fromOpusError(code: number): number {
  switch (code) {
    case OPUS_INVALID_PACKET:
      return -AudioResult.InvalidPacket;
    case OPUS_BUFFER_TOO_SMALL:
      return -AudioResult.BufferTooSmall;
    case OPUS_BAD_ARG:
      return -AudioResult.BadArgument;
    default:
      return -AudioResult.CodecError;
  }
}

// Frees an encoder's or decoder's wasm memory if its owner is collected without close().
const collector = new FinalizationRegistry<number[]>((pointers) => {
  for (const pointer of pointers) wasm?.free(pointer);
});

class WasmCodecState {
  readonly pointers: number[];
  closed = false;
  readonly counts = new Array<number>(AUDIO_RESULTS.length).fill(0);

  constructor(
    readonly owner: object,
    readonly state: number,
    readonly pcm: number,
    readonly packet: number,
  ) {
    this.pointers = [state, pcm, packet];
    collector.register(owner, this.pointers, owner);
  }

  count(result: number): number {
    const index = result >= 0 ? 0 : -result;
    this.counts[index] = (this.counts[index] ?? 0) + 1;
    return result;
  }

  close(exports: OpusWasmExports): void {
    if (this.closed) return;
    this.closed = true;
    collector.unregister(this.owner);
    for (const pointer of this.pointers) exports.free(pointer);
  }
}

function allocate(exports: OpusWasmExports, stateSize: number): [number, number, number] {
  return [exports.malloc(stateSize), exports.malloc(PCM_CAPACITY * 2), exports.malloc(PACKET_CAPACITY)];
}

function closedError(): MediaEngineError {
  return new MediaEngineError('ERR_AUDIO_BAD_ARGUMENT', 'The Opus codec was closed');
}

/** The JS engine's Opus encoder. */
export class WasmOpusEncoder implements OpusEncoderCore {
  readonly #wasm: OpusWasmExports;
  readonly #s: WasmCodecState;

  /** @throws MediaEngineError `ERR_OPUS_UNAVAILABLE` without @evan/opus, `ERR_OPUS_INTERNAL` on failure. */
  constructor(options: CheckedEncoderOptions) {
    const exports = instance();
    this.#wasm = exports;
    const [state, pcm, packet] = allocate(exports, exports.opus_encoder_get_size(OPUS_CHANNELS));
    this.#s = new WasmCodecState(this, state, pcm, packet);
    const application = options.voip ? OPUS_APPLICATION_VOIP : OPUS_APPLICATION_AUDIO;
    if (exports.opus_encoder_init(state, OPUS_SAMPLE_RATE, OPUS_CHANNELS, application) !== OPUS_OK) {
      this.close();
      throw new MediaEngineError('ERR_OPUS_INTERNAL', 'Creating the Opus encoder failed');
    }
    exports.opus_encoder_ctl_set(state, OPUS_SET_INBAND_FEC, options.inbandFec ? 1 : 0);
    if (this.setBitrate(options.bitrate) < 0 || this.setPacketLossPercent(options.packetLossPercent) < 0) {
      this.close();
      throw new MediaEngineError('ERR_AUDIO_BAD_ARGUMENT', 'libopus refused the encoder settings');
    }
  }

  encode(pcm: Int16Array, out: Uint8Array): number {
    const s = this.#s;
    if (s.closed) throw closedError();
    if (pcm.length !== OPUS_FRAME_SAMPLES) return s.count(-AudioResult.BadFrameSize);
    if (out.length === 0) return s.count(-AudioResult.BufferTooSmall);
    const memory = this.#wasm.memory.buffer;
    new Int16Array(memory, s.pcm, OPUS_FRAME_SAMPLES).set(pcm);
    const capacity = Math.min(out.length, PACKET_CAPACITY);
    const size = this.#wasm.opus_encode(s.state, s.pcm, OPUS_FRAME_SAMPLES_PER_CHANNEL, s.packet, capacity);
    if (size < 0) return s.count(fromOpusError(size));
    out.set(new Uint8Array(this.#wasm.memory.buffer, s.packet, size));
    return s.count(size);
  }

  setBitrate(bitrate: number): number {
    if (bitrate < 500 || bitrate > 512000) return -AudioResult.BadArgument;
    const result = this.#wasm.opus_encoder_ctl_set(this.#s.state, OPUS_SET_BITRATE, bitrate);
    return result === OPUS_OK ? 0 : -AudioResult.BadArgument;
  }

  setPacketLossPercent(percent: number): number {
    if (percent < 0 || percent > 100) return -AudioResult.BadArgument;
    const result = this.#wasm.opus_encoder_ctl_set(this.#s.state, OPUS_SET_PACKET_LOSS_PERC, percent);
    return result === OPUS_OK ? 0 : -AudioResult.BadArgument;
  }

  results(): number[] {
    return [...this.#s.counts];
  }

  close(): void {
    this.#s.close(this.#wasm);
  }
}

/** The JS engine's Opus decoder. */
export class WasmOpusDecoder implements OpusDecoderCore {
  readonly #wasm: OpusWasmExports;
  readonly #s: WasmCodecState;

  /** @throws MediaEngineError `ERR_OPUS_UNAVAILABLE` without @evan/opus, `ERR_OPUS_INTERNAL` on failure. */
  constructor() {
    const exports = instance();
    this.#wasm = exports;
    const [state, pcm, packet] = allocate(exports, exports.opus_decoder_get_size(OPUS_CHANNELS));
    this.#s = new WasmCodecState(this, state, pcm, packet);
    if (exports.opus_decoder_init(state, OPUS_SAMPLE_RATE, OPUS_CHANNELS) !== OPUS_OK) {
      this.close();
      throw new MediaEngineError('ERR_OPUS_INTERNAL', 'Creating the Opus decoder failed');
    }
  }

  decode(packet: Uint8Array, out: Int16Array, fec: boolean): number {
    const s = this.#s;
    if (s.closed) throw closedError();
    // An empty packet would make libopus conceal; a loss is asked for with conceal(), never implied.
    if (packet.length === 0 || packet.length > PACKET_CAPACITY) return s.count(-AudioResult.InvalidPacket);
    const room = Math.floor(out.length / OPUS_CHANNELS);
    const frameSize = fec
      ? OPUS_FRAME_SAMPLES_PER_CHANNEL
      : Math.min(room, OPUS_MAX_PACKET_SAMPLES_PER_CHANNEL);
    if (room < frameSize || frameSize === 0) return s.count(-AudioResult.BufferTooSmall);
    new Uint8Array(this.#wasm.memory.buffer, s.packet, packet.length).set(packet);
    return s.count(this.#run(packet.length, out, frameSize, fec));
  }

  conceal(out: Int16Array): number {
    const s = this.#s;
    if (s.closed) throw closedError();
    if (out.length < OPUS_FRAME_SAMPLES) return s.count(-AudioResult.BufferTooSmall);
    return s.count(this.#run(0, out, OPUS_FRAME_SAMPLES_PER_CHANNEL, false));
  }

  #run(length: number, out: Int16Array, frameSize: number, fec: boolean): number {
    const s = this.#s;
    const data = length === 0 ? 0 : s.packet;
    const decoded = this.#wasm.opus_decode(s.state, data, length, s.pcm, frameSize, fec ? 1 : 0);
    if (decoded < 0) return fromOpusError(decoded);
    out.set(new Int16Array(this.#wasm.memory.buffer, s.pcm, decoded * OPUS_CHANNELS));
    return decoded;
  }

  results(): number[] {
    return [...this.#s.counts];
  }

  close(): void {
    this.#s.close(this.#wasm);
  }
}

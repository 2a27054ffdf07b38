import type { AudioCoreFactory } from '../../audio/cores.js';
import type { MediaEngineInfo } from '../../MediaEngine.js';
import { JsAudioProcessor } from './JsAudioProcessor.js';
import { JsJitterBuffer } from './JsJitterBuffer.js';
import { WasmOpusDecoder, WasmOpusEncoder, wasmOpusVersion } from './wasmOpus.js';

/** The JS engine's audio cores: libopus in wasm, the jitter buffer, VAD and mixer in TS. */
export const jsAudioCores: AudioCoreFactory = {
  encoder: (options) => new WasmOpusEncoder(options),
  decoder: () => new WasmOpusDecoder(),
  jitterBuffer: (min, max) => new JsJitterBuffer(min, max),
  processor: () => new JsAudioProcessor(),
};

/** `MediaEngineInfo.codec` for the wasm codec, or nulls when its package is missing. */
export function wasmCodecInfo(): MediaEngineInfo['codec'] {
  try {
    return Object.freeze({ name: 'opus-wasm' as const, version: wasmOpusVersion() });
  } catch {
    return Object.freeze({ name: null, version: null });
  }
}

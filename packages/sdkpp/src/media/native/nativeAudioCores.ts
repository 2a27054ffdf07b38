import type { NativeAddon } from '../addon/types.js';
import type { AudioCoreFactory } from '../audio/cores.js';
import { jsAudioCores } from '../js/audio/jsAudioCores.js';
import { MediaEngineError } from '../MediaEngineError.js';

function construct<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw MediaEngineError.from(error);
  }
}

/**
 * The native engine's audio cores: the addon's classes. In a build without libopus
 * (`engineInfo().opus === null`) the codec comes from the JS engine's wasm libopus, and
 * `MediaEngineInfo.codec` says so; the jitter buffer, VAD and mixer stay native.
 */
export function nativeAudioCores(addon: NativeAddon, hasLibopus: boolean): AudioCoreFactory {
  return {
    encoder: (options) =>
      hasLibopus
        ? construct(
            () =>
              new addon.OpusEncoder(
                options.bitrate,
                options.inbandFec,
                options.packetLossPercent,
                options.voip,
              ),
          )
        : jsAudioCores.encoder(options),
    decoder: () => (hasLibopus ? construct(() => new addon.OpusDecoder()) : jsAudioCores.decoder()),
    jitterBuffer: (min, max) => construct(() => new addon.JitterBuffer(min, max)),
    processor: () => construct(() => new addon.AudioProcessor()),
  };
}

import { AudioObjects, type AudioCoreFactory } from './audio/factories.js';
import type {
  AudioProcessor,
  AudioProcessorOptions,
  JitterBuffer,
  JitterBufferOptions,
  OpusDecoder,
  OpusEncoder,
  OpusEncoderOptions,
} from './audio/types.js';
import type { MediaEngineInfo } from './MediaEngine.js';

/**
 * What the two engines share, written once: the frozen {@link MediaEngineInfo} and the four audio
 * factories over the engine's own cores (facades, option checks and errors live in audio/). Each engine
 * extends it and adds its crypto, RTP, DAVE and transport, and declares `implements MediaEngine` itself so
 * the compiler checks that nothing is missing.
 *
 * @internal
 */
export abstract class EngineBase {
  /** {@inheritDoc MediaEngine.info} */
  readonly info: MediaEngineInfo;
  readonly #audio: AudioObjects;

  /**
   * @param info - The engine's facts; frozen here, nested records included.
   * @param audioCores - How the engine makes the cores of its audio objects.
   */
  protected constructor(info: MediaEngineInfo, audioCores: AudioCoreFactory) {
    this.info = Object.freeze({
      ...info,
      crypto: Object.freeze({ ...info.crypto }),
      codec: Object.freeze({ ...info.codec }),
      features: Object.freeze([...info.features]),
      ...(info.addon === undefined ? {} : { addon: Object.freeze({ ...info.addon }) }),
    });
    this.#audio = new AudioObjects(audioCores);
  }

  /** {@inheritDoc MediaEngine.createOpusEncoder} */
  createOpusEncoder(options?: OpusEncoderOptions): OpusEncoder {
    return this.#audio.createOpusEncoder(options);
  }

  /** {@inheritDoc MediaEngine.createOpusDecoder} */
  createOpusDecoder(): OpusDecoder {
    return this.#audio.createOpusDecoder();
  }

  /** {@inheritDoc MediaEngine.createJitterBuffer} */
  createJitterBuffer(options?: JitterBufferOptions): JitterBuffer {
    return this.#audio.createJitterBuffer(options);
  }

  /** {@inheritDoc MediaEngine.createAudioProcessor} */
  createAudioProcessor(options?: AudioProcessorOptions): AudioProcessor {
    return this.#audio.createAudioProcessor(options);
  }
}

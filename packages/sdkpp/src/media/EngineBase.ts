import { checkEncoderOptions, checkJitterOptions } from './audio/args.js';
import type { AudioCoreFactory } from './audio/cores.js';
import {
  AudioProcessorFacade,
  JitterBufferFacade,
  OpusDecoderFacade,
  OpusEncoderFacade,
} from './audio/facades.js';
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
 * factories, which check their options alike and wrap the engine's own cores in the same facades
 * (audio/facades.ts), so arguments and errors do not depend on the engine. Each engine extends it, adds
 * its crypto, RTP, DAVE and transport, and declares `implements MediaEngine` itself so that the compiler
 * checks that nothing is missing.
 *
 * @internal
 */
export abstract class EngineBase {
  /** {@inheritDoc MediaEngine.info} */
  readonly info: MediaEngineInfo;
  readonly #cores: AudioCoreFactory;

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
    this.#cores = audioCores;
  }

  /** {@inheritDoc MediaEngine.createOpusEncoder} */
  createOpusEncoder(options: OpusEncoderOptions = {}): OpusEncoder {
    return new OpusEncoderFacade(this.#cores.encoder(checkEncoderOptions(options)));
  }

  /** {@inheritDoc MediaEngine.createOpusDecoder} */
  createOpusDecoder(): OpusDecoder {
    return new OpusDecoderFacade(this.#cores.decoder());
  }

  /** {@inheritDoc MediaEngine.createJitterBuffer} */
  createJitterBuffer(options: JitterBufferOptions = {}): JitterBuffer {
    const { min, max } = checkJitterOptions(options);
    return new JitterBufferFacade(this.#cores.jitterBuffer(min, max));
  }

  /** {@inheritDoc MediaEngine.createAudioProcessor} */
  createAudioProcessor(options: AudioProcessorOptions = {}): AudioProcessor {
    const now = options.now ?? (() => performance.now());
    return new AudioProcessorFacade(this.#cores.processor(), now);
  }
}

import { checkEncoderOptions, checkJitterOptions } from './args.js';
import type { AudioProcessorCore, JitterBufferCore, OpusDecoderCore, OpusEncoderCore } from './cores.js';
import { AudioProcessorFacade, JitterBufferFacade, OpusDecoderFacade, OpusEncoderFacade } from './facades.js';
import type { CheckedEncoderOptions } from './args.js';
import type {
  AudioProcessor,
  AudioProcessorOptions,
  JitterBuffer,
  JitterBufferOptions,
  OpusDecoder,
  OpusEncoder,
  OpusEncoderOptions,
} from './types.js';

/** How an engine makes the cores of its audio objects (see cores.ts). */
export interface AudioCoreFactory {
  encoder(options: CheckedEncoderOptions): OpusEncoderCore;
  decoder(): OpusDecoderCore;
  jitterBuffer(minDelayFrames: number, maxDelayFrames: number): JitterBufferCore;
  processor(): AudioProcessorCore;
}

/** The four `MediaEngine` audio factories over an engine's cores, with options checked alike. */
export class AudioObjects {
  readonly #cores: AudioCoreFactory;

  /** @param cores - The engine's core factory. */
  constructor(cores: AudioCoreFactory) {
    this.#cores = cores;
  }

  /** See `MediaEngine.createOpusEncoder`. */
  createOpusEncoder(options: OpusEncoderOptions = {}): OpusEncoder {
    return new OpusEncoderFacade(this.#cores.encoder(checkEncoderOptions(options)));
  }

  /** See `MediaEngine.createOpusDecoder`. */
  createOpusDecoder(): OpusDecoder {
    return new OpusDecoderFacade(this.#cores.decoder());
  }

  /** See `MediaEngine.createJitterBuffer`. */
  createJitterBuffer(options: JitterBufferOptions = {}): JitterBuffer {
    const { min, max } = checkJitterOptions(options);
    return new JitterBufferFacade(this.#cores.jitterBuffer(min, max));
  }

  /** See `MediaEngine.createAudioProcessor`. */
  createAudioProcessor(options: AudioProcessorOptions = {}): AudioProcessor {
    const now = options.now ?? (() => performance.now());
    return new AudioProcessorFacade(this.#cores.processor(), now);
  }
}

import type { LogWriter } from '../../logging/index.js';
import { EchoCanceller, PROCESSING_BLOCK } from './EchoCanceller.js';
import { GainControl } from './GainControl.js';
import { NoiseSuppressor } from './NoiseSuppressor.js';
import { loadAec3, loadRnnoise } from './wasmModules.js';

/** Which processing runs on the microphone's audio. */
export interface VoiceProcessingSettings {
  /** WebRTC's AEC3: removes what the speakers play from the microphone. */
  echoCancellation: boolean;
  /** RNNoise: removes steady background noise. */
  noiseSuppression: boolean;
  /** Levels speech towards −20 dBFS RMS. */
  automaticGainControl: boolean;
}

/**
 * The capture path's voice processing, in the order WebRTC runs it: echo cancellation (with the playout as
 * its reference), noise suppression, gain control. Works on interleaved stereo frames of whole 10 ms blocks
 * (the pump's 20 ms frames, the processing worker's 10 ms blocks), each block as mono (a microphone is mono;
 * the result goes to both channels). With everything off a frame passes untouched, sample for sample.
 *
 * The libraries are WebAssembly, compiled on first use: {@link VoiceProcessor.set} resolves once what it
 * turned on runs.
 */
export class VoiceProcessor {
  readonly #log: LogWriter;
  #settings: VoiceProcessingSettings = {
    echoCancellation: false,
    noiseSuppression: false,
    automaticGainControl: false,
  };
  #aec: EchoCanceller | undefined;
  #ns: NoiseSuppressor | undefined;
  #agc: GainControl | undefined;
  /** Changes run one after the other. */
  #changes: Promise<void> = Promise.resolve();
  readonly #mono = new Float32Array(PROCESSING_BLOCK);
  readonly #a = new Float32Array(PROCESSING_BLOCK);
  readonly #b = new Float32Array(PROCESSING_BLOCK);
  /** The dither's generator state. */
  #dither = 1;

  constructor(log: LogWriter) {
    this.#log = log;
  }

  /** The settings as last asked for. */
  get settings(): VoiceProcessingSettings {
    return { ...this.#settings };
  }

  /** True while any processing runs. */
  get active(): boolean {
    return this.#aec !== undefined || this.#ns !== undefined || this.#agc !== undefined;
  }

  /** Turns parts on or off; resolves once the change runs (a library is compiled on first use). */
  async set(change: Partial<VoiceProcessingSettings>): Promise<void> {
    this.#settings = { ...this.#settings, ...change };
    const wanted = this.#settings;
    const next = this.#changes.then(async () => this.#apply(wanted));
    this.#changes = next.catch(() => undefined);
    return next;
  }

  /** A stereo frame (whole 10 ms blocks) of what the speakers play: the echo canceller's reference. */
  render(frame: Int16Array): void {
    const aec = this.#aec;
    if (!aec) return;
    for (let block = 0; block < blocksIn(frame); block++) {
      this.#toMono(frame, block);
      aec.render(this.#mono);
    }
  }

  /** Processes a stereo microphone frame (whole 10 ms blocks) in place. */
  process(frame: Int16Array): void {
    if (!this.active) return;
    for (let block = 0; block < blocksIn(frame); block++) {
      this.#toMono(frame, block);
      // Each stage reads one buffer and writes the other of a pair, so no stage reads what it writes.
      let data = this.#mono;
      let next = this.#a;
      for (const stage of [this.#aec, this.#ns, this.#agc]) {
        if (!stage) continue;
        stage.process(data, next);
        data = next;
        next = next === this.#a ? this.#b : this.#a;
      }
      const offset = block * PROCESSING_BLOCK * 2;
      for (let i = 0; i < PROCESSING_BLOCK; i++) {
        const v = Math.round((data[i] ?? 0) * 32767);
        const s = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
        frame[offset + 2 * i] = s;
        frame[offset + 2 * i + 1] = s;
      }
    }
  }

  /**
   * True while the echo canceller runs: it returns each block about 10 ms late and needs every tick, so the
   * capture path feeds it silent ticks too (and sends the tail they carry).
   */
  get delaysOutput(): boolean {
    return this.#aec !== undefined;
  }

  /** Frees the WebAssembly instances. */
  close(): void {
    this.#aec?.close();
    this.#ns?.close();
    this.#aec = undefined;
    this.#ns = undefined;
    this.#agc = undefined;
  }

  async #apply(wanted: VoiceProcessingSettings): Promise<void> {
    if (wanted.echoCancellation && !this.#aec) {
      this.#aec = new EchoCanceller(await loadAec3());
      this.#log.info('voice processing: echo cancellation on (WebRTC AEC3)');
    } else if (!wanted.echoCancellation && this.#aec) {
      this.#aec.close();
      this.#aec = undefined;
      this.#log.info('voice processing: echo cancellation off');
    }
    if (wanted.noiseSuppression && !this.#ns) {
      this.#ns = new NoiseSuppressor(await loadRnnoise());
      this.#log.info('voice processing: noise suppression on (RNNoise)');
    } else if (!wanted.noiseSuppression && this.#ns) {
      this.#ns.close();
      this.#ns = undefined;
      this.#log.info('voice processing: noise suppression off');
    }
    if (wanted.automaticGainControl && !this.#agc) {
      this.#agc = new GainControl();
      this.#log.info('voice processing: automatic gain control on');
    } else if (!wanted.automaticGainControl && this.#agc) {
      this.#agc = undefined;
      this.#log.info('voice processing: automatic gain control off');
    }
  }

  /**
   * Block `block` of a stereo frame as a mono float block, with a dither far below the 16-bit step
   * (about −130 dBFS): digital silence would let the libraries' filters decay into subnormal floats, which
   * WebAssembly computes several times slower (measured: 2.2 ms instead of 0.5 ms a block).
   */
  #toMono(frame: Int16Array, block: number): void {
    const offset = block * PROCESSING_BLOCK * 2;
    for (let i = 0; i < PROCESSING_BLOCK; i++) {
      this.#dither = (this.#dither * 1103515245 + 12345) >>> 0;
      const tiny = (this.#dither / 2 ** 32 - 0.5) * 6e-7;
      this.#mono[i] = ((frame[offset + 2 * i] ?? 0) + (frame[offset + 2 * i + 1] ?? 0)) / 65536 + tiny;
    }
  }
}

/** The whole 10 ms stereo blocks in a frame. */
function blocksIn(frame: Int16Array): number {
  return Math.floor(frame.length / (PROCESSING_BLOCK * 2));
}

import { PROCESSING_BLOCK } from './EchoCanceller.js';
import type { RnnoiseModule } from './wasmModules.js';

/**
 * RNNoise on the capture path: a small recurrent network that estimates, band by band, how much of each
 * 10 ms block is voice, and attenuates the rest (fans, hum, keyboards). Mono, 48 kHz, floats in −1..1.
 */
export class NoiseSuppressor {
  readonly #m: RnnoiseModule;
  readonly #state: number;
  readonly #in: number;
  readonly #out: number;

  constructor(module: RnnoiseModule) {
    this.#m = module;
    this.#state = module._rnnoise_create(0);
    this.#in = module._malloc(PROCESSING_BLOCK * 4);
    this.#out = module._malloc(PROCESSING_BLOCK * 4);
  }

  /** One block, noise removed, into `out`. */
  process(block: Float32Array, out: Float32Array): void {
    // RNNoise works on the 16-bit scale; the heap view is taken afresh because memory growth replaces it.
    let heap = this.#m.HEAPF32;
    const input = this.#in >> 2;
    for (let i = 0; i < PROCESSING_BLOCK; i++) heap[input + i] = (block[i] ?? 0) * 32768;
    this.#m._rnnoise_process_frame(this.#state, this.#out, this.#in);
    heap = this.#m.HEAPF32;
    const output = this.#out >> 2;
    for (let i = 0; i < PROCESSING_BLOCK; i++) out[i] = (heap[output + i] ?? 0) / 32768;
  }

  /** Frees its state in the WebAssembly memory. */
  close(): void {
    this.#m._rnnoise_destroy(this.#state);
    this.#m._free(this.#in);
    this.#m._free(this.#out);
  }
}

import type { Aec3Instance, Aec3Module } from './wasmModules.js';

/** AEC3 works in 10 ms blocks. */
export const PROCESSING_BLOCK = 480;

/**
 * WebRTC's AEC3 on the capture path: it learns the echo path from the playout (`render`) and removes that
 * signal from the microphone (`process`), whatever the delay between them (it estimates it). Mono, 48 kHz,
 * 10 ms blocks of floats in −1..1.
 *
 * AEC3 hands back what it has ready, which may lag its input by a block or two; a small queue keeps the
 * output one block per block, so the capture path's timing does not move.
 */
export class EchoCanceller {
  readonly #aec: Aec3Instance;
  /** Processed samples waiting to leave, at most a few blocks. */
  #pending = new Float32Array(8 * PROCESSING_BLOCK);
  #pendingLength = 0;
  #scratch = new Float32Array(4 * PROCESSING_BLOCK);

  constructor(module: Aec3Module) {
    this.#aec = new module.AEC3(48_000, 1, 1);
  }

  /** One block of what the speaker plays. */
  render(block: Float32Array): void {
    this.#aec.analyze([block]);
  }

  /** One block of the microphone, echo removed, into `out`. */
  process(block: Float32Array, out: Float32Array): void {
    const size = this.#aec.processSize([block]);
    if (size > this.#scratch.length) this.#scratch = new Float32Array(size);
    const produced = this.#scratch.subarray(0, size);
    this.#aec.process([produced], [block]);
    if (this.#pendingLength + size > this.#pending.length) {
      // More than the queue holds means AEC3 ran far ahead; the oldest goes, the timing stays.
      const keep = Math.max(0, this.#pending.length - size);
      this.#pending.copyWithin(0, this.#pendingLength - keep, this.#pendingLength);
      this.#pendingLength = keep;
    }
    this.#pending.set(produced, this.#pendingLength);
    this.#pendingLength += size;
    const take = Math.min(PROCESSING_BLOCK, this.#pendingLength);
    out.fill(0);
    // While AEC3 fills its first blocks, the start of the output is silence rather than a gap.
    out.set(this.#pending.subarray(0, take), PROCESSING_BLOCK - take);
    this.#pending.copyWithin(0, take, this.#pendingLength);
    this.#pendingLength -= take;
  }

  /** Frees the WebAssembly instance. */
  close(): void {
    this.#aec.free();
  }
}

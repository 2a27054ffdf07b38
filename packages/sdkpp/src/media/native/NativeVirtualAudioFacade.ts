import type { NativeVirtualAudio } from '../addon/types.js';
import type { VirtualAudio, VirtualAudioStats } from '../devices/types.js';
import { coded } from './coded.js';
import { registerLinkable } from './linkables.js';

/** The addon's virtual devices, its errors turned into MediaEngineErrors (see `coded`). */
export class NativeVirtualAudioFacade implements VirtualAudio {
  readonly #native: NativeVirtualAudio;

  /** Wraps an addon object made by the addon's `VirtualAudio` constructor. */
  constructor(native: NativeVirtualAudio) {
    this.#native = native;
    registerLinkable(this, native);
  }

  /** {@inheritDoc VirtualAudio.pushInput} */
  pushInput(pcm: Int16Array): number {
    return coded(() => this.#native.pushInput(pcm));
  }
  /** {@inheritDoc VirtualAudio.readInput} */
  readInput(out: Int16Array): boolean {
    return coded(() => this.#native.readInput(out));
  }
  /** {@inheritDoc VirtualAudio.stats} */
  stats(): VirtualAudioStats {
    return coded(() => this.#native.stats());
  }
  /** {@inheritDoc VirtualAudio.dispose} */
  dispose(): void {
    this.#native.dispose();
  }
}

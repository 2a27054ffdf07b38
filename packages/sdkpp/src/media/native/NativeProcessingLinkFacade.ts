import type { NativeVoiceProcessingLink } from '../addon/types.js';
import type { VoiceProcessingLink, VoiceProcessingLinkStats } from '../devices/types.js';
import { coded } from './coded.js';
import { registerLinkable } from './linkables.js';

/** The addon's processing link, its errors turned into MediaEngineErrors (see `coded`). */
export class NativeProcessingLinkFacade implements VoiceProcessingLink {
  readonly #native: NativeVoiceProcessingLink;
  /** {@inheritDoc VoiceProcessingLink.id} */
  readonly id: number;

  /** Wraps an addon object made by the addon's `VoiceProcessingLink` constructor. */
  constructor(native: NativeVoiceProcessingLink) {
    this.#native = native;
    this.id = native.id();
    registerLinkable(this, native);
  }

  /** {@inheritDoc VoiceProcessingLink.readCapture} */
  readCapture(out: Int16Array, waitMs: number): boolean {
    return coded(() => this.#native.readCapture(out, waitMs));
  }
  /** {@inheritDoc VoiceProcessingLink.readRender} */
  readRender(out: Int16Array): boolean {
    return coded(() => this.#native.readRender(out));
  }
  /** {@inheritDoc VoiceProcessingLink.writeProcessed} */
  writeProcessed(pcm: Int16Array): number {
    return coded(() => this.#native.writeProcessed(pcm));
  }
  /** {@inheritDoc VoiceProcessingLink.stats} */
  stats(): VoiceProcessingLinkStats {
    return coded(() => this.#native.stats());
  }
  /** {@inheritDoc VoiceProcessingLink.dispose} */
  dispose(): void {
    this.#native.dispose();
  }
}

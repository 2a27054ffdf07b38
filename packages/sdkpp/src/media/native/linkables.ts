import type { NativeSystemAudio, NativeVirtualAudio, NativeVoiceProcessingLink } from '../addon/types.js';
import type { SystemAudio, VirtualAudio, VoiceProcessingLink } from '../devices/types.js';

/** What a native voice transport can link: the addon's system audio, processing link or virtual audio. */
export type NativeLinkable = NativeSystemAudio | NativeVoiceProcessingLink | NativeVirtualAudio;

/** A facade a native voice transport can link. */
export type Linkable = SystemAudio | VoiceProcessingLink | VirtualAudio;

/** Each facade's addon object, for a native voice transport to link (not reachable from outside). */
const natives = new WeakMap<Linkable, NativeLinkable>();

/** Records the addon object behind a facade. */
export function registerLinkable(facade: Linkable, native: NativeLinkable): void {
  natives.set(facade, native);
}

/** The addon object behind a facade, or undefined when `facade` is not one of this engine's. */
export function nativeLinkableOf(facade: Linkable): NativeLinkable | undefined {
  return natives.get(facade);
}

import type { NativeSystemAudio, NativeVoiceProcessingLink } from '../addon/types.js';
import type { SystemAudio, VoiceProcessingLink } from '../devices/types.js';

/** What a native voice transport can link: the addon's system audio or processing link. */
export type NativeLinkable = NativeSystemAudio | NativeVoiceProcessingLink;

/** Each facade's addon object, for a native voice transport to link (not reachable from outside). */
const natives = new WeakMap<SystemAudio | VoiceProcessingLink, NativeLinkable>();

/** Records the addon object behind a facade. */
export function registerLinkable(facade: SystemAudio | VoiceProcessingLink, native: NativeLinkable): void {
  natives.set(facade, native);
}

/** The addon object behind a facade, or undefined when `facade` is not one of this engine's. */
export function nativeLinkableOf(facade: SystemAudio | VoiceProcessingLink): NativeLinkable | undefined {
  return natives.get(facade);
}

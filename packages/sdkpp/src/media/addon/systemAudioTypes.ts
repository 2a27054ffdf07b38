import type { SystemAudio, VirtualAudio, VoiceProcessingLink } from '../devices/types.js';

/**
 * `new addon.SystemAudio()` (native/napi/system_audio_wrap.h): {@link SystemAudio} with the backend's name
 * as a method rather than a property, and no processing links of its own (the addon makes those).
 */
export interface NativeSystemAudio extends Omit<SystemAudio, 'backend' | 'createProcessingLink'> {
  backend(): string;
}

/**
 * `new addon.VoiceProcessingLink(systemAudio | id)` (native/napi/processing_link_wrap.h):
 * {@link VoiceProcessingLink} with its id as a method.
 */
export interface NativeVoiceProcessingLink extends Omit<VoiceProcessingLink, 'id'> {
  id(): number;
}

/** `new addon.VirtualAudio()` (native/napi/virtual_audio_wrap.h): {@link VirtualAudio} as it is. */
export type NativeVirtualAudio = VirtualAudio;

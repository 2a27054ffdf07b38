import type { SystemAudio } from '../devices/types.js';

/**
 * `new addon.SystemAudio()` (native/napi/system_audio_wrap.h): {@link SystemAudio} with the backend's name
 * as a method rather than a property.
 */
export interface NativeSystemAudio extends Omit<SystemAudio, 'backend'> {
  backend(): string;
}

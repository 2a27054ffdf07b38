import type {
  SystemAudioDeviceInfo,
  SystemAudioDirection,
  SystemAudioEvent,
  SystemAudioStreamStatus,
} from '../devices/types.js';

/** `new addon.SystemAudio()`: see native/napi/system_audio_wrap.h. */
export interface NativeSystemAudio {
  backend(): string;
  list(direction: SystemAudioDirection): SystemAudioDeviceInfo[];
  open(direction: SystemAudioDirection, id: string | null): void;
  close(direction: SystemAudioDirection): void;
  status(direction: SystemAudioDirection): SystemAudioStreamStatus;
  read(out: Int16Array, maxBacklogSamples: number): boolean;
  write(pcm: Int16Array): number;
  inputAvailable(): number;
  outputQueued(): number;
  takeEvents(): SystemAudioEvent[];
  dispose(): void;
}

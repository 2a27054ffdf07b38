import type { NativeAddon, NativeSystemAudio } from '../addon/types.js';
import type {
  SystemAudio,
  SystemAudioDeviceInfo,
  SystemAudioDirection,
  SystemAudioEvent,
  SystemAudioStreamStatus,
  VoiceProcessingLink,
} from '../devices/types.js';
import { MediaEngineError } from '../MediaEngineError.js';
import { registerLinkable } from './linkables.js';
import { NativeProcessingLinkFacade } from './NativeProcessingLinkFacade.js';

/** Why there are no system devices, with what to do about it. */
export const SYSTEM_AUDIO_REMEDY =
  'Feed a call with client.pushAudioInput() (any rate and channel count) and play what ' +
  'startCallWithAudioCallbacks() hands you; or build the native addon (`npm rebuild sdkpp`, which needs ' +
  'python3, make and a C++17 compiler) for the system microphones and speakers.';

/** The addon's system audio, its errors turned into {@link MediaEngineError}s. */
export class NativeSystemAudioFacade implements SystemAudio {
  readonly #addon: NativeAddon;
  readonly #native: NativeSystemAudio;
  /** {@inheritDoc SystemAudio.backend} */
  readonly backend: string;

  /** @throws MediaEngineError `ERR_SYSTEM_AUDIO_UNAVAILABLE` with the reason and the remedy. */
  constructor(addon: NativeAddon) {
    if (!addon.SystemAudio || addon.systemAudioBuilt?.() !== true) {
      throw new MediaEngineError(
        'ERR_SYSTEM_AUDIO_UNAVAILABLE',
        `This build of the native addon has no system audio devices (miniaudio was not fetched when it ` +
          `was built). ${SYSTEM_AUDIO_REMEDY}`,
      );
    }
    try {
      this.#native = new addon.SystemAudio();
    } catch (error) {
      throw new MediaEngineError(
        'ERR_SYSTEM_AUDIO_UNAVAILABLE',
        `No system audio: ${(error as Error).message}. ${SYSTEM_AUDIO_REMEDY}`,
        { cause: error },
      );
    }
    this.#addon = addon;
    this.backend = this.#native.backend();
    registerLinkable(this, this.#native);
  }

  /** {@inheritDoc SystemAudio.list} */
  list(direction: SystemAudioDirection): SystemAudioDeviceInfo[] {
    return this.#call(() => this.#native.list(direction));
  }
  /** {@inheritDoc SystemAudio.open} */
  open(direction: SystemAudioDirection, id: string | null): void {
    this.#call(() => {
      this.#native.open(direction, id);
    });
  }
  /** {@inheritDoc SystemAudio.close} */
  close(direction: SystemAudioDirection): void {
    this.#call(() => {
      this.#native.close(direction);
    });
  }
  /** {@inheritDoc SystemAudio.status} */
  status(direction: SystemAudioDirection): SystemAudioStreamStatus {
    return this.#call(() => this.#native.status(direction));
  }
  /** {@inheritDoc SystemAudio.read} */
  read(out: Int16Array, maxBacklogSamples: number): boolean {
    return this.#native.read(out, maxBacklogSamples);
  }
  /** {@inheritDoc SystemAudio.write} */
  write(pcm: Int16Array): number {
    return this.#native.write(pcm);
  }
  /** {@inheritDoc SystemAudio.inputAvailable} */
  inputAvailable(): number {
    return this.#native.inputAvailable();
  }
  /** {@inheritDoc SystemAudio.outputQueued} */
  outputQueued(): number {
    return this.#native.outputQueued();
  }
  /** {@inheritDoc SystemAudio.takeEvents} */
  takeEvents(): SystemAudioEvent[] {
    return this.#call(() => this.#native.takeEvents());
  }
  /** {@inheritDoc SystemAudio.createProcessingLink} */
  createProcessingLink(): VoiceProcessingLink {
    const Link = this.#addon.VoiceProcessingLink;
    if (!Link) {
      throw new MediaEngineError(
        'ERR_SYSTEM_AUDIO_UNAVAILABLE',
        `This build of the native addon has no voice processing links. ${SYSTEM_AUDIO_REMEDY}`,
      );
    }
    return this.#call(() => new NativeProcessingLinkFacade(new Link(this.#native)));
  }
  /** {@inheritDoc SystemAudio.dispose} */
  dispose(): void {
    this.#native.dispose();
  }

  #call<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      throw MediaEngineError.from(error);
    }
  }
}

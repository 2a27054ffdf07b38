/** Which way audio flows through a system device. */
export type SystemAudioDirection = 'input' | 'output';

/** One system audio device as the backend reports it. */
export interface SystemAudioDeviceInfo {
  /** The backend's own id: stable while the device is plugged in (a PulseAudio or ALSA name, a WASAPI id). */
  readonly id: string;
  /** The device's name, for people. */
  readonly name: string;
  /** Whether it is the system's default device for its direction. */
  readonly isDefault: boolean;
}

/** The state of one direction's stream. */
export interface SystemAudioStreamStatus {
  /** Whether a device is open (false after a fallback that could not open the default, until it can). */
  readonly open: boolean;
  /** Opened without an id: the backend routes it to the system default, and follows the default's changes. */
  readonly followsDefault: boolean;
  /** The device asked for (empty when it follows the default). */
  readonly id: string;
  /** The device's name as the backend reports it. */
  readonly name: string;
  /** Device periods (10 ms) handled since it opened. */
  readonly callbacks: number;
  /** Samples dropped: the reader fell behind (input), or the writer ran ahead (output). */
  readonly droppedSamples: number;
  /** Output samples the device wanted and did not get (played as silence). */
  readonly missingSamples: number;
  /** How many times the stream fell back to the default device. */
  readonly reopened: number;
}

/** What the device watcher saw: the device list changed, or an open stream lost its device. */
export type SystemAudioEvent =
  | {
      /** The list of devices or a default changed. */
      readonly kind: 'devices-changed';
    }
  | {
      /** An open stream's device went away and the watcher replaced it. */
      readonly kind: 'device-lost';
      /** The stream that lost its device. */
      readonly direction: SystemAudioDirection;
      /** The device that went away (empty: the stream was on the default). */
      readonly lostId: string;
      /** `removed` (gone from the list), `stalled` (no more callbacks), `recovered` (a late fallback). */
      readonly reason: 'removed' | 'stalled' | 'recovered';
      /** Whether the stream now runs on the default device. */
      readonly fallbackOpened: boolean;
      /** That device's name, or why it could not be opened. */
      readonly fallbackName: string;
    };

/**
 * The system's microphones and speakers (native engine only): 48 kHz interleaved stereo 16-bit, crossing
 * lock-free rings between the device threads and the caller. A watcher thread enumerates devices every
 * 500 ms and replaces a vanished or stalled device with the default on its own, so audio never stops
 * because the JS thread is busy; {@link SystemAudio.takeEvents} reports what it did.
 */
export interface SystemAudio {
  /** The backend in use: `PulseAudio`, `ALSA`, `JACK`, `WASAPI`, `Core Audio`, ... */
  readonly backend: string;
  /** The devices of one direction as the backend lists them now. */
  list(direction: SystemAudioDirection): SystemAudioDeviceInfo[];
  /**
   * Opens `direction` on the device `id`, or on the system default (following it) when `id` is null.
   *
   * @throws MediaEngineError `ERR_AUDIO_DEVICE_NOT_FOUND` or `ERR_AUDIO_DEVICE_FAILED`.
   */
  open(direction: SystemAudioDirection, id: string | null): void;
  /** Closes the stream of `direction` (the watcher stops replacing its device). */
  close(direction: SystemAudioDirection): void;
  /** The state and counters of one direction's stream. */
  status(direction: SystemAudioDirection): SystemAudioStreamStatus;
  /** Fills `out` from the microphone when that much is there, keeping at most `maxBacklogSamples` after. */
  read(out: Int16Array, maxBacklogSamples: number): boolean;
  /** Queues samples for the speaker; returns how many fitted. */
  write(pcm: Int16Array): number;
  /** Samples waiting from the microphone. */
  inputAvailable(): number;
  /** Samples queued for the speaker. */
  outputQueued(): number;
  /** What the watcher saw since the last call, oldest first (at most 64). */
  takeEvents(): SystemAudioEvent[];
  /** Closes both streams and stops the watcher thread. */
  dispose(): void;
}

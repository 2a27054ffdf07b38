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
  /** Output: how many times the speaker's ring ran dry (each one a gap the listener hears). */
  readonly underruns: number;
  /**
   * Device callbacks that came more than two of the device's periods (and at least 30 ms) after the
   * previous one since the stream opened: the device's thread was not run in time, or the sound server
   * did not ask in time; unless the server held enough audio, the listener heard a gap.
   */
  readonly lateCallbacks: number;
  /** The longest time between two device callbacks since the stream opened, in ms. */
  readonly longestGapMs: number;
  /**
   * Output on PulseAudio: the audio the sound server is asked to hold ahead of the device, in ms. It starts
   * at two device periods (20 ms) and widens after two late callbacks within 5 s to cover the gap seen (at most 250 ms), so
   * that a busy machine costs latency rather than holes; 0 on other backends (their own buffering applies).
   */
  readonly serverBufferMs: number;
  /**
   * What the thread that calls back got when it asked to run ahead of ordinary threads, counted as the voice
   * transport's `priority` stat is (0 nothing or not yet, 1 raised nice, 2 real-time, 3 a short time slice).
   */
  readonly priority: number;
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
  /**
   * A new {@link VoiceProcessingLink} on these devices, for a voice transport to link instead of them.
   *
   * @throws MediaEngineError `ERR_SYSTEM_AUDIO_DISPOSED` after {@link SystemAudio.dispose}.
   */
  createProcessingLink(): VoiceProcessingLink;
  /** Closes both streams and stops the watcher thread. */
  dispose(): void;
}

/** The counters of a {@link VoiceProcessingLink}. */
export interface VoiceProcessingLinkStats {
  /** Microphone blocks the processing thread read. */
  readonly captureBlocks: number;
  /** Processed samples it handed back. */
  readonly processedSamples: number;
  /** Processed samples the transport did not take in time (dropped, oldest first). */
  readonly processedDropped: number;
  /** Samples of the playout the processing thread did not take in time. */
  readonly renderDropped: number;
}

/**
 * Voice processing between the system devices and a voice transport's own thread (native engine only). A
 * transport links this object instead of the {@link SystemAudio} ({@link VoiceTransport.linkSystemAudio}):
 * it then sends what the processing thread wrote with {@link VoiceProcessingLink.writeProcessed}, and each
 * frame it plays goes to the speaker and to {@link VoiceProcessingLink.readRender} (the echo canceller's
 * reference). The processing side runs on a thread of its own, such as a worker thread, which opens the
 * same link by {@link VoiceProcessingLink.id} ({@link MediaEngine.openProcessingLink}). Every crossing is
 * a lock-free ring: neither the devices nor the transport ever wait for the processing thread.
 */
export interface VoiceProcessingLink {
  /** The process-wide id another thread opens this link by. */
  readonly id: number;
  /**
   * Fills `out` (interleaved stereo) from the microphone, waiting at most `waitMs` (0–100) for that many
   * samples; false when they did not come, or while no transport links this object for capture (the
   * microphone is then someone else's to read). Blocks the calling thread: call it on a worker.
   */
  readCapture(out: Int16Array, waitMs: number): boolean;
  /** Fills `out` with what the speaker played next, when that much is there. */
  readRender(out: Int16Array): boolean;
  /** Queues processed microphone samples for the transport; returns how many fitted. */
  writeProcessed(pcm: Int16Array): number;
  /** The link's counters. */
  stats(): VoiceProcessingLinkStats;
  /** Drops this object's hold on the link (which lives while a transport or another thread holds it). */
  dispose(): void;
}

/** The counters of a {@link VirtualAudio}. */
export interface VirtualAudioStats {
  /** Microphone samples waiting to be read. */
  readonly inputQueued: number;
  /** Samples the transport played to the null speaker since the object was made. */
  readonly outputSamples: number;
}

/**
 * The SDK's virtual devices (a WAV file, or nothing, as the microphone; the null speaker) in a form a native
 * voice transport's own thread serves ({@link VoiceTransport.linkSystemAudio}), so that a call on them costs
 * the JavaScript thread no work per frame (native engine only, {@link MediaEngine.createVirtualAudio}). The
 * owner queues the file's samples ahead of time, a second or more at once; the transport's thread takes one
 * frame per tick, and while no transport reads it the owner reads the same queue, so a file goes on from
 * where it was. What the transport plays is counted and discarded.
 */
export interface VirtualAudio {
  /** Queues microphone samples (48 kHz interleaved stereo); returns how many fitted (4 s wait at most). */
  pushInput(pcm: Int16Array): number;
  /**
   * Fills `out` from the queue when that many samples wait; false otherwise. Only while no transport links
   * this object for capture (`stats().devicesLinked` bit 0 clear): the queue has one reader at a time.
   */
  readInput(out: Int16Array): boolean;
  /** The counters. */
  stats(): VirtualAudioStats;
  /** Drops this object's hold (a transport that linked it keeps it until it lets go). */
  dispose(): void;
}

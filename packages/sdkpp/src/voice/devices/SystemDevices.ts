import type { LogWriter } from '../../logging/index.js';
import {
  MediaEngineError,
  VOICE_FRAME_SAMPLES,
  type SystemAudio,
  type SystemAudioDirection,
  type SystemAudioEvent,
} from '../../media/index.js';
import type { AudioDevice, AudioInput, AudioOutput } from './audioDevices.js';

/** The device that follows the system's default microphone or speaker, whichever it is at the time. */
export const SYSTEM_DEFAULT_DEVICE_ID = 'default';
/** How often the watcher's findings are collected (the watcher itself is a native thread). */
const EVENT_POLL_MS = 200;
/**
 * Microphone samples that may stay waiting for a whole second (the addon takes the low point of the window):
 * what a late pump (the event loop was busy) leaves behind beyond one frame is skipped rather than sent late
 * for the rest of the call. The transport's own send ring holds two more frames.
 */
const MAX_INPUT_BACKLOG = VOICE_FRAME_SAMPLES;

/** A device lost mid-call and what replaced it. */
export interface AudioDeviceLoss {
  /** Which side lost its device: the microphone (`input`) or the speaker (`output`). */
  readonly direction: SystemAudioDirection;
  /** The device that went away (`default` when the stream followed the default). */
  readonly deviceId: string;
  /** `removed` (unplugged), `stalled` (stopped delivering), or `recovered` (a late fallback). */
  readonly reason: 'removed' | 'stalled' | 'recovered';
  /** The device now in use: the system default, or `null` (silence) when none would open. */
  readonly fallbackDeviceId: string;
}

/** What {@link SystemDevices} needs. */
export interface SystemDevicesDeps {
  /** Opens the engine's system audio (throws `ERR_SYSTEM_AUDIO_UNAVAILABLE` where there is none). */
  open: () => SystemAudio;
  log: LogWriter;
  /** The device list changed (hot-plug, or a new default). */
  onDevicesChanged: () => void;
  /** A stream lost its device; the watcher already moved it to the default. */
  onDeviceLost: (loss: AudioDeviceLoss) => void;
}

/**
 * The system's microphones and speakers as SDK devices: ids `default` (follows the system default) and
 * `<backend>:<backend id>` (one device, such as `pulseaudio:alsa_input.usb-mic`). The engine's
 * {@link SystemAudio} opens on first use and stays for the client's life; where there is none (the JS
 * engine, a machine without sound) the lists are empty and choosing a system device explains why.
 */
export class SystemDevices {
  readonly #d: SystemDevicesDeps;
  #system: SystemAudio | undefined;
  #unavailable: MediaEngineError | undefined;
  #prefix = '';
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Which opened handle owns each direction's stream: closing an older handle leaves a newer one open. */
  readonly #owner = { input: 0, output: 0 };
  #handles = 0;

  constructor(deps: SystemDevicesDeps) {
    this.#d = deps;
  }

  /** Why there are no system devices, or undefined when there are (opens the system audio to find out). */
  unavailable(): MediaEngineError | undefined {
    this.#open();
    return this.#unavailable;
  }

  /** The devices of one direction, `default` first; empty without system audio. */
  list(direction: SystemAudioDirection): AudioDevice[] {
    const system = this.#open();
    if (!system) return [];
    const devices = system.list(direction);
    const current = devices.find((device) => device.isDefault);
    return [
      {
        id: SYSTEM_DEFAULT_DEVICE_ID,
        name: current ? `System default (${current.name})` : 'System default',
        isDefault: false,
      },
      ...devices.map((device) => ({
        id: `${this.#prefix}:${device.id}`,
        name: device.name,
        isDefault: device.isDefault,
      })),
    ];
  }

  /** Whether `id` names a system device of this kind of id (it may still be unplugged). */
  owns(id: string): boolean {
    return id === SYSTEM_DEFAULT_DEVICE_ID || /^[a-z0-9]+:/.test(id);
  }

  /** The device with this id, or undefined when no such device is plugged in. */
  describe(id: string, direction: SystemAudioDirection): AudioDevice | undefined {
    return this.list(direction).find((device) => device.id === id);
  }

  /** Opens the microphone `id` (`default` or one from {@link list}). @throws MediaEngineError */
  openInput(id: string): AudioInput {
    const system = this.#require();
    system.open('input', this.#backendId(id));
    const close = this.#closer('input');
    return {
      read: (out) => system.read(out.subarray(0, VOICE_FRAME_SAMPLES), MAX_INPUT_BACKLOG),
      close,
    };
  }

  /** Opens the speaker `id`. @throws MediaEngineError */
  openOutput(id: string): AudioOutput {
    const system = this.#require();
    system.open('output', this.#backendId(id));
    return {
      write: (frame) => {
        system.write(frame.subarray(0, VOICE_FRAME_SAMPLES));
      },
      flush: () => undefined,
      close: this.#closer('output'),
    };
  }

  /** The system audio if it was opened (never opens it). */
  opened(): SystemAudio | undefined {
    return this.#system;
  }

  /** Stops the watcher and closes the system audio. */
  dispose(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#system?.dispose();
    this.#system = undefined;
  }

  /** The close of the handle just opened for `direction`: it closes the stream only while it owns it. */
  #closer(direction: SystemAudioDirection): () => void {
    const handle = ++this.#handles;
    this.#owner[direction] = handle;
    return () => {
      if (this.#owner[direction] !== handle) return;
      this.#owner[direction] = 0;
      const system = this.#system;
      if (!system) return;
      const s = system.status(direction);
      this.#d.log.info(
        `audio ${direction} ${s.name || 'device'} closed: ${s.callbacks} periods, ${s.droppedSamples} samples dropped, ` +
          `${s.missingSamples} missing in ${s.underruns} underruns, ${s.lateCallbacks} late callbacks ` +
          `(longest gap ${s.longestGapMs} ms, thread priority ${s.priority}), ${s.reopened} fallbacks` +
          (s.serverBufferMs > 0 ? `, server buffer ${s.serverBufferMs} ms` : ''),
      );
      system.close(direction);
    };
  }

  #backendId(id: string): string | null {
    if (id === SYSTEM_DEFAULT_DEVICE_ID) return null;
    if (!id.startsWith(`${this.#prefix}:`)) {
      throw new MediaEngineError(
        'ERR_AUDIO_DEVICE_NOT_FOUND',
        `no audio device "${id}" (this machine's devices come from ${this.#system?.backend ?? 'no backend'})`,
      );
    }
    return id.slice(this.#prefix.length + 1);
  }

  #require(): SystemAudio {
    const system = this.#open();
    if (!system)
      throw this.#unavailable ?? new MediaEngineError('ERR_SYSTEM_AUDIO_UNAVAILABLE', 'no system audio');
    return system;
  }

  #open(): SystemAudio | undefined {
    if (this.#system || this.#unavailable) return this.#system;
    try {
      this.#system = this.#d.open();
    } catch (error) {
      this.#unavailable =
        error instanceof MediaEngineError
          ? error
          : new MediaEngineError('ERR_SYSTEM_AUDIO_UNAVAILABLE', (error as Error).message, { cause: error });
      this.#d.log.info(`system audio devices: none (${this.#unavailable.message})`);
      return undefined;
    }
    this.#prefix = this.#system.backend.toLowerCase().replace(/[^a-z0-9]/g, '');
    this.#d.log.info(`system audio devices: ${this.#system.backend}`);
    this.#timer = setInterval(() => {
      this.#poll();
    }, EVENT_POLL_MS);
    this.#timer.unref();
    return this.#system;
  }

  #poll(): void {
    const system = this.#system;
    if (!system) return;
    let changed = false;
    for (const event of system.takeEvents()) {
      if (event.kind === 'devices-changed') changed = true;
      else this.#lost(event);
    }
    if (changed) {
      this.#d.log.info('audio devices changed');
      this.#d.onDevicesChanged();
    }
  }

  #lost(event: Extract<SystemAudioEvent, { kind: 'device-lost' }>): void {
    const deviceId = event.lostId === '' ? SYSTEM_DEFAULT_DEVICE_ID : `${this.#prefix}:${event.lostId}`;
    const fallbackDeviceId = event.fallbackOpened ? SYSTEM_DEFAULT_DEVICE_ID : 'null';
    this.#d.log.warn(
      event.fallbackOpened
        ? `audio ${event.direction} device ${deviceId} ${event.reason}; now on the system default (${event.fallbackName})`
        : `audio ${event.direction} device ${deviceId} ${event.reason}; the default would not open (${event.fallbackName}), retrying`,
    );
    this.#d.onDeviceLost({ direction: event.direction, deviceId, reason: event.reason, fallbackDeviceId });
  }
}

import { ValidationError } from '@sdkpp/protocol';
import type { LogWriter } from '../../logging/index.js';
import type { VirtualAudio } from '../../media/index.js';
import {
  describeDevice,
  NULL_AUDIO_DEVICE,
  NULL_AUDIO_DEVICE_ID,
  nullInput,
  nullOutput,
  openInput,
  openOutput,
  WAV_INPUT_PREFIX,
  type AudioDevice,
  type AudioInput,
  type AudioOutput,
} from './audioDevices.js';
import { SYSTEM_DEFAULT_DEVICE_ID, type SystemDevices } from './SystemDevices.js';
import { VirtualInput } from './VirtualInput.js';

/** What a {@link DeviceChoice} needs. */
export interface DeviceChoiceDeps {
  /** The system's microphones and speakers. */
  readonly system: SystemDevices;
  readonly log: LogWriter;
  /**
   * The engine's virtual devices for a transport's thread to serve; undefined (or absent) where the engine
   * has none, and the virtual devices then run on the JavaScript thread.
   */
  readonly createVirtualAudio?: () => VirtualAudio | undefined;
}

/**
 * The input and output device the game chose, open: the null device, a virtual one (a WAV file, a simulated
 * room) or one of the system's. The audio pump reads and writes them; this keeps their ids, opens them and
 * says what they are.
 */
export class DeviceChoice {
  readonly #d: DeviceChoiceDeps;
  #inputId = NULL_AUDIO_DEVICE_ID;
  #outputId = NULL_AUDIO_DEVICE_ID;
  #input: AudioInput = nullInput;
  #output: AudioOutput = nullOutput;
  #inputIsSystem = false;
  #outputIsSystem = false;

  constructor(deps: DeviceChoiceDeps) {
    this.#d = deps;
  }

  /** The open input device. */
  get input(): AudioInput {
    return this.#input;
  }
  /** The open output device. */
  get output(): AudioOutput {
    return this.#output;
  }
  /** The input device's id. */
  get inputId(): string {
    return this.#inputId;
  }
  /** The output device's id. */
  get outputId(): string {
    return this.#outputId;
  }
  /** Whether the input device is the system's (which a call's transport thread can serve itself). */
  get inputIsSystem(): boolean {
    return this.#inputIsSystem;
  }
  /** Whether the output device is the system's. */
  get outputIsSystem(): boolean {
    return this.#outputIsSystem;
  }

  /** The input devices: the null device, the current virtual device, then the system's (`default` first). */
  inputDevices(): AudioDevice[] {
    return [...this.#virtualDevices(this.#inputId, 'input'), ...this.#d.system.list('input')];
  }
  /** The output devices: the null device, the current WAV file, then the system's (`default` first). */
  outputDevices(): AudioDevice[] {
    return [...this.#virtualDevices(this.#outputId, 'output'), ...this.#d.system.list('output')];
  }
  /** The current input device. */
  currentInputDevice(): AudioDevice {
    return this.#describe(this.#inputId, 'input');
  }
  /** The current output device. */
  currentOutputDevice(): AudioDevice {
    return this.#describe(this.#outputId, 'output');
  }

  /**
   * Opens `id` as the input device and closes the one before; a ValidationError for an unknown id or an
   * unreadable or unsupported file, a MediaEngineError for a system device that is gone or will not open
   * (the old device then stays).
   */
  setInput(id: string): void {
    const input = this.#open(
      id,
      'input',
      (virtual) => this.#openVirtualInput(virtual),
      (device) => this.#d.system.openInput(device),
    );
    this.#input.close();
    this.#input = input;
    this.#inputId = id;
    this.#inputIsSystem = !describeDevice(id, 'input');
    this.#d.log.info(`input device: ${id}`);
  }

  /** Opens `id` as the output device (a WAV file before it is finalised); errors as {@link DeviceChoice.setInput}. */
  setOutput(id: string): void {
    const output = this.#open(id, 'output', openOutput, (device) => this.#d.system.openOutput(device));
    this.#output.close();
    this.#output = output;
    this.#outputId = id;
    this.#outputIsSystem = !describeDevice(id, 'output');
    this.#d.log.info(`output device: ${id}`);
  }

  /** The watcher moved a lost system device's stream to the default: the current device says so now. */
  deviceLost(direction: 'input' | 'output'): void {
    if (direction === 'input') this.#inputId = SYSTEM_DEFAULT_DEVICE_ID;
    else this.#outputId = SYSTEM_DEFAULT_DEVICE_ID;
  }

  /**
   * The default null microphone, opened before an engine was asked for, moves onto the engine's virtual
   * devices (so a transport's thread can serve it); any other input stays as it is.
   */
  moveNullInputToEngine(): void {
    if (this.#inputId === NULL_AUDIO_DEVICE_ID && this.#input === nullInput) {
      this.#input = this.#openVirtualInput(NULL_AUDIO_DEVICE_ID);
    }
  }

  /** Closes both devices. */
  close(): void {
    this.#input.close();
    this.#output.close();
  }

  /** A virtual input: on the engine's {@link VirtualAudio} where it has one (null and files), else here. */
  #openVirtualInput(id: string): AudioInput {
    const file = id.startsWith(WAV_INPUT_PREFIX) ? id.slice(WAV_INPUT_PREFIX.length) : undefined;
    if (id !== NULL_AUDIO_DEVICE_ID && file === undefined) return openInput(id);
    const virtualAudio = this.#d.createVirtualAudio?.();
    if (!virtualAudio) return openInput(id);
    try {
      return new VirtualInput(virtualAudio, file);
    } catch (error) {
      virtualAudio.dispose();
      throw error;
    }
  }

  #open<T>(
    id: string,
    direction: 'input' | 'output',
    openVirtual: (id: string) => T,
    openSystem: (id: string) => T,
  ): T {
    const setter = direction === 'input' ? 'setInputDevice' : 'setOutputDevice';
    if (typeof id === 'string' && describeDevice(id, direction)) return openVirtual(id);
    if (typeof id === 'string' && this.#d.system.owns(id)) return openSystem(id);
    throw new ValidationError(
      direction === 'input'
        ? `${setter}: unknown device "${id}" (null, wav-in:<path>, room:<delay ms>:<gain dB>, default, or an id from getInputDevices)`
        : `${setter}: unknown device "${id}" (null, wav-out:<path>, default, or an id from getOutputDevices)`,
    );
  }

  #virtualDevices(id: string, direction: 'input' | 'output'): AudioDevice[] {
    const current = describeDevice(id, direction);
    return current && current.id !== NULL_AUDIO_DEVICE_ID
      ? [NULL_AUDIO_DEVICE, current]
      : [NULL_AUDIO_DEVICE];
  }

  #describe(id: string, direction: 'input' | 'output'): AudioDevice {
    return (
      describeDevice(id, direction) ??
      this.#d.system.describe(id, direction) ?? { id, name: `${id} (not present)`, isDefault: false }
    );
  }
}

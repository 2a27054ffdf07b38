import { ValidationError } from '@sdkpp/protocol';
import { VOICE_FRAME_SAMPLES, type VirtualAudio } from '../../media/index.js';
import { WavFileOutput, WavStream } from '@sdkpp/protocol';
import { parseRoomId, RoomInput } from './RoomInput.js';

/** The `wav-out:` device writes its file with the protocol layer's WAV writer. */
export { WavFileOutput };

/** One audio input or output device (C++ `AudioDevice`). */
export interface AudioDevice {
  /** The device id: `null`, `wav-in:<path>` or `wav-out:<path>`. */
  readonly id: string;
  /** A name to show. */
  readonly name: string;
  /** Whether it is the default device. */
  readonly isDefault: boolean;
}

/** The id of the silent input / discarding output device, also the default of both. */
export const NULL_AUDIO_DEVICE_ID = 'null';
/** The prefix of a WAV file used as the microphone: `wav-in:/path/to/file.wav`. */
export const WAV_INPUT_PREFIX = 'wav-in:';
/** The prefix of a WAV file that receives what the player hears: `wav-out:/path/to/file.wav`. */
export const WAV_OUTPUT_PREFIX = 'wav-out:';

/** The null device's description. */
export const NULL_AUDIO_DEVICE: AudioDevice = {
  id: NULL_AUDIO_DEVICE_ID,
  name: 'None (silence)',
  isDefault: true,
};

/** A device from its id, or undefined when the id is neither `null` nor a WAV device with a path. */
export function describeDevice(id: string, direction: 'input' | 'output'): AudioDevice | undefined {
  if (id === NULL_AUDIO_DEVICE_ID) return NULL_AUDIO_DEVICE;
  const room = direction === 'input' ? parseRoomId(id) : undefined;
  if (room)
    return { id, name: `Simulated room (echo ${room.delayMs} ms, ${room.gainDb} dB)`, isDefault: false };
  const prefix = direction === 'input' ? WAV_INPUT_PREFIX : WAV_OUTPUT_PREFIX;
  if (id.startsWith(prefix) && id.length > prefix.length) {
    return { id, name: `WAV file ${id.slice(prefix.length)}`, isDefault: false };
  }
  return undefined;
}

/** A source of 20 ms frames of 48 kHz interleaved stereo. */
export interface AudioInput {
  /** Fills `out` (one frame) and returns true, or returns false when there is nothing (silence). */
  read(out: Int16Array): boolean;
  /** A device that models a room hears every frame the speakers play. */
  hear?(frame: Int16Array): void;
  /** A device a transport's thread can read itself: its ring (see `VirtualInput`). */
  readonly virtualAudio?: VirtualAudio;
  /** Such a device's read-ahead, run while the transport's thread reads it. */
  refill?(): void;
  close(): void;
}

/** A sink of 20 ms frames. */
export interface AudioOutput {
  write(frame: Int16Array): void;
  /** Makes what was written so far a complete file (a WAV header with the current sizes). */
  flush(): void;
  close(): void;
}

/** The null input: never any audio. */
export const nullInput: AudioInput = { read: () => false, close: () => undefined };
/** The null output: discards everything. */
export const nullOutput: AudioOutput = {
  write: () => undefined,
  flush: () => undefined,
  close: () => undefined,
};

/**
 * A WAV file as the microphone: its samples once, frame by frame, then silence. Opening reads only the
 * header, and each 20 ms frame comes from a half-second block read as it is reached, so switching to a
 * long file does not stall the audio pump.
 */
export class WavFileInput implements AudioInput {
  readonly #stream: WavStream;

  /** Opens the file and checks its header (errors are ValidationErrors; see {@link readWavFile}). */
  constructor(path: string) {
    this.#stream = new WavStream(path);
  }

  /** {@inheritDoc AudioInput.read} */
  read(out: Int16Array): boolean {
    const frame = out.subarray(0, VOICE_FRAME_SAMPLES);
    const written = this.#stream.read(frame);
    if (written === 0) return false;
    out.fill(0, written * 2);
    return true;
  }

  /** {@inheritDoc AudioOutput.close} */
  close(): void {
    this.#stream.close();
  }
}

/** Opens the input device with this id (a ValidationError for an unknown id or a bad file). */
export function openInput(id: string): AudioInput {
  if (id === NULL_AUDIO_DEVICE_ID) return nullInput;
  if (id.startsWith(WAV_INPUT_PREFIX) && id.length > WAV_INPUT_PREFIX.length)
    return new WavFileInput(id.slice(WAV_INPUT_PREFIX.length));
  const room = parseRoomId(id);
  if (room) return new RoomInput(room);
  throw new ValidationError(`unknown audio input device "${id}"`);
}

/** Opens the output device with this id (a ValidationError for an unknown id or a bad file). */
export function openOutput(id: string): AudioOutput {
  if (id === NULL_AUDIO_DEVICE_ID) return nullOutput;
  if (id.startsWith(WAV_OUTPUT_PREFIX) && id.length > WAV_OUTPUT_PREFIX.length)
    return new WavFileOutput(id.slice(WAV_OUTPUT_PREFIX.length));
  throw new ValidationError(`unknown audio output device "${id}"`);
}

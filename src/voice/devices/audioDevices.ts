import { closeSync, openSync, writeSync } from 'node:fs';

import { ValidationError } from '../../errors/index.js';
import { VOICE_FRAME_SAMPLES } from '../../media/index.js';
import { WavStream } from './wavStream.js';

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

const SAMPLE_RATE = 48_000;

/** The null device's description. */
export const NULL_AUDIO_DEVICE: AudioDevice = {
  id: NULL_AUDIO_DEVICE_ID,
  name: 'None (silence)',
  isDefault: true,
};

/** A device from its id, or undefined when the id is neither `null` nor a WAV device with a path. */
export function describeDevice(id: string, direction: 'input' | 'output'): AudioDevice | undefined {
  if (id === NULL_AUDIO_DEVICE_ID) return NULL_AUDIO_DEVICE;
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
 * Reads a whole RIFF/WAVE file of 16-bit PCM (mono or stereo, any rate from 8 to 192 kHz) into 48 kHz
 * interleaved stereo; other rates are resampled linearly. Refuses other encodings with a ValidationError
 * that says why. The `wav-in:` microphone device streams its file instead.
 */
export function readWavFile(path: string): Int16Array {
  const stream = new WavStream(path);
  try {
    const out = new Int16Array(stream.frames * 2);
    stream.read(out);
    return out;
  } finally {
    stream.close();
  }
}

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

function wavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(2, 22); // stereo
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/**
 * A WAV file (48 kHz, stereo, 16-bit) receiving what the player hears, one 20 ms frame per pump tick; the
 * header's sizes are written when it closes (when the output device changes or the last call ends).
 */
export class WavFileOutput implements AudioOutput {
  readonly #fd: number;
  #dataBytes = 0;
  #closed = false;

  /** Creates (or truncates) the file; a ValidationError when it cannot be opened. */
  constructor(path: string) {
    try {
      this.#fd = openSync(path, 'w');
      writeSync(this.#fd, wavHeader(0));
    } catch (error) {
      throw new ValidationError(`cannot write the WAV file ${path}: ${(error as Error).message}`);
    }
  }

  /** {@inheritDoc AudioOutput.write} */
  write(frame: Int16Array): void {
    if (this.#closed) return;
    const bytes = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
    writeSync(this.#fd, bytes);
    this.#dataBytes += bytes.length;
  }

  /** {@inheritDoc AudioOutput.flush} */
  flush(): void {
    if (!this.#closed) writeSync(this.#fd, wavHeader(this.#dataBytes), 0, 44, 0);
  }

  /** Finalises the header and closes the file. */
  close(): void {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    closeSync(this.#fd);
  }
}

/** Opens the input device with this id (a ValidationError for an unknown id or a bad file). */
export function openInput(id: string): AudioInput {
  if (id === NULL_AUDIO_DEVICE_ID) return nullInput;
  if (id.startsWith(WAV_INPUT_PREFIX) && id.length > WAV_INPUT_PREFIX.length)
    return new WavFileInput(id.slice(WAV_INPUT_PREFIX.length));
  throw new ValidationError(`unknown audio input device "${id}"`);
}

/** Opens the output device with this id (a ValidationError for an unknown id or a bad file). */
export function openOutput(id: string): AudioOutput {
  if (id === NULL_AUDIO_DEVICE_ID) return nullOutput;
  if (id.startsWith(WAV_OUTPUT_PREFIX) && id.length > WAV_OUTPUT_PREFIX.length)
    return new WavFileOutput(id.slice(WAV_OUTPUT_PREFIX.length));
  throw new ValidationError(`unknown audio output device "${id}"`);
}

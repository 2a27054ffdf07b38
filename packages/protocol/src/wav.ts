import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

import { ValidationError } from './errors/index.js';

// WAV files are how audio gets in and out of a test without a sound card: the SDK's `wav-in:`/`wav-out:`
// devices and the emulator's test helpers read and write the same format (48 kHz interleaved stereo 16-bit),
// so the file I/O lives here, below both. Bad files are SdkErrors (ValidationError), as every public failure.

const SAMPLE_RATE = 48_000;
/** Input frames decoded per disk read: half a second at 48 kHz, a few dozen kilobytes. */
const BLOCK_FRAMES = 24_000;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

interface WavLayout {
  channels: number;
  rate: number;
  /** Where the samples start in the file. */
  dataOffset: number;
  /** Sample frames (one sample per channel) in the data chunk, as far as the file really holds them. */
  frames: number;
}

function readAt(fd: number, length: number, position: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

/** Finds and checks the `fmt ` and `data` chunks; the samples themselves are not read. */
function readLayout(fd: number, path: string): WavLayout {
  const fileSize = fstatSync(fd).size;
  const riff = readAt(fd, 12, 0);
  if (riff.length < 12 || riff.toString('ascii', 0, 4) !== 'RIFF' || riff.toString('ascii', 8, 12) !== 'WAVE')
    throw new ValidationError(`${path} is not a RIFF/WAVE file`);
  let format: { encoding: number; channels: number; rate: number; bits: number } | undefined;
  let data: { offset: number; size: number } | undefined;
  for (let offset = 12; offset + 8 <= fileSize && !(format && data);) {
    const header = readAt(fd, 8, offset);
    if (header.length < 8) break;
    const id = header.toString('ascii', 0, 4);
    const size = header.readUInt32LE(4);
    const bodyOffset = offset + 8;
    const available = Math.max(0, Math.min(size, fileSize - bodyOffset));
    if (id === 'fmt ' && available >= 16) {
      const body = readAt(fd, 16, bodyOffset);
      format = {
        encoding: body.readUInt16LE(0),
        channels: body.readUInt16LE(2),
        rate: body.readUInt32LE(4),
        bits: body.readUInt16LE(14),
      };
    } else if (id === 'data') {
      data = { offset: bodyOffset, size: available };
    }
    offset = bodyOffset + size + (size % 2);
  }
  if (!format || !data) throw new ValidationError(`${path} has no fmt or data chunk`);
  // 1 = PCM; 0xFFFE = extensible, which for 16-bit integer samples is PCM too.
  if ((format.encoding !== 1 && format.encoding !== 0xfffe) || format.bits !== 16)
    throw new ValidationError(
      `${path}: only 16-bit PCM WAV files are supported (this one is ${format.bits}-bit, format ${format.encoding})`,
    );
  if (format.channels < 1 || format.channels > 2)
    throw new ValidationError(
      `${path}: only mono or stereo WAV files are supported (${format.channels} channels)`,
    );
  if (format.rate < 8000 || format.rate > 192_000)
    throw new ValidationError(`${path}: sample rate ${format.rate} Hz is out of range (8000–192000)`);
  return {
    channels: format.channels,
    rate: format.rate,
    dataOffset: data.offset,
    frames: Math.floor(data.size / (2 * format.channels)),
  };
}

/**
 * A RIFF/WAVE file of 16-bit PCM (mono or stereo, 8–192 kHz) read as 48 kHz interleaved stereo a little at
 * a time, so that opening even a long file costs one header read, not the whole file on the caller's
 * thread. Mono is duplicated to both channels; other rates are resampled linearly. Bad files are refused
 * with a ValidationError that says why, when opened.
 */
export class WavStream {
  /** 48 kHz stereo frames the file yields in all. */
  readonly frames: number;
  readonly #layout: WavLayout;
  readonly #step: number;
  #fd: number | undefined;
  /** Decoded input frames [blockStart, blockStart + blockLength), left and right interleaved. */
  readonly #block = new Int16Array(2 * BLOCK_FRAMES);
  /** The block's samples as the file stores them (WAV is little-endian). */
  readonly #raw = new Int16Array(2 * BLOCK_FRAMES);
  #blockStart = 0;
  #blockLength = 0;
  #position = 0;

  constructor(path: string) {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      throw new ValidationError(`cannot read the WAV file ${path}: ${(error as Error).message}`);
    }
    try {
      this.#layout = readLayout(fd, path);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    this.#fd = fd;
    const { rate, frames } = this.#layout;
    this.#step = rate / SAMPLE_RATE;
    this.frames = rate === SAMPLE_RATE ? frames : Math.floor((frames * SAMPLE_RATE) / rate);
  }

  /**
   * Writes the next output frames into `out` (interleaved stereo, as many as fit) and returns how many it
   * wrote; 0 once the file is done or closed.
   */
  read(out: Int16Array): number {
    const count = Math.min(out.length >> 1, this.frames - this.#position);
    if (count <= 0 || this.#fd === undefined) return 0;
    if (this.#step === 1) return this.#copy(out, count);
    const last = this.#layout.frames - 1;
    for (let k = 0; k < count; k++) {
      const position = (this.#position + k) * this.#step;
      const index = Math.floor(position);
      const fraction = position - index;
      const next = Math.min(index + 1, last);
      this.#hold(index, next);
      const a = 2 * (index - this.#blockStart);
      const b = 2 * (next - this.#blockStart);
      const block = this.#block;
      out[2 * k] = Math.round((block[a] ?? 0) * (1 - fraction) + (block[b] ?? 0) * fraction);
      out[2 * k + 1] = Math.round((block[a + 1] ?? 0) * (1 - fraction) + (block[b + 1] ?? 0) * fraction);
    }
    this.#position += count;
    return count;
  }

  /**
   * {@link WavStream.read} for a 48 kHz file: no resampling, so whole runs of the block are copied (a
   * second of audio in a few copies instead of a multiply-and-round per sample).
   */
  #copy(out: Int16Array, count: number): number {
    const { channels } = this.#layout;
    if (channels === 2 && LITTLE_ENDIAN) {
      // The file's samples are the output's: one read straight into `out`, no block in between.
      const got = this.#readFrames(out, this.#position, count, 2);
      out.fill(0, 2 * got, 2 * count); // a file cut short since it was opened reads as silence
      this.#position += count;
      return count;
    }
    for (let k = 0; k < count;) {
      const index = this.#position + k;
      this.#hold(index, index);
      const from = index - this.#blockStart;
      const run = Math.min(count - k, this.#blockLength - from);
      out.set(this.#block.subarray(2 * from, 2 * (from + run)), 2 * k);
      k += run;
    }
    this.#position += count;
    return count;
  }

  /** Closes the file; reads after this yield nothing. */
  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** Makes the block hold input frames `first` to `last` (at most one apart), loading it from `first` if not. */
  #hold(first: number, last: number): void {
    if (first < this.#blockStart || last >= this.#blockStart + this.#blockLength) this.#load(first);
  }

  #load(start: number): void {
    const { channels, frames } = this.#layout;
    const length = Math.max(0, Math.min(BLOCK_FRAMES, frames - start));
    const got = this.#readFrames(this.#raw, start, length, channels);
    const raw = this.#raw;
    const block = this.#block;
    if (channels === 2) {
      block.set(raw.subarray(0, 2 * got));
    } else {
      for (let i = 0; i < got; i++) block[2 * i] = block[2 * i + 1] = raw[i] ?? 0;
    }
    // A file cut short since it was opened reads as silence, not as the previous block.
    block.fill(0, 2 * got, 2 * length);
    this.#blockStart = start;
    this.#blockLength = Math.max(1, length);
  }

  /**
   * Reads `frames` input frames of `channels` samples from frame `start` of the data chunk into `target`, as
   * the file stores them ({@link WavStream.#raw} for a block, or the caller's array when those are the
   * output's); returns how many whole frames arrived.
   */
  #readFrames(target: Int16Array, start: number, frames: number, channels: number): number {
    if (this.#fd === undefined) return 0;
    const frameBytes = 2 * channels;
    const bytes = Buffer.from(target.buffer, target.byteOffset, frames * frameBytes);
    const offset = this.#layout.dataOffset + start * frameBytes;
    try {
      let read = 0;
      // readSync may return less than asked before the end of the file: read on until it gives nothing.
      while (read < bytes.length) {
        const got = readSync(this.#fd, bytes, read, bytes.length - read, offset + read);
        if (got <= 0) break;
        read += got;
      }
      read -= read % frameBytes;
      if (!LITTLE_ENDIAN) bytes.subarray(0, read).swap16();
      return read / frameBytes;
    } catch {
      // A file that became unreadable mid-call plays out as silence rather than breaking the audio pump.
      return 0;
    }
  }
}

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
export class WavFileOutput {
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

  /** Appends interleaved stereo samples (nothing once closed). */
  write(frame: Int16Array): void {
    if (this.#closed) return;
    const bytes = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
    writeSync(this.#fd, bytes);
    this.#dataBytes += bytes.length;
  }

  /** Makes what was written so far a complete file (a WAV header with the current sizes). */
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

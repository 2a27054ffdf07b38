import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { monoToStereo, resampleMono } from './resample.js';

const run = promisify(execFile);

/** Options of {@link synthesizeSpeech}. */
export interface SpeechOptions {
  /** An espeak-ng voice, e.g. `'en-us'` (the default) or `'en+f3'`. */
  readonly voice?: string;
  /** Words per minute, 80–450 (espeak-ng's default is 175). */
  readonly wordsPerMinute?: number;
  /** The espeak-ng binary (default `espeak-ng` on the PATH). */
  readonly binary?: string;
}

/** Speech as the voice path carries it: 48 kHz interleaved stereo 16-bit PCM. */
export interface SpeechAudio {
  /** 48 kHz interleaved stereo samples. */
  readonly pcm: Int16Array;
  /** Duration in milliseconds. */
  readonly durationMs: number;
}

/** Raised when espeak-ng is missing or fails; `apt-get install espeak-ng` on Debian. */
export class SpeechSynthesisError extends Error {
  /** `'SpeechSynthesisError'`, to tell it apart from other errors when logged. */
  override readonly name = 'SpeechSynthesisError';
}

/** The samples and rate of a canonical 16-bit PCM mono WAV file (what espeak-ng writes). */
function readMonoWav(bytes: Buffer): { samples: Int16Array; rate: number } {
  if (
    bytes.length < 12 ||
    bytes.toString('ascii', 0, 4) !== 'RIFF' ||
    bytes.toString('ascii', 8, 12) !== 'WAVE'
  ) {
    throw new SpeechSynthesisError('espeak-ng did not write a WAV file');
  }
  let offset = 12;
  let rate = 0;
  let channels = 0;
  let bits = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    // espeak-ng streams to a file and may leave the data chunk's size at 0 or too large: clamp it.
    const declared = bytes.readUInt32LE(offset + 4);
    const size = Math.min(declared === 0 ? bytes.length : declared, bytes.length - offset - 8);
    const body = offset + 8;
    if (id === 'fmt ' && size >= 16) {
      channels = bytes.readUInt16LE(body + 2);
      rate = bytes.readUInt32LE(body + 4);
      bits = bytes.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (channels !== 1 || bits !== 16 || rate <= 0) {
        throw new SpeechSynthesisError(
          `unexpected espeak-ng format: ${channels} ch, ${bits} bit, ${rate} Hz`,
        );
      }
      const count = size >> 1;
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = bytes.readInt16LE(body + 2 * i);
      return { samples, rate };
    }
    offset = body + size + (size & 1);
  }
  throw new SpeechSynthesisError('the WAV file has no data chunk');
}

/**
 * Speaks `text` with espeak-ng and returns it at 48 kHz stereo, ready for a virtual microphone or the
 * transport. Deterministic for a given espeak-ng version, text and options.
 * @throws SpeechSynthesisError when espeak-ng is not installed or fails.
 */
export async function synthesizeSpeech(text: string, options: SpeechOptions = {}): Promise<SpeechAudio> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sdkpp-speech-'));
  try {
    const file = path.join(dir, 'speech.wav');
    const args = [
      '-v',
      options.voice ?? 'en-us',
      '-s',
      String(options.wordsPerMinute ?? 175),
      '-w',
      file,
      '--',
      text,
    ];
    try {
      await run(options.binary ?? 'espeak-ng', args, { timeout: 30_000 });
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'espeak-ng is not installed' : String(error);
      throw new SpeechSynthesisError(`speech synthesis failed: ${reason}`);
    }
    const { samples, rate } = readMonoWav(await readFile(file));
    const pcm = monoToStereo(resampleMono(samples, rate, 48000));
    return { pcm, durationMs: Math.round((pcm.length / 2 / 48000) * 1000) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

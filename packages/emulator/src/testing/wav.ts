import { readWavFile, WavFileOutput } from '@sdkpp/protocol';

/**
 * Writes 48 kHz interleaved stereo 16-bit PCM as a WAV file: what the `wav-in:` virtual microphone reads and
 * the `wav-out:` virtual speaker writes.
 * @throws ValidationError when the file cannot be written.
 */
export function writeWavFile(path: string, pcm: Int16Array): void {
  const file = new WavFileOutput(path);
  try {
    file.write(pcm);
  } finally {
    file.close();
  }
}

/**
 * Reads a 16-bit PCM WAV file (mono or stereo, 8–192 kHz) as 48 kHz interleaved stereo.
 * @throws ValidationError for another format or an unreadable file.
 */
export { readWavFile };

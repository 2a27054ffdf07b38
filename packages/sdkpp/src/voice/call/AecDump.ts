import path from 'node:path';

import type { LogWriter } from '../../logging/index.js';
import { WavFileOutput } from '../devices/audioDevices.js';

/**
 * AEC diagnostics: while on and a voice log dir is set, the microphone and the playout of the calls are
 * recorded to `aec-input-<time>.wav` and `aec-output-<time>.wav` there. The files open on the first frame
 * after it is turned on, and are complete WAV files after each flush.
 */
export class AecDump {
  readonly #voiceLogDir: () => string | undefined;
  readonly #log: LogWriter;
  #on = false;
  #files: { input: WavFileOutput; output: WavFileOutput } | undefined;

  /** `voiceLogDir`: where the files go; without one there is no dump. */
  constructor(voiceLogDir: () => string | undefined, log: LogWriter) {
    this.#voiceLogDir = voiceLogDir;
    this.#log = log;
  }

  /** Whether the dump is on (it may still have no files: no voice log dir, or they could not be made). */
  get on(): boolean {
    return this.#on;
  }

  /** Turns the dump on or off; off closes the files. */
  set(on: boolean): void {
    this.#on = on;
    if (!on) this.close();
  }

  /** Records a microphone frame (as it went to the calls), while on. */
  writeInput(frame: Int16Array): void {
    if (this.#on) this.#open()?.input.write(frame);
  }

  /** Records a playout frame (as the speakers got it), while on. */
  writeOutput(frame: Int16Array): void {
    if (this.#on) this.#open()?.output.write(frame);
  }

  /** Makes both files complete WAV files as they stand. */
  flush(): void {
    this.#files?.input.flush();
    this.#files?.output.flush();
  }

  /** Closes the files; the next frame recorded opens new ones. */
  close(): void {
    this.#files?.input.close();
    this.#files?.output.close();
    this.#files = undefined;
  }

  #open(): { input: WavFileOutput; output: WavFileOutput } | undefined {
    const dir = this.#voiceLogDir();
    if (!this.#files && dir) {
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      try {
        this.#files = {
          input: new WavFileOutput(path.join(dir, `aec-input-${stamp}.wav`)),
          output: new WavFileOutput(path.join(dir, `aec-output-${stamp}.wav`)),
        };
      } catch (error) {
        this.#log.warn(`AEC dump: ${(error as Error).message}`);
        this.#on = false;
      }
    }
    return this.#files;
  }
}

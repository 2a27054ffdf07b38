/** The threshold that turns detection off, as in the C++ SDK (its default). */
export const NO_AUDIO_INPUT_OFF_DBFS = -100;

/** How long the microphone must stay under the threshold before "no input" is reported. */
export const NO_AUDIO_INPUT_HOLD_MS = 1000;

/** The RMS level of 16-bit PCM in dBFS (a full-scale square wave is 0); `-Infinity` for digital silence. */
export function levelDbfs(frame: Int16Array): number {
  let sum = 0;
  for (const sample of frame) sum += sample * sample;
  const rms = Math.sqrt(sum / Math.max(1, frame.length));
  return rms === 0 ? -Infinity : 20 * Math.log10(rms / 32768);
}

/**
 * Tells whether the microphone delivers sound above a level (`SetNoAudioInputThreshold`), so a game can
 * show "we can't hear your microphone". Sound at or above the threshold is reported at once; "no input"
 * after {@link NO_AUDIO_INPUT_HOLD_MS} below it, so pauses between words do not flicker. Only changes are
 * reported, the first determination included.
 */
export class NoAudioInputDetector {
  #thresholdDbfs = NO_AUDIO_INPUT_OFF_DBFS;
  #detected: boolean | undefined;
  #quietSinceMs: number | undefined;
  readonly #onChange: (inputDetected: boolean) => void;

  constructor(onChange: (inputDetected: boolean) => void) {
    this.#onChange = onChange;
  }

  /** The threshold in dBFS; {@link NO_AUDIO_INPUT_OFF_DBFS} or below turns detection off. */
  get thresholdDbfs(): number {
    return this.#thresholdDbfs;
  }

  set thresholdDbfs(dbfs: number) {
    this.#thresholdDbfs = dbfs;
    // A new threshold judges afresh: the next observation reports whatever it finds.
    this.#detected = undefined;
    this.#quietSinceMs = undefined;
  }

  /** One 20 ms frame read from the microphone, or `null` when it delivered nothing this tick. */
  observe(frame: Int16Array | null, nowMs: number): void {
    if (this.#thresholdDbfs <= NO_AUDIO_INPUT_OFF_DBFS) return;
    if (frame !== null && levelDbfs(frame) >= this.#thresholdDbfs) {
      this.#quietSinceMs = undefined;
      this.#set(true);
      return;
    }
    this.#quietSinceMs ??= nowMs;
    if (nowMs - this.#quietSinceMs >= NO_AUDIO_INPUT_HOLD_MS) this.#set(false);
  }

  #set(detected: boolean): void {
    if (this.#detected === detected) return;
    this.#detected = detected;
    this.#onChange(detected);
  }
}

import {
  OPUS_FRAME_SAMPLES,
  OPUS_FRAME_SAMPLES_PER_CHANNEL,
  OPUS_SAMPLE_RATE,
} from '../../../packages/sdkpp/src/media/index.js';

/** Frame `index` of a continuous stereo sine tone (both channels alike). */
export function toneFrame(index: number, frequency = 440, amplitude = 8000): Int16Array {
  const frame = new Int16Array(OPUS_FRAME_SAMPLES);
  for (let i = 0; i < OPUS_FRAME_SAMPLES_PER_CHANNEL; i++) {
    const t = (index * OPUS_FRAME_SAMPLES_PER_CHANNEL + i) / OPUS_SAMPLE_RATE;
    const sample = Math.round(amplitude * Math.sin(2 * Math.PI * frequency * t));
    frame[2 * i] = sample;
    frame[2 * i + 1] = sample;
  }
  return frame;
}

/** A frame whose every sample is `value`. */
export function constantFrame(value: number): Int16Array {
  return new Int16Array(OPUS_FRAME_SAMPLES).fill(value);
}

/** Root mean square of the first `length` samples. */
export function rms(samples: Int16Array, length = samples.length): number {
  let sum = 0;
  for (let i = 0; i < length; i++) sum += (samples[i] ?? 0) ** 2;
  return Math.sqrt(sum / Math.max(1, length));
}

/** A test clock: `now()` for the engine, `advance()` for the test. */
export function fakeClock(start = 1000): {
  now: () => number;
  advance: (ms: number) => void;
  set: (ms: number) => void;
} {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
    set: (ms) => {
      time = ms;
    },
  };
}

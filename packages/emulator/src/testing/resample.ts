/**
 * Band-limited resampling of mono 16-bit PCM (windowed-sinc interpolation), for test audio such as
 * espeak-ng's 22 050 Hz speech turned into the 48 kHz the voice path carries. Not for the real-time path:
 * it favours clarity over speed (about 10 ms per second of audio).
 */

/** Taps on each side of the interpolation point: 16 keeps the passband flat to about 0.9 of Nyquist. */
const HALF_TAPS = 16;

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

/** Blackman window over [-HALF_TAPS, HALF_TAPS]. */
function window(x: number): number {
  const t = (x + HALF_TAPS) / (2 * HALF_TAPS);
  if (t <= 0 || t >= 1) return 0;
  return 0.42 - 0.5 * Math.cos(2 * Math.PI * t) + 0.08 * Math.cos(4 * Math.PI * t);
}

/**
 * Resamples mono PCM from `fromRate` to `toRate` Hz. When downsampling, the cutoff follows the lower
 * Nyquist frequency so nothing aliases.
 * @throws RangeError when a rate is not a positive integer.
 */
export function resampleMono(input: Int16Array, fromRate: number, toRate: number): Int16Array {
  for (const rate of [fromRate, toRate]) {
    if (!Number.isInteger(rate) || rate <= 0) throw new RangeError(`bad sample rate: ${rate}`);
  }
  if (fromRate === toRate) return input.slice();
  const step = fromRate / toRate;
  const cutoff = Math.min(1, toRate / fromRate);
  const output = new Int16Array(Math.floor(input.length / step));
  for (let n = 0; n < output.length; n++) {
    const t = n * step;
    const centre = Math.floor(t);
    let sum = 0;
    for (let k = centre - HALF_TAPS + 1; k <= centre + HALF_TAPS; k++) {
      if (k < 0 || k >= input.length) continue;
      const distance = t - k;
      sum += (input[k] as number) * cutoff * sinc(distance * cutoff) * window(distance);
    }
    output[n] = Math.max(-32768, Math.min(32767, Math.round(sum)));
  }
  return output;
}

/** Interleaves mono samples into stereo (both channels equal). */
export function monoToStereo(mono: Int16Array): Int16Array {
  const stereo = new Int16Array(mono.length * 2);
  for (let i = 0; i < mono.length; i++) {
    stereo[2 * i] = mono[i] as number;
    stereo[2 * i + 1] = mono[i] as number;
  }
  return stereo;
}

/** Averages interleaved stereo into mono. */
export function stereoToMono(stereo: Int16Array): Int16Array {
  const mono = new Int16Array(stereo.length >> 1);
  for (let i = 0; i < mono.length; i++) {
    mono[i] = ((stereo[2 * i] as number) + (stereo[2 * i + 1] as number)) >> 1;
  }
  return mono;
}

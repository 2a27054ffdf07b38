/**
 * Measures of voice processing, for tests and benchmarks: how much echo an echo canceller removed, and how
 * much a noise suppressor raised the speech-to-noise ratio. Mono floats (or any numbers) at one rate.
 */

function power(x: ArrayLike<number>, from: number, to: number): number {
  let sum = 0;
  for (let i = Math.max(0, from); i < Math.min(x.length, to); i++) sum += (x[i] ?? 0) ** 2;
  return sum / Math.max(1, Math.min(x.length, to) - Math.max(0, from));
}

/**
 * Echo return loss enhancement in dB over `from..to`, a stretch where only the echo is at the microphone:
 * the microphone's power over the processed output's. 20 dB means the echo left a hundredth of its power.
 */
export function echoReturnLossEnhancement(
  microphone: ArrayLike<number>,
  processed: ArrayLike<number>,
  from: number,
  to: number,
): number {
  return 10 * Math.log10(power(microphone, from, to) / Math.max(1e-20, power(processed, from, to)));
}

/**
 * The speech-to-noise ratio of a signal in dB, estimated from the signal alone: speech is in `from..to`,
 * noise alone before and after it (a second each side at most, a tenth of a second away from the speech).
 * The speech stretch's power less the noise power, over the noise power.
 */
export function estimatedSnr(x: ArrayLike<number>, from: number, to: number, rate = 48_000): number {
  const margin = Math.round(rate / 10);
  const noise = (power(x, from - rate, from - margin) + power(x, to + margin, to + rate)) / 2 || 1e-20;
  return 10 * Math.log10(Math.max(1e-20, power(x, from, to) - noise) / noise);
}

/**
 * How many dB a noise suppressor raised the SNR ({@link estimatedSnr}) of speech in `from..to`, with noise
 * alone around it.
 */
export function snrGain(
  noisy: ArrayLike<number>,
  processed: ArrayLike<number>,
  from: number,
  to: number,
  rate = 48_000,
): number {
  return estimatedSnr(processed, from, to, rate) - estimatedSnr(noisy, from, to, rate);
}

// The TS twin of native/core/audio/mixer.cc: the same soft limiter and the same summing order. The native
// side sums in float32 and rounds half to even; this sums in float64 and rounds half up, so the two may
// differ by one least significant bit, never more.

/** Samples up to ¾ of full scale pass the limiter unchanged. */
export const LIMITER_KNEE = 24576;
const ROOM = 32767 - LIMITER_KNEE;

/** One sample through the soft limiter, rounded to an integer (not yet clamped to int16: it cannot exceed it). */
export function limit(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude <= LIMITER_KNEE) return Math.round(value);
  const over = magnitude - LIMITER_KNEE;
  const shaped = Math.round(LIMITER_KNEE + (ROOM * over) / (over + ROOM));
  return value < 0 ? -shaped : shaped;
}

/**
 * Mixes `count` frames (one after another in `frames`, each `out.length` samples) with `gains` into `out`.
 * Arrays shorter than `count` says mix nothing, as in C++. Returns the samples the limiter touched.
 */
export function mixFrames(
  frames: Int16Array,
  gains: Float64Array,
  count: number,
  out: Int16Array,
  sum: Float64Array,
): number {
  const length = out.length;
  const speakers =
    count > gains.length || (length !== 0 && count > Math.floor(frames.length / length)) ? 0 : count;
  const acc = sum.length >= length ? sum : new Float64Array(length);
  acc.fill(0, 0, length);
  for (let speaker = 0; speaker < speakers; speaker++) {
    const gain = gains[speaker] ?? 1;
    const base = speaker * length;
    for (let i = 0; i < length; i++) acc[i] = (acc[i] ?? 0) + (frames[base + i] ?? 0) * gain;
  }
  let limited = 0;
  for (let i = 0; i < length; i++) {
    const value = acc[i] ?? 0;
    if (value > LIMITER_KNEE || value < -LIMITER_KNEE) limited++;
    out[i] = limit(value);
  }
  return limited;
}

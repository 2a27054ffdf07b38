import { OPUS_FRAME_SAMPLES } from '../../packages/sdkpp/src/media/index.js';

/**
 * `count` distinct 20 ms stereo frames: a tone that glides, with a little noise, as speech-like as a bench
 * needs (loud enough that voice activity detection says "voice").
 */
export function makeFrames(count: number): Int16Array[] {
  let seed = 7;
  const noise = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 600;
  return Array.from({ length: count }, (_, f) => {
    const frame = new Int16Array(OPUS_FRAME_SAMPLES);
    for (let i = 0; i < OPUS_FRAME_SAMPLES / 2; i++) {
      const t = (f * 960 + i) / 48000;
      const sample = Math.round(6000 * Math.sin(2 * Math.PI * (200 + f) * t) + noise());
      frame[2 * i] = sample;
      frame[2 * i + 1] = sample;
    }
    return frame;
  });
}

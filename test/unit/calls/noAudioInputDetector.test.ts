import { describe, expect, it } from 'vitest';

import {
  NO_AUDIO_INPUT_HOLD_MS,
  NoAudioInputDetector,
  levelDbfs,
} from '../../../packages/sdkpp/src/voice/devices/NoAudioInputDetector.js';

function tone(amplitude: number): Int16Array {
  const frame = new Int16Array(1920);
  for (let i = 0; i < 960; i++) {
    const sample = Math.round(amplitude * Math.sin((2 * Math.PI * 440 * i) / 48_000));
    frame[2 * i] = sample;
    frame[2 * i + 1] = sample;
  }
  return frame;
}

describe('NoAudioInputDetector', () => {
  it('measures RMS in dBFS', () => {
    expect(levelDbfs(new Int16Array(1920))).toBe(-Infinity);
    expect(levelDbfs(new Int16Array(1920).fill(-32768))).toBeCloseTo(0, 6);
    // A sine's RMS is its amplitude over √2: 8000 → −15.2 dBFS.
    expect(levelDbfs(tone(8000))).toBeCloseTo(20 * Math.log10(8000 / Math.SQRT2 / 32768), 1);
  });

  it('is off at −100 dBFS (the default) and reports nothing', () => {
    const seen: boolean[] = [];
    const detector = new NoAudioInputDetector((detected) => seen.push(detected));
    expect(detector.thresholdDbfs).toBe(-100);
    for (let t = 0; t < 3000; t += 20) detector.observe(t < 1000 ? tone(8000) : null, t);
    expect(seen).toEqual([]);
  });

  it('reports sound at once, silence after the hold, and only changes', () => {
    const seen: Array<[boolean, number]> = [];
    let now = 0;
    const detector = new NoAudioInputDetector((detected) => seen.push([detected, now]));
    detector.thresholdDbfs = -40;
    const feed = (frame: Int16Array | null, ms: number): void => {
      for (const end = now + ms; now < end; now += 20) detector.observe(frame, now);
    };
    feed(tone(8000), 200); // −15 dBFS: detected on the first frame
    feed(tone(50), 600); // −59 dBFS, quieter than the threshold, but shorter than the hold: no change
    feed(tone(8000), 100);
    feed(null, NO_AUDIO_INPUT_HOLD_MS + 100); // the device delivers nothing: "no input" after the hold
    feed(new Int16Array(1920), 500); // digital silence: still no input, not reported twice
    feed(tone(8000), 40);
    expect(seen).toEqual([
      [true, 0],
      [false, 900 + NO_AUDIO_INPUT_HOLD_MS],
      [true, 900 + NO_AUDIO_INPUT_HOLD_MS + 100 + 500],
    ]);
  });

  it('a new threshold judges afresh', () => {
    const seen: boolean[] = [];
    const detector = new NoAudioInputDetector((detected) => seen.push(detected));
    detector.thresholdDbfs = -40;
    detector.observe(tone(8000), 0);
    detector.thresholdDbfs = -10; // the same −15 dBFS tone is now too quiet
    for (let t = 20; t <= 20 + NO_AUDIO_INPUT_HOLD_MS; t += 20) detector.observe(tone(8000), t);
    expect(seen).toEqual([true, false]);
  });
});

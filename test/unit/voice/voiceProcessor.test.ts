/**
 * The capture path's voice processing on real speech (espeak-ng): echo cancellation against a leak of the
 * playout built here (−6 dB, 50 ms, two reflections), noise suppression at 5 dB SNR, gain control on quiet
 * and loud speech. Offline: frames go through the processor as the audio pump hands them over.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { synthesizeSpeech } from '../../../packages/emulator/src/testing/speech.js';
import { VoiceProcessor } from '../../../packages/sdkpp/src/voice/processing/VoiceProcessor.js';
import { echoReturnLossEnhancement, snrGain } from '../../../packages/emulator/src/testing/voiceMetrics.js';
import { recordingLog } from '../../fakes/recordingLog.js';
import { echoOf, inSteadyNoise, mono, runFrames } from './voiceSignals.js';

const FRAME = 1920;
const RATE = 48_000;
const { log } = recordingLog();

/** Pearson correlation of two equal stretches, at the best lag within ±`maxLag` samples. */
function bestCorrelation(a: Float32Array, b: Float32Array, from: number, to: number, maxLag: number): number {
  let best = 0;
  for (let lag = -maxLag; lag <= maxLag; lag += 8) {
    let ab = 0;
    let aa = 0;
    let bb = 0;
    for (let i = from; i < to; i++) {
      const x = a[i] ?? 0;
      const y = b[i + lag] ?? 0;
      ab += x * y;
      aa += x * x;
      bb += y * y;
    }
    best = Math.max(best, ab / Math.sqrt(aa * bb || 1));
  }
  return best;
}

let far: Float32Array;
let near: Float32Array;

beforeAll(async () => {
  far = mono((await synthesizeSpeech('The castle gate is open, bring the torch and the map.')).pcm);
  near = mono(
    (await synthesizeSpeech('I hear you, I am on my way to the bridge now.', { voice: 'en+m3' })).pcm,
  );
}, 60_000);

describe('VoiceProcessor', () => {
  it('passes frames untouched, sample for sample, with everything off', () => {
    const processor = new VoiceProcessor(log);
    const frame = new Int16Array(FRAME).map((_, i) => (i * 37) % 20_000);
    const copy = frame.slice();
    processor.process(frame);
    expect(processor.active).toBe(false);
    expect([...frame]).toEqual([...copy]);
  });

  it('removes the speakers’ echo from the microphone by at least 20 dB and keeps the near talker', async () => {
    const processor = new VoiceProcessor(log);
    await processor.set({ echoCancellation: true });
    // Far-end speech plays out and leaks back; then, after a second, the near talker speaks alone.
    const gap = RATE;
    const total = far.length + gap + near.length + gap;
    const render = new Float32Array(total);
    render.set(far, 0);
    const nearOnly = new Float32Array(total);
    nearOnly.set(near, far.length + gap);
    const echo = echoOf(render);
    const mic = echo.map((e, i) => e + (nearOnly[i] ?? 0));
    const { out } = runFrames(processor, mic, render);
    // After the canceller has converged: the second half of the far-end speech.
    const erle = echoReturnLossEnhancement(mic, out, Math.floor(far.length / 2), far.length);
    expect(erle).toBeGreaterThanOrEqual(20);
    const from = far.length + gap;
    expect(bestCorrelation(nearOnly, out, from, from + near.length, 2400)).toBeGreaterThanOrEqual(0.85);
    processor.close();
  });

  it('raises the SNR of speech in steady noise at 5 dB by at least 10 dB', async () => {
    const processor = new VoiceProcessor(log);
    await processor.set({ noiseSuppression: true });
    const { clean, noisy, pad } = inSteadyNoise(near, 5);
    const { out } = runFrames(processor, noisy);
    expect(snrGain(noisy, out, pad, pad + near.length)).toBeGreaterThanOrEqual(10);
    // Still the same words.
    expect(bestCorrelation(clean, out, pad, pad + near.length, 2400)).toBeGreaterThanOrEqual(0.8);
    processor.close();
  });

  it('lifts quiet speech and tames loud speech towards −20 dBFS, without clipping', async () => {
    const levelOf = (x: Float32Array, from: number): number => {
      let sum = 0;
      let n = 0;
      for (let i = from; i < x.length; i++) {
        if (Math.abs(x[i] ?? 0) > 1e-4) {
          sum += (x[i] ?? 0) ** 2;
          n++;
        }
      }
      return 20 * Math.log10(Math.sqrt(sum / Math.max(1, n)));
    };
    for (const scale of [0.05, 3]) {
      const processor = new VoiceProcessor(log);
      await processor.set({ automaticGainControl: true });
      const input = new Float32Array(near.length * 3);
      for (let r = 0; r < 3; r++)
        input.set(
          near.map((s) => Math.max(-1, Math.min(1, s * scale))),
          r * near.length,
        );
      const { out } = runFrames(processor, input);
      const settled = levelOf(out, 2 * near.length);
      expect(Math.abs(settled - levelOf(input, 2 * near.length))).toBeGreaterThan(3);
      expect(settled).toBeGreaterThan(-28);
      expect(settled).toBeLessThan(-12);
      expect(out.reduce((peak, v) => Math.max(peak, Math.abs(v)), 0)).toBeLessThanOrEqual(0.98);
    }
  });

  it('turns each part on and off at run time; off again is sample for sample', async () => {
    const processor = new VoiceProcessor(log);
    await processor.set({ echoCancellation: true, noiseSuppression: true, automaticGainControl: true });
    expect(processor.active).toBe(true);
    expect(processor.settings).toEqual({
      echoCancellation: true,
      noiseSuppression: true,
      automaticGainControl: true,
    });
    await processor.set({ echoCancellation: false, noiseSuppression: false, automaticGainControl: false });
    expect(processor.active).toBe(false);
    const frame = new Int16Array(FRAME).map((_, i) => (i * 53) % 9000);
    const copy = frame.slice();
    processor.process(frame);
    expect([...frame]).toEqual([...copy]);
  });
});

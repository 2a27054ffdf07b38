import { describe, expect, it } from 'vitest';

import { matchAudio } from '../../../packages/emulator/src/testing/audioMatch.js';
import { monoToStereo, resampleMono, stereoToMono } from '../../../packages/emulator/src/testing/resample.js';
import { SpeechSynthesisError, synthesizeSpeech } from '../../../packages/emulator/src/testing/speech.js';

function sine(frequency: number, rate: number, seconds: number, amplitude = 10000): Int16Array {
  return Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * frequency * i) / rate)),
  );
}

/** Zero crossings per second: the frequency of a clean tone. */
function zeroCrossingRate(samples: Int16Array, rate: number): number {
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) {
    if ((samples[i - 1] as number) < 0 !== (samples[i] as number) < 0) crossings++;
  }
  return crossings / 2 / (samples.length / rate);
}

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const value of samples) sum += value * value;
  return Math.sqrt(sum / samples.length);
}

/** White noise from a xorshift32 generator (independent streams for different seeds). */
function noise(length: number, seed: number): Int16Array {
  let state = seed >>> 0 || 1;
  return Int16Array.from({ length }, () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return (state >>> 16) - 32768;
  });
}

describe('resampleMono', () => {
  it('keeps a tone’s frequency and level from 22 050 Hz to 48 kHz and back', () => {
    const tone = sine(440, 22050, 1);
    const up = resampleMono(tone, 22050, 48000);
    expect(up.length).toBe(48000);
    expect(zeroCrossingRate(up, 48000)).toBeCloseTo(440, -1);
    expect(rms(up) / rms(tone)).toBeCloseTo(1, 1);
    const down = resampleMono(up, 48000, 22050);
    expect(zeroCrossingRate(down, 22050)).toBeCloseTo(440, -1);
  });

  it('removes what the lower rate cannot carry when downsampling', () => {
    const high = sine(15000, 48000, 0.5); // above 8 kHz's Nyquist of 4 kHz
    expect(rms(resampleMono(high, 48000, 8000))).toBeLessThan(rms(high) * 0.05);
  });

  it('refuses rates that are not positive integers', () => {
    expect(() => resampleMono(new Int16Array(4), 0, 48000)).toThrow(RangeError);
    expect(() => resampleMono(new Int16Array(4), 48000, 44100.5)).toThrow(RangeError);
  });

  it('converts between mono and interleaved stereo', () => {
    const mono = Int16Array.of(1, -2, 300);
    expect([...monoToStereo(mono)]).toEqual([1, 1, -2, -2, 300, 300]);
    expect([...stereoToMono(Int16Array.of(2, 4, -6, -2))]).toEqual([3, -4]);
  });
});

describe('matchAudio', () => {
  const reference = monoToStereo(noise(48000, 7)); // 1 s

  it('finds the delay of an exact copy and a correlation of 1', () => {
    const received = new Int16Array(reference.length + 2 * 4800 * 2);
    received.set(reference, 2 * 4800); // 100 ms late
    const match = matchAudio(reference, received);
    expect(match.delayMs).toBeCloseTo(100, 1);
    expect(match.correlation).toBeGreaterThan(0.999);
    expect(match.gain).toBeCloseTo(1, 2);
  });

  it('reports no likeness for unrelated audio', () => {
    const match = matchAudio(reference, monoToStereo(noise(96000, 99)));
    expect(Math.abs(match.correlation)).toBeLessThan(0.1);
  });

  it('aligns each segment on its own when playout slips between talk spurts', () => {
    // A receiver that adds 20 ms of delay half-way (a jitter buffer growing between spurts).
    const half = reference.length / 2;
    const received = new Int16Array(reference.length + 2 * 9600 * 2);
    received.set(reference.subarray(0, half), 2 * 4800); // first half 100 ms late
    received.set(reference.subarray(half), half + 2 * 5760); // second half 120 ms late
    const match = matchAudio(reference, received, { segmentMs: 100 });
    expect(match.correlation).toBeLessThan(0.6);
    expect(match.segmentCorrelation).toBeGreaterThan(0.99);
    expect(match.segmentDelayRangeMs[0]).toBeCloseTo(100, 1);
    expect(match.segmentDelayRangeMs[1]).toBeCloseTo(120, 1);
  });

  it('reports the level of a quieter copy', () => {
    const quiet = reference.map((value) => value >> 2);
    expect(matchAudio(reference, quiet).gain).toBeCloseTo(0.25, 2);
  });
});

describe('synthesizeSpeech (the espeak-ng npm package, WebAssembly)', () => {
  it('speaks a sentence as 48 kHz stereo with voice in it', async () => {
    const speech = await synthesizeSpeech('The castle is over the hill.');
    expect(speech.durationMs).toBeGreaterThan(800);
    expect(speech.durationMs).toBeLessThan(5000);
    expect(speech.pcm.length % 2).toBe(0);
    expect(speech.pcm.length / 2 / 48).toBeCloseTo(speech.durationMs, -1);
    expect(rms(speech.pcm)).toBeGreaterThan(500);
    // Deterministic: the same text gives the same samples.
    const again = await synthesizeSpeech('The castle is over the hill.');
    expect(again.pcm).toEqual(speech.pcm);
  });

  it('speaks with another voice and pace when asked', async () => {
    const text = 'Loud and clear, Alice.';
    const plain = await synthesizeSpeech(text);
    const other = await synthesizeSpeech(text, { voice: 'en-us+m3', wordsPerMinute: 120 });
    expect(other.durationMs).toBeGreaterThan(plain.durationMs * 1.2);
    expect(rms(other.pcm)).toBeGreaterThan(500);
  });

  it('says clearly what is wrong: an unknown voice, a missing package, too long a text', async () => {
    await expect(synthesizeSpeech('x', { voice: 'zz' })).rejects.toThrow(
      /speech synthesis failed: .*voice does not exist/,
    );
    const missing = synthesizeSpeech('x', { synthesizerModule: 'no-such-speech-package' });
    await expect(missing).rejects.toThrow(SpeechSynthesisError);
    await expect(missing).rejects.toThrow(/not installed: npm install --save-dev no-such-speech-package/);
    await expect(synthesizeSpeech('a'.repeat(2001))).rejects.toThrow(/at most 2000/);
    expect(process.exitCode).toBeUndefined(); // the synthesiser's exit status stays its own
  });
});

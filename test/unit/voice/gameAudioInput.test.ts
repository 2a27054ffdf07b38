import { describe, expect, it } from 'vitest';

import { ValidationError } from '../../../packages/protocol/src/errors/index.js';
import { GameAudioInput } from '../../../packages/sdkpp/src/voice/devices/GameAudioInput.js';
import { recordingLog } from '../../fakes/recordingLog.js';
import { toneStrength } from '../../integration/callHelpers.js';

const FRAME = 1920;

function makeInput(
  log: ConstructorParameters<typeof GameAudioInput>[0],
  accepting = (): boolean => true,
): GameAudioInput {
  return new GameAudioInput(log, accepting);
}

/** Every queued frame, concatenated. */
function drain(input: GameAudioInput): Int16Array {
  const frames: Int16Array[] = [];
  for (;;) {
    const frame = new Int16Array(FRAME);
    if (!input.mixInto(frame)) break;
    frames.push(frame);
  }
  const out = new Int16Array(frames.length * FRAME);
  frames.forEach((frame, i) => out.set(frame, i * FRAME));
  return out;
}

function sine(
  hz: number,
  rate: number,
  seconds: number,
  channels: number,
  float: boolean,
): Int16Array | Float32Array {
  const frames = Math.round(rate * seconds);
  const out = float ? new Float32Array(frames * channels) : new Int16Array(frames * channels);
  for (let i = 0; i < frames; i++) {
    const v = Math.sin((2 * Math.PI * hz * i) / rate);
    for (let c = 0; c < channels; c++) out[i * channels + c] = float ? v * 0.25 : Math.round(v * 8000);
  }
  return out;
}

describe('GameAudioInput (the game pushes its own PCM)', () => {
  it('passes 48 kHz stereo through unchanged, in 20 ms frames', () => {
    const { log } = recordingLog();
    const input = makeInput(log);
    const pcm = sine(440, 48_000, 0.1, 2, false) as Int16Array;
    input.push(pcm, 48_000, 2);
    const out = drain(input);
    expect(out.length).toBe(5 * FRAME);
    expect([...out]).toEqual([...pcm]);
  });

  it('resamples 44.1 kHz mono Float32 to 48 kHz stereo, keeping the pitch and the length', () => {
    const { log } = recordingLog();
    const input = makeInput(log);
    input.push(sine(1000, 44_100, 0.5, 1, true), 44_100, 1);
    const out = drain(input);
    // 0.5 s is 24 000 output samples per side, 25 frames; the last partial frame waits for more input.
    expect(out.length / FRAME).toBe(24);
    // Float 0.25 of full scale is about 8192; the tone is 1 kHz, not shifted, and both sides carry it.
    expect(toneStrength(out, 1000)).toBeGreaterThan(7500);
    expect(toneStrength(out, 1088)).toBeLessThan(400);
    for (let i = 0; i < out.length; i += 2) expect(out[i + 1]).toBe(out[i]);
  });

  it('gives the same audio whether the game pushes one block or odd-sized chunks (no seams)', () => {
    const { log } = recordingLog();
    const pcm = sine(523, 16_000, 0.6, 1, false) as Int16Array;
    const whole = makeInput(log);
    whole.push(pcm, 16_000, 1);
    const chunked = makeInput(log);
    for (let start = 0, size = 37; start < pcm.length; start += size, size = (size * 7) % 301 || 13)
      chunked.push(pcm.subarray(start, start + size), 16_000, 1);
    const a = drain(whole);
    const b = drain(chunked);
    expect(b.length).toBe(a.length);
    let maxDiff = 0;
    for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
    expect(maxDiff).toBeLessThanOrEqual(1);
  });

  it('keeps at most one second, dropping the oldest with one warning per overflow', () => {
    const { log, warnings } = recordingLog();
    const input = makeInput(log);
    const second = sine(440, 48_000, 1, 2, false);
    input.push(second, 48_000, 2);
    expect(input.queuedFrames).toBe(50);
    expect(warnings).toEqual([]);
    input.push(second, 48_000, 2);
    input.push(second, 48_000, 2);
    expect(input.queuedFrames).toBe(50);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/oldest is dropped/);
  });

  it('adds to what the device captured, clipping at full scale', () => {
    const { log } = recordingLog();
    const input = makeInput(log);
    input.push(new Int16Array(FRAME).fill(30_000), 48_000, 2);
    const frame = new Int16Array(FRAME).fill(10_000);
    expect(input.mixInto(frame)).toBe(true);
    expect(frame[0]).toBe(32_767);
    expect(input.mixInto(frame)).toBe(false);
  });

  it('drops audio pushed while no call carries audio', () => {
    const { log } = recordingLog();
    let accepting = false;
    const input = makeInput(log, () => accepting);
    input.push(sine(440, 48_000, 0.2, 2, false), 48_000, 2);
    expect(input.queuedFrames).toBe(0);
    accepting = true;
    input.push(sine(440, 48_000, 0.2, 2, false), 48_000, 2);
    expect(input.queuedFrames).toBe(10);
  });

  it('refuses what is not PCM it can take, with a ValidationError', () => {
    const { log } = recordingLog();
    const input = makeInput(log);
    const pcm = new Int16Array(960);
    expect(() => input.push([1, 2] as unknown as Int16Array, 48_000, 2)).toThrow(ValidationError);
    expect(() => input.push(new Uint8Array(4) as unknown as Int16Array, 48_000, 2)).toThrow(ValidationError);
    expect(() => input.push(pcm, 7999, 1)).toThrow(ValidationError);
    expect(() => input.push(pcm, 44_100.5, 1)).toThrow(ValidationError);
    expect(() => input.push(pcm, 48_000, 0)).toThrow(ValidationError);
    expect(() => input.push(pcm, 48_000, 9)).toThrow(ValidationError);
    expect(() => input.push(new Int16Array(961), 48_000, 2)).toThrow(ValidationError);
    expect(input.queuedFrames).toBe(0);
  });
});

describe('GameAudioInput latency bound of a live source', () => {
  /** Pushes one 20 ms frame per read after a burst of `burst` frames; returns the queue length after each read. */
  function run(live: boolean, burst: number, reads: number): number[] {
    const input = new GameAudioInput(recordingLog().log, () => true, live);
    const frame = new Int16Array(FRAME).fill(1000);
    for (let i = 0; i < burst; i++) input.push(frame, 48_000, 2);
    const lengths: number[] = [];
    for (let i = 0; i < reads; i++) {
      input.push(frame, 48_000, 2);
      input.mixInto(new Int16Array(FRAME));
      lengths.push(input.queuedFrames);
    }
    return lengths;
  }

  it('drops what stays queued beyond two frames for a whole second, and keeps a burst that drains', () => {
    const live = run(true, 10, 120);
    expect(live[0]).toBe(10); // the backlog stands while the window runs
    expect(live.at(-1)).toBe(2); // then all but two frames of it go, once
    const kept = run(false, 10, 120);
    expect(kept.at(-1)).toBe(10); // a clip pushed at once plays whole
  });
});

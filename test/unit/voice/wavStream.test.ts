import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { WavFileInput } from '../../../packages/sdkpp/src/voice/devices/audioDevices.js';
import { readWavFile, WavStream } from '../../../packages/protocol/src/wav.js';
import { ValidationError } from '../../../packages/protocol/src/errors/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-wavstream-'));

/** Deterministic noise-like samples, so a misplaced sample cannot go unnoticed. */
function samples(count: number, seed: number): Int16Array {
  const out = new Int16Array(count);
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    out[i] = (x >>> 16) - 32_768;
  }
  return out;
}

/** A WAV file with an extra chunk before `data`, and optionally a `data` size that claims more than is there. */
function writeWav(file: string, rate: number, channels: number, pcm: Int16Array, overclaim = 0): void {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8);
  fmt.writeUInt16LE(channels, 10);
  fmt.writeUInt32LE(rate, 12);
  fmt.writeUInt32LE(rate * channels * 2, 16);
  fmt.writeUInt16LE(channels * 2, 20);
  fmt.writeUInt16LE(16, 22);
  const list = Buffer.concat([
    Buffer.from('LIST', 'ascii'),
    Buffer.from([5, 0, 0, 0]),
    Buffer.from('INFOx\0'),
  ]);
  const dataHeader = Buffer.alloc(8);
  dataHeader.write('data', 0, 'ascii');
  dataHeader.writeUInt32LE(data.length + overclaim, 4);
  const body = Buffer.concat([Buffer.from('WAVE', 'ascii'), fmt, list, dataHeader, data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  writeFileSync(file, Buffer.concat([riff, body]));
}

/** The whole-file linear resampling the stream must reproduce exactly. */
function expected(pcm: Int16Array, rate: number, channels: number): Int16Array {
  const frames = Math.floor(pcm.length / channels);
  const channel = (c: number, i: number): number => pcm[i * channels + (channels === 2 ? c : 0)] ?? 0;
  const outFrames = rate === 48_000 ? frames : Math.floor((frames * 48_000) / rate);
  const out = new Int16Array(outFrames * 2);
  for (let i = 0; i < outFrames; i++) {
    const position = i * (rate / 48_000);
    const index = Math.floor(position);
    const fraction = position - index;
    const next = Math.min(index + 1, frames - 1);
    for (let c = 0; c < 2; c++)
      out[2 * i + c] = Math.round(channel(c, index) * (1 - fraction) + channel(c, next) * fraction);
  }
  return out;
}

describe('WavStream', () => {
  const cases = [
    { rate: 48_000, channels: 2, frames: 61_111 },
    { rate: 48_000, channels: 1, frames: 30_001 },
    { rate: 44_100, channels: 1, frames: 50_003 },
    { rate: 16_000, channels: 1, frames: 16_001 },
    { rate: 96_000, channels: 2, frames: 100_000 },
    { rate: 8_000, channels: 2, frames: 7 },
  ];

  it.each(cases)(
    'reads $rate Hz, $channels channel(s), $frames frames as whole-file resampling would',
    (c) => {
      const file = path.join(dir, `case-${c.rate}-${c.channels}.wav`);
      const pcm = samples(c.frames * c.channels, c.rate + c.channels);
      writeWav(file, c.rate, c.channels, pcm);
      const want = expected(pcm, c.rate, c.channels);
      expect(readWavFile(file)).toEqual(want);

      // The microphone, 20 ms at a time across the half-second blocks, pads the last frame with silence.
      const input = new WavFileInput(file);
      const frame = new Int16Array(1920);
      const got: number[] = [];
      while (input.read(frame)) got.push(...frame);
      input.close();
      expect(got.length).toBe(Math.ceil(want.length / 1920) * 1920);
      expect(Int16Array.from(got.slice(0, want.length))).toEqual(want);
      expect(got.slice(want.length).every((s) => s === 0)).toBe(true);
    },
  );

  it('a data chunk that claims more than the file holds yields what is there', () => {
    const file = path.join(dir, 'truncated.wav');
    const pcm = samples(2 * 1000, 7);
    writeWav(file, 48_000, 2, pcm, 4000);
    expect(readWavFile(file)).toEqual(expected(pcm, 48_000, 2));
  });

  it('reads nothing after close, and refuses a missing file', () => {
    const file = path.join(dir, 'short.wav');
    writeWav(file, 48_000, 2, samples(2 * 2000, 3), 0);
    const stream = new WavStream(file);
    const out = new Int16Array(1920);
    expect(stream.read(out)).toBe(960);
    stream.close();
    stream.close();
    expect(stream.read(out)).toBe(0);
    expect(() => new WavStream(path.join(dir, 'missing.wav'))).toThrow(ValidationError);
  });
});

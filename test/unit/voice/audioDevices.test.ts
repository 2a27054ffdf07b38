import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  describeDevice,
  openInput,
  openOutput,
  WavFileInput,
} from '../../../packages/sdkpp/src/voice/devices/audioDevices.js';
import { readWavFile, WavFileOutput } from '../../../packages/protocol/src/wav.js';
import { ValidationError } from '../../../packages/protocol/src/errors/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-devices-'));

function wav(
  file: string,
  options: { rate: number; channels: number; bits: number; format?: number; frames: number },
): void {
  const { rate, channels, bits, format = 1, frames } = options;
  const bytesPerSample = bits / 8;
  const data = Buffer.alloc(frames * channels * bytesPerSample);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels; c++) {
      const value = Math.round(10000 * Math.sin((2 * Math.PI * 1000 * i) / rate)) * (c === 0 ? 1 : -1);
      if (bits === 16) data.writeInt16LE(value, (i * channels + c) * 2);
      else if (bits === 8) data.writeUInt8(128 + (value >> 8), i * channels + c);
      else data.writeIntLE(value << 8, (i * channels + c) * 3, 3);
    }
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(format, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * bytesPerSample, 28);
  header.writeUInt16LE(channels * bytesPerSample, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  writeFileSync(file, Buffer.concat([header, data]));
}

describe('virtual audio devices', () => {
  it('reads 48 kHz stereo as it is, in 20 ms frames, then reports silence', () => {
    const file = path.join(dir, 'stereo48.wav');
    wav(file, { rate: 48_000, channels: 2, bits: 16, frames: 960 * 2 + 100 });
    const samples = readWavFile(file);
    expect(samples.length).toBe((960 * 2 + 100) * 2);
    expect(samples[3]).toBe(-(samples[2] ?? 0)); // right is the left inverted
    const input = new WavFileInput(file);
    const frame = new Int16Array(1920);
    expect([input.read(frame), input.read(frame), input.read(frame), input.read(frame)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(frame.subarray(200).every((s) => s === 0)).toBe(true); // the last partial frame is padded
  });

  it('duplicates mono to both channels and resamples other rates to 48 kHz', () => {
    const file = path.join(dir, 'mono16k.wav');
    wav(file, { rate: 16_000, channels: 1, bits: 16, frames: 16_000 });
    const samples = readWavFile(file);
    expect(samples.length).toBe(48_000 * 2);
    for (let i = 0; i < 200; i++) expect(samples[2 * i]).toBe(samples[2 * i + 1]);
    // Still a 1 kHz tone: 48 samples per period at 48 kHz.
    let crossings = 0;
    for (let i = 1; i < 48_000; i++)
      if ((samples[2 * (i - 1)] ?? 0) < 0 && (samples[2 * i] ?? 0) >= 0) crossings++;
    expect(crossings).toBeGreaterThanOrEqual(998);
    expect(crossings).toBeLessThanOrEqual(1001);
  });

  it('refuses what it cannot play with a ValidationError that says why', () => {
    const eight = path.join(dir, 'eight.wav');
    wav(eight, { rate: 48_000, channels: 1, bits: 8, frames: 100 });
    expect(() => readWavFile(eight)).toThrow(/only 16-bit PCM/);
    const float = path.join(dir, 'float.wav');
    wav(float, { rate: 48_000, channels: 1, bits: 16, format: 3, frames: 100 });
    expect(() => readWavFile(float)).toThrow(ValidationError);
    const six = path.join(dir, 'six.wav');
    wav(six, { rate: 48_000, channels: 6, bits: 16, frames: 100 });
    expect(() => readWavFile(six)).toThrow(/mono or stereo/);
    const text = path.join(dir, 'text.wav');
    writeFileSync(text, 'hello, this is not audio at all');
    expect(() => readWavFile(text)).toThrow(/not a RIFF\/WAVE/);
    expect(() => readWavFile(path.join(dir, 'missing.wav'))).toThrow(/cannot read/);
  });

  it('writes a WAV whose header is complete after a flush and after close', () => {
    const file = path.join(dir, 'out.wav');
    const output = new WavFileOutput(file);
    const frame = new Int16Array(1920).fill(1234);
    output.write(frame);
    output.flush();
    let bytes = readFileSync(file);
    expect(bytes.readUInt32LE(40)).toBe(3840);
    expect(bytes.readUInt32LE(4)).toBe(36 + 3840);
    output.write(frame);
    output.close();
    output.write(frame); // after close: ignored
    bytes = readFileSync(file);
    expect(bytes.length).toBe(44 + 7680);
    expect(bytes.readUInt32LE(40)).toBe(7680);
    expect(bytes.readUInt32LE(24)).toBe(48_000);
    expect(bytes.readUInt16LE(22)).toBe(2);
    expect(readWavFile(file).slice(0, 4)).toEqual(Int16Array.of(1234, 1234, 1234, 1234));
  });

  it('knows its device ids and refuses others', () => {
    expect(describeDevice('null', 'input')?.isDefault).toBe(true);
    expect(describeDevice('wav-in:/a.wav', 'input')?.id).toBe('wav-in:/a.wav');
    expect(describeDevice('wav-in:/a.wav', 'output')).toBeUndefined();
    expect(describeDevice('wav-out:', 'output')).toBeUndefined();
    expect(() => openInput('mic')).toThrow(ValidationError);
    expect(() => openOutput('wav-out:/nonexistent-dir/x.wav')).toThrow(/cannot write/);
  });
});

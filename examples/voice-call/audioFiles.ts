import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { readWavFile, synthesizeSpeech, SpeechSynthesisError, writeWavFile } from '@sdkpp/emulator';

import { ValidationError } from 'sdkpp';

import { UsageError } from './print.js';

/** 48 kHz interleaved stereo: four bytes, two samples, per frame. */
const SAMPLES_PER_SECOND = 48_000 * 2;

/** A WAV file to play, read and checked up front so a bad file fails before anyone joins a call. */
export interface Playback {
  /** The file, as the `wav-in:` device will open it. */
  readonly file: string;
  /** Its samples, 48 kHz interleaved stereo. */
  readonly pcm: Int16Array;
  /** Its length in seconds. */
  readonly seconds: number;
}

/** Reads a WAV file to play (given as `option`); a UsageError says why it cannot be played. */
export function loadPlayback(file: string, option = '--play'): Playback {
  if (!existsSync(file)) throw new UsageError(`${option}: there is no file ${file}`);
  let pcm: Int16Array;
  try {
    pcm = readWavFile(file);
  } catch (error) {
    if (error instanceof ValidationError) throw new UsageError(`${option}: cannot play it: ${error.message}`);
    throw error;
  }
  if (pcm.length < SAMPLES_PER_SECOND / 50)
    throw new UsageError(`${option}: ${file} holds no audio (shorter than 20 ms)`);
  return { file: path.resolve(file), pcm, seconds: pcm.length / SAMPLES_PER_SECOND };
}

/** A hummed melody of the given pitch, for installs without the espeak-ng package: three seconds, five syllables a second. */
function hum(pitchHz: number): Int16Array {
  const frames = 48_000 * 3;
  const pcm = new Int16Array(frames * 2);
  for (let i = 0; i < frames; i++) {
    const pitch = pitchHz * (1 + 0.1 * Math.sin((2 * Math.PI * i) / 24_000));
    const syllable = Math.max(0, Math.sin((Math.PI * i) / 9600));
    const sample = Math.round(8000 * syllable * Math.sin((2 * Math.PI * pitch * i) / 48_000));
    pcm[2 * i] = sample;
    pcm[2 * i + 1] = sample;
  }
  return pcm;
}

/**
 * Speaks `text` with espeak-ng into a WAV file (or, where the espeak-ng npm package is not installed, hums at `pitchHz`);
 * resolves with it as a {@link Playback} and whether it is real speech.
 */
export async function generateSpeechFile(
  file: string,
  text: string,
  voice: string,
  pitchHz: number,
): Promise<Playback & { spoken: boolean }> {
  let pcm: Int16Array;
  let spoken = true;
  try {
    pcm = (await synthesizeSpeech(text, { voice })).pcm;
  } catch (error) {
    if (!(error instanceof SpeechSynthesisError)) throw error;
    pcm = hum(pitchHz);
    spoken = false;
  }
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeWavFile(file, pcm);
  return { file: path.resolve(file), pcm, seconds: pcm.length / SAMPLES_PER_SECOND, spoken };
}

/** What a recording holds: its length, its loudest sample, and how long it carries sound. */
export interface RecordingSummary {
  /** Seconds recorded. */
  readonly seconds: number;
  /** The loudest sample in dBFS (0 is full scale; -Infinity for digital silence). */
  readonly peakDbfs: number;
  /** Seconds of 20 ms frames louder than -40 dBFS RMS: roughly, how long someone was heard. */
  readonly audibleSeconds: number;
}

/** Reads a recording back and measures it. */
export function summarizeRecording(file: string): RecordingSummary {
  const pcm = readWavFile(file);
  let peak = 0;
  for (const sample of pcm) peak = Math.max(peak, Math.abs(sample));
  const frame = SAMPLES_PER_SECOND / 50;
  const threshold = 32_768 * 10 ** (-40 / 20);
  let audibleFrames = 0;
  for (let start = 0; start + frame <= pcm.length; start += frame) {
    let sum = 0;
    for (let i = start; i < start + frame; i++) sum += (pcm[i] as number) ** 2;
    if (Math.sqrt(sum / frame) > threshold) audibleFrames++;
  }
  return {
    seconds: pcm.length / SAMPLES_PER_SECOND,
    peakDbfs: peak === 0 ? -Infinity : 20 * Math.log10(peak / 32_768),
    audibleSeconds: audibleFrames / 50,
  };
}

// Helpers for the tests that run the voice-call sample (examples/voice-call) as two processes in one call.
import path from 'node:path';

import { expect } from 'vitest';

import {
  matchAudio,
  readWavFile,
  synthesizeSpeech,
  writeWavFile,
} from '../../packages/emulator/src/index.js';

/** Says `text` with the emulator's speech synthesizer in `voice` and writes it as `dir/name` (a WAV file). */
export async function speechFile(
  dir: string,
  name: string,
  text: string,
  voice: string,
): Promise<{ file: string; pcm: Int16Array }> {
  const { pcm } = await synthesizeSpeech(text, { voice });
  const file = path.join(dir, name);
  writeWavFile(file, pcm);
  return { file, pcm };
}

/** One side of a two-process call: what its sample run printed, what it played, and where it recorded. */
export interface SampleSide {
  run: { stdout: string };
  played: { pcm: Int16Array };
  record: string;
}

/**
 * Both runs printed the same privacy code for the call of two, and each recorded what the other played with a
 * segment correlation of at least `heard`.
 */
export function expectHeardEachOther(alice: SampleSide, bob: SampleSide, heard: number): void {
  const code = (output: string): string | undefined => /privacy code ([\d ]+) for the 2/.exec(output)?.[1];
  expect(code(alice.run.stdout)).toBeDefined();
  expect(code(alice.run.stdout)).toBe(code(bob.run.stdout));
  expect(matchAudio(bob.played.pcm, readWavFile(alice.record)).segmentCorrelation).toBeGreaterThanOrEqual(
    heard,
  );
  expect(matchAudio(alice.played.pcm, readWavFile(bob.record)).segmentCorrelation).toBeGreaterThanOrEqual(
    heard,
  );
}

/** The demo's own verdicts (`[bob] heard Alice: correlation 0.97 with what …`): each player heard the other at `heard` or better. */
export function expectDemoHeardEachOther(stdout: string, heard: number): void {
  for (const [who, other] of [
    ['bob', 'Alice'],
    ['alice', 'Bob'],
  ] as const) {
    const line = new RegExp(`\\[${who}\\]\\s+heard ${other}: correlation (\\d\\.\\d\\d) with what`).exec(
      stdout,
    );
    expect(Number(line?.[1]), `${who} heard ${other}`).toBeGreaterThanOrEqual(heard);
  }
}

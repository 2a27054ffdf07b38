import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterAll, describe, expect, it } from 'vitest';

import { matchAudio, readWavFile, startEmulator } from '../../packages/emulator/src/index.js';
import { expectHeardEachOther, speechFile } from '../integration/voiceSampleRuns.js';

// The voice call sample runs as its own process (as `npm run example:voice-call` runs it) against a real
// emulator over loopback; what it recorded must be the other side's speech, judged as the speech tests
// judge it: the segment correlation with what was said.

const run = promisify(execFile);
const SAMPLE = ['--import', 'tsx', 'examples/voice-call/main.ts'];
/** The threshold of test/integration/voiceSpeech.test.ts for speech across a call without loss. */
const HEARD = 0.9;

const dir = mkdtempSync(path.join(tmpdir(), 'voice-call-sample-'));
// KEEP_SAMPLE_FILES=1 leaves the WAV files in the temporary folder, to listen to what each side heard.
afterAll(() => {
  if (process.env.KEEP_SAMPLE_FILES === undefined) rmSync(dir, { recursive: true, force: true });
});

function sample(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [...SAMPLE, ...args], { timeout: 90_000 });
}

describe('examples/voice-call', () => {
  it('with no emulator address: joins an encrypted call with a second participant, plays the WAV, records their speech, prints a summary, exits 0', async () => {
    const mine = await speechFile(
      dir,
      'mine.wav',
      'Good evening, this is the player speaking into the call.',
      'en-us',
    );
    const theirs = await speechFile(
      dir,
      'theirs.wav',
      'And this is the second participant answering you.',
      'en-us+m3',
    );
    const record = path.join(dir, 'embedded', 'heard.wav');
    const { stdout } = await sample(['--play', mine.file, '--partner-play', theirs.file, '--record', record]);

    expect(stdout).toMatch(/\[alice\]\s+signed in as Alice/);
    expect(stdout).toMatch(/\[alice\]\s+in lobby \d+ \(1 member\); joining its voice call/);
    expect(stdout).toMatch(/\[alice\]\s+call status → Connected\n/);
    expect(stdout).toMatch(/\[alice\]\s+Bob joined the call \(2 in it\)/);
    expect(stdout).toMatch(
      /\[alice\]\s+end-to-end encrypted \(DAVE\), privacy code (\d{5} ){5}\d{5} for the 2 in the call/,
    );
    const codes = [...stdout.matchAll(/verification code with \w+: ([\d ]+) \(/g)].map((m) => m[1]);
    expect(codes).toHaveLength(2);
    expect(codes[0]).toBe(codes[1]);
    expect(stdout).toMatch(/\[alice\]\s+playing mine\.wav \(\d+\.\d s\) into the call/);
    expect(stdout).toMatch(/\[alice\]\s+Bob is speaking/);
    expect(stdout).toMatch(/\[alice\]\s+Bob stopped speaking/);
    expect(stdout).toMatch(/\[alice\]\s+Alice is speaking/);
    const summary =
      /\[summary\]\s+alice recorded (\d+\.\d) s to .*heard\.wav: peak level (-?\d+\.\d) dBFS, sound in (\d+\.\d) s; in the call: Bob\n/.exec(
        stdout,
      );
    expect(summary).not.toBeNull();
    expect(Number(summary?.[1])).toBeGreaterThanOrEqual(5);
    expect(Number(summary?.[2])).toBeGreaterThan(-20);
    expect(Number(summary?.[3])).toBeGreaterThan(0.5);
    expect(stdout).toMatch(/\[voice-call\] done/);
    expect(stdout).not.toMatch(/access_token|refresh_token|code=|Bearer |Bot /);

    // The recording holds what the second participant said, and it heard what the player played.
    expect(
      matchAudio(theirs.pcm, readWavFile(record)).segmentCorrelation,
      'the player heard the partner',
    ).toBeGreaterThanOrEqual(HEARD);
    const partnerHeard = readWavFile(path.join(dir, 'embedded', 'bob-heard.wav'));
    expect(
      matchAudio(mine.pcm, partnerHeard).segmentCorrelation,
      'the partner heard the player',
    ).toBeGreaterThanOrEqual(HEARD);
    const printed = /what alice recorded matches what bob said: correlation (\d\.\d\d)/.exec(stdout);
    expect(Number(printed?.[1])).toBeGreaterThanOrEqual(HEARD);
  }, 120_000);

  it('two sample processes on one emulator: each plays its own WAV and records the other', async () => {
    const emulator = await startEmulator({ users: 2, rpc: false });
    try {
      const alice = await speechFile(dir, 'alice.wav', 'Alice here, in the first terminal. Over.', 'en-us');
      const bob = await speechFile(dir, 'bob.wav', 'Bob answering from the second terminal.', 'en-us+m3');
      // Alice names the application; Bob's process asks the emulator for it (/emulator.json).
      const common = ['--emulator', emulator.http, '--lobby-secret', 'two-terminals'];
      const aliceRecord = path.join(dir, 'two', 'alice-heard.wav');
      const bobRecord = path.join(dir, 'two', 'bob-heard.wav');
      const [aliceRun, bobRun] = await Promise.all([
        sample([
          ...common,
          '--app-id',
          emulator.applicationId,
          '--user',
          'alice',
          '--play',
          alice.file,
          '--record',
          aliceRecord,
        ]),
        // The second terminal starts a moment later, as a person would.
        new Promise((resolve) => setTimeout(resolve, 500)).then(() =>
          sample([...common, '--user', 'bob', '--play', bob.file, '--record', bobRecord]),
        ),
      ]);
      for (const [output, other] of [
        [aliceRun.stdout, 'Bob'],
        [bobRun.stdout, 'Alice'],
      ] as const) {
        expect(output).toMatch(/signing in at http:\/\/127\.0\.0\.1:\d+/);
        // Whoever came second finds the other in the call already; the first sees them join.
        expect(output).toMatch(
          new RegExp(`connected; in the call: .*${other}|${other} joined the call \\(2 in it\\)`),
        );
        expect(output).toMatch(new RegExp(`${other} is speaking`));
        expect(output).toMatch(new RegExp(`in the call: ${other}\\n`));
      }
      expectHeardEachOther(
        { run: aliceRun, played: alice, record: aliceRecord },
        { run: bobRun, played: bob, record: bobRecord },
        HEARD,
      );
      // Both left: the emulator's voice server has no call any more.
      expect(emulator.voice.calls()).toEqual([]);
    } finally {
      await emulator.close();
    }
  }, 120_000);

  it('refuses a missing or invalid WAV file with a message and exit status 2', async () => {
    const notWav = path.join(dir, 'notes.wav');
    writeFileSync(notWav, 'these are not audio samples');
    for (const [file, message] of [
      [path.join(dir, 'missing.wav'), /--play: there is no file .*missing\.wav/],
      [notWav, /--play: cannot play it: .*notes\.wav is not a RIFF\/WAVE file/],
    ] as const) {
      const failure = await sample(['--play', file]).then(
        () => undefined,
        (error: unknown) => error as { code: number; stderr: string },
      );
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toMatch(message);
    }
  });
});

import { execFile } from 'node:child_process';

import { describe, expect, it } from 'vitest';

/** Runs `npm run demo -- …args` the way npm does (tsx), to its end. */
function demo(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'examples/demo/main.ts', ...args],
      { timeout: 15_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('npm run demo -- flags', () => {
  it('answers --help with its flags and their defaults, without starting anything', async () => {
    const run = await demo(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run demo -- [options]');
    expect(run.stdout).toMatch(/--keep-alive\s+leave the emulator up/);
    expect(run.stdout).toMatch(
      /--voice-loss PERCENT\s+have the emulator's voice server drop[\s\S]*?\(default: 0\)/,
    );
    expect(run.stdout).toMatch(
      /--output DIR\s+the folder for what each player said and heard[\s\S]*?\(default: demo-output\)/,
    );
    expect(run.stdout).not.toContain('[emulator]');
  });

  it('refuses an unknown flag or a bad value with exit code 2 and a did-you-mean', async () => {
    const typo = await demo(['--keep-alvie']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown option --keep-alvie (did you mean --keep-alive?)');
    expect(typo.stdout).not.toContain('[emulator]');
    const bad = await demo(['--voice-loss', '250']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--voice-loss takes a percentage from 0 to 100');
    const empty = await demo(['--output', ' ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--output takes a folder');
  });
});

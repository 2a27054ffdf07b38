#!/usr/bin/env node
// npm's `prepare` (after `npm install` in a clone, and when npm installs the package from git or a folder):
// compiles the TypeScript into dist/ (tsup), makes its declarations stand alone
// (declaration-references.mjs) and fetches Electron's types for the Electron sample (electron-types.mjs).
// Each step says what it does and how long it took, so an install that runs it is never silent for minutes.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const root = path.resolve(import.meta.dirname, '..');
const steps = [
  [
    'compiling the TypeScript into dist/ (tsup: ESM, CommonJS and declarations)',
    ['node_modules/tsup/dist/cli-default.js', '--silent'],
  ],
  ['making the declarations stand alone', ['scripts/declaration-references.mjs']],
  [
    "fetching Electron's type definitions for the Electron sample",
    ['scripts/electron-types.mjs', '--if-possible'],
  ],
];

for (const [what, args] of steps) {
  process.stdout.write(`sdkpp: ${what}…\n`);
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stderr.write(
      `sdkpp: ${what} failed after ${seconds} s (exit ${String(result.status ?? result.signal)})\n`,
    );
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`sdkpp: done in ${seconds} s\n`);
}

#!/usr/bin/env node
// npm's `prepare` at the repository root (after `npm install` in a clone): builds each workspace package's
// TypeScript into its dist/ in dependency order (@sdkpp/protocol, sdkpp, @sdkpp/emulator: tsup, then
// declarations that stand alone) and fetches Electron's types for the Electron sample (electron-types.mjs).
// `--ts-only` (npm run build:ts) leaves out the Electron types. Each step says what it does and how long it
// took, so an install that runs it is never silent for minutes.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const root = path.resolve(import.meta.dirname, '..');
const tsup = path.join(root, 'node_modules/tsup/dist/cli-default.js');
const references = path.join(root, 'scripts/declaration-references.mjs');
const steps = [];
for (const name of ['protocol', 'sdkpp', 'emulator']) {
  const cwd = path.join(root, 'packages', name);
  steps.push([
    `compiling packages/${name} into its dist/ (tsup: ESM, CommonJS and declarations)`,
    [tsup, '--silent'],
    cwd,
  ]);
  steps.push([`making the declarations of packages/${name} stand alone`, [references], cwd]);
}
if (!process.argv.includes('--ts-only')) {
  steps.push([
    "fetching Electron's type definitions for the Electron sample",
    [path.join(root, 'scripts/electron-types.mjs'), '--if-possible'],
    root,
  ]);
}

for (const [what, args, cwd] of steps) {
  process.stdout.write(`sdkpp: ${what}…\n`);
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stderr.write(
      `sdkpp: ${what} failed after ${seconds} s (exit ${String(result.status ?? result.signal)})\n`,
    );
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`sdkpp: done in ${seconds} s\n`);
}

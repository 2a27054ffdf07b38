#!/usr/bin/env node
// Makes a package's published declarations stand alone: prepends to every dist/*.d.ts and *.d.cts the references
// they need from outside the package, so that a consumer compiles them whatever its tsconfig says.
//
// - `types="node"`: the declarations name Buffer, node:http, EventEmitter and so on. TypeScript 7 defaults to
//   `types: []`, so @types/node, though installed, is no longer included by itself (16 errors before this).
// - `lib="esnext.disposable"`: Client and the emulator are AsyncDisposable (`await using`); a consumer's
//   default lib may stop short of it (TypeScript 5.x with target ES2022, for one).
//
// tsup's declaration bundler drops triple-slash directives written in the sources, hence this step after it.
// Run by each package's `build` (`npm run build:ts` and `prepare` at the root run those); idempotent.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import console from 'node:console';

const REFERENCES = ['/// <reference types="node" />', '/// <reference lib="esnext.disposable" />'];
const HEADER = `${REFERENCES.join('\n')}\n`;

// Run from a package's folder (its `build` script): that package's dist/.
const dist = path.resolve('dist');
let changed = 0;
for (const name of readdirSync(dist)) {
  if (!name.endsWith('.d.ts') && !name.endsWith('.d.cts')) continue;
  const file = path.join(dist, name);
  const text = readFileSync(file, 'utf8');
  if (text.startsWith(HEADER)) continue;
  writeFileSync(file, HEADER + text);
  changed += 1;
}
if (process.argv.includes('--verbose')) console.log(`declaration references added to ${changed} files`);

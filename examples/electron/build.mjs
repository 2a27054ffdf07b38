#!/usr/bin/env node
/**
 * Builds the Electron sample into examples/electron/dist/ (run from anywhere):
 *   main.js      the main process, ESM; `sdkpp` and `electron` stay imports (sdkpp resolves to the package)
 *   preload.cjs  the preload, one CommonJS file: a sandboxed preload can require only `electron`
 *   renderer.js  the page's script, one classic script (the CSP allows only 'self' scripts)
 *   index.html, styles.css
 * esbuild comes with the repository's dev dependencies (through tsup); it only strips types, so type errors
 * are the type check's business (`npx tsc -p examples/electron/tsconfig.json` and src/renderer/tsconfig.json).
 * `--out <dir>` builds elsewhere (the renderer's browser test builds into a scratch directory).
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, 'src');
const outFlag = process.argv.indexOf('--out');
const out =
  outFlag >= 0 && process.argv[outFlag + 1] ? resolve(process.argv[outFlag + 1]) : join(here, 'dist');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const common = { bundle: true, target: 'es2022', sourcemap: 'linked', logLevel: 'warning', charset: 'utf8' };
await Promise.all([
  build({
    ...common,
    entryPoints: [join(src, 'main', 'main.ts')],
    outfile: join(out, 'main.js'),
    platform: 'node',
    format: 'esm',
    external: ['electron', 'sdkpp', 'sdkpp/*', '@sdkpp/*'],
  }),
  build({
    ...common,
    entryPoints: [join(src, 'preload', 'preload.ts')],
    outfile: join(out, 'preload.cjs'),
    platform: 'node',
    format: 'cjs',
    external: ['electron'],
  }),
  build({
    ...common,
    entryPoints: [join(src, 'renderer', 'renderer.ts')],
    outfile: join(out, 'renderer.js'),
    platform: 'browser',
    format: 'iife',
    sourcemap: false, // the app's scheme serves only the three files the page needs
  }),
]);
for (const file of ['index.html', 'styles.css']) copyFileSync(join(src, 'renderer', file), join(out, file));
process.stdout.write(`[electron-build] built ${out}\n`);

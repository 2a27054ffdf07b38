/**
 * Vitest global setup: the headless Chromium that the browser tests drive with playwright-core. It comes from
 * the npm registry inside the `@sparticuz/chromium` devDependency (chrome-headless-shell, Brotli-compressed in
 * the package's tarball), so `npm install && npm test` needs no system browser and downloads nothing else.
 * It is unpacked once per package version into node_modules/.cache and reused; tests read its path with
 * `inject('chromiumPath')`.
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';

import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The headless Chromium executable for playwright-core's `chromium.launch({ executablePath })`. */
    chromiumPath: string;
  }
}

const PACKAGE = '@sparticuz/chromium';

/** The package's folder (its exports leave out package.json: walk up from its entry point). */
function packageRoot(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve(PACKAGE));
  while (!existsSync(path.join(dir, 'bin', 'chromium.br'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${PACKAGE} has no bin/chromium.br`);
    dir = parent;
  }
  return dir;
}

/** The unpacked executable, unpacking it first if this version has not been yet. */
export async function unpackedChromium(): Promise<string> {
  const root = packageRoot();
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  const dir = path.resolve('node_modules', '.cache', 'sdkpp-chromium', version);
  const executable = path.join(dir, 'chromium');
  if (existsSync(executable)) return executable;
  mkdirSync(dir, { recursive: true });
  // Unpacked beside its final name and renamed when whole: a second test run starting at the same moment
  // never executes half a file.
  const partial = `${executable}.${process.pid}.partial`;
  await pipeline(
    createReadStream(path.join(root, 'bin', 'chromium.br')),
    createBrotliDecompress(),
    createWriteStream(partial, { mode: 0o755 }),
  );
  renameSync(partial, executable);
  return executable;
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide('chromiumPath', await unpackedChromium());
}

#!/usr/bin/env node
/**
 * Puts Electron's type definitions (`electron.d.ts`) where examples/electron/tsconfig.json looks for them,
 * without installing the `electron` package: its install script downloads the Electron binary from GitHub,
 * which would make `npm install` fail wherever only the npm registry is reachable.
 *
 * `npm pack` fetches the pinned tarball through npm's own configuration (registry, proxy, auth, cache) and
 * runs no script of it; this file checks the pinned integrity itself and extracts only `electron.d.ts`.
 * Idempotent: when the file is there for this version and integrity, it returns at once.
 *
 *   node scripts/electron-types.mjs [--quiet] [--if-possible]   (--if-possible: a failure only warns)
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { gunzipSync } from 'node:zlib';

const VERSION = '41.7.1';
const INTEGRITY =
  'sha512-pdRvNNP99Qfvs1lyIxo/sfIGAwJP0CrJFNCE3goFKc7/fV+kjK3EPxx5Nt6sLTkzqTyeRYylpwPUfpeGojiyyw==';
const WANTED = 'package/electron.d.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'node_modules', '.sdkpp-electron-types');
const target = join(outDir, 'electron.d.ts');
const stamp = join(outDir, 'stamp.json');
const quiet = process.argv.includes('--quiet');
const ifPossible = process.argv.includes('--if-possible');

function say(line) {
  if (!quiet) process.stdout.write(`[electron-types] ${line}\n`);
}

function upToDate() {
  if (!existsSync(target) || !existsSync(stamp)) return false;
  try {
    const recorded = JSON.parse(readFileSync(stamp, 'utf8'));
    return recorded.version === VERSION && recorded.integrity === INTEGRITY;
  } catch {
    return false;
  }
}

/** Runs npm the way this script was started (npm sets npm_execpath), else the `npm` on PATH. */
function npm(args) {
  const npmCli = process.env.npm_execpath;
  if (npmCli && /\.[cm]?js$/.test(npmCli)) {
    return execFileSync(process.execPath, [npmCli, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  return execFileSync('npm', args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: process.platform === 'win32',
  });
}

/** Fetches the tarball with `npm pack` into a fresh directory and returns its bytes. */
function fetchTarball() {
  const scratch = mkdtempSync(join(tmpdir(), 'sdkpp-electron-types-'));
  try {
    let report;
    try {
      report = npm([
        'pack',
        `electron@${VERSION}`,
        '--pack-destination',
        scratch,
        '--json',
        '--ignore-scripts',
        // npm's defaults retry for about a minute; offline, the answer should come at once.
        '--fetch-retries=1',
        '--fetch-retry-mintimeout=2000',
      ]);
    } catch (error) {
      const detail = String(error.stderr ?? error.message)
        .split('\n')
        .filter((line) => line.startsWith('npm error'))
        .slice(0, 3)
        .join('\n');
      throw new Error(
        `could not fetch electron@${VERSION} from the npm registry (offline? registry: ` +
          `\`npm config get registry\`)${detail ? `\n${detail}` : ''}`,
      );
    }
    const [packed] = JSON.parse(report);
    return readFileSync(join(scratch, packed.filename));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A POSIX (ustar, with GNU/pax long names) tar reader that returns one member's bytes, or undefined. */
function extract(tar, wanted) {
  let offset = 0;
  let longName;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return undefined;
    const text = (start, length) => header.toString('utf8', start, start + length).replace(/\0.*$/s, '');
    const size = parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1);
    const prefix = text(345, 155);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    let name = longName ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
    longName = undefined;
    if (type === 'L') longName = body.toString('utf8').replace(/\0.*$/s, '');
    else if (type === 'x') {
      const path = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      if (path) longName = path[1];
    } else if ((type === '0' || type === '') && name === wanted) return body;
    name = '';
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return undefined;
}

function main() {
  if (upToDate()) {
    say(`electron@${VERSION} types present`);
    return;
  }
  const tarball = fetchTarball();
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  if (integrity !== INTEGRITY) {
    throw new Error(`electron@${VERSION}: integrity mismatch (got ${integrity}, pinned ${INTEGRITY})`);
  }
  const types = extract(gunzipSync(tarball), WANTED);
  if (!types) throw new Error(`electron@${VERSION}: no ${WANTED} in the tarball`);
  mkdirSync(outDir, { recursive: true });
  // Written aside and renamed, so an interrupted run never leaves a half file that looks current.
  writeFileSync(`${target}.tmp`, types);
  renameSync(`${target}.tmp`, target);
  writeFileSync(stamp, `${JSON.stringify({ version: VERSION, integrity: INTEGRITY }, null, 2)}\n`);
  say(`electron@${VERSION} types (${types.length} bytes, integrity checked) → ${target}`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`[electron-types] ${error instanceof Error ? error.message : String(error)}\n`);
  // From `npm install` (prepare): only the Electron sample's type check needs these, and its test fetches
  // them again, so a registry hiccup must not fail the whole install.
  if (ifPossible) {
    process.stderr.write(
      '[electron-types] continuing without them; the Electron sample cannot be type-checked yet\n',
    );
  } else {
    process.exit(1);
  }
}

#!/usr/bin/env node
// binding.gyp asks this whether to link libopus: `exists` prints true or false, `cflags` and `libs` print
// the flags (or nothing). First choice is the static libopus that scripts/opus-build.mjs builds from
// source with runtime CPU detection; then the system's through pkg-config (Debian: libopus-dev). It never
// fails, so that a machine with neither still builds the addon, with the JS engine's wasm Opus codec.
//   SDKPP_OPUS=system   ignore the source build, ask pkg-config only
//   SDKPP_OPUS=0        build without libopus (how CI checks that path still compiles)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import process from 'node:process';
import { opusIncludeDir, opusStaticLibrary } from './opus-build.mjs';

const what = process.argv[2];

function pkgConfig(args) {
  try {
    return execFileSync('pkg-config', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

function choose() {
  const choice = process.env.SDKPP_OPUS;
  if (choice === '0') return undefined;
  if (choice !== 'system' && existsSync(opusStaticLibrary)) {
    // --exclude-libs keeps libopus's symbols out of the addon's exports, so another libopus loaded into
    // the same process (another addon's) cannot interpose on ours or ours on it.
    const hide = process.platform === 'linux' ? ' -Wl,--exclude-libs,libopus.a' : '';
    return { cflags: `-I${opusIncludeDir}`, libs: `${opusStaticLibrary}${hide}` };
  }
  if (pkgConfig(['--exists', 'opus']) === undefined) return undefined;
  return { cflags: pkgConfig(['--cflags', 'opus']) ?? '', libs: pkgConfig(['--libs', 'opus']) ?? '' };
}

const found = choose();
if (what === 'exists') process.stdout.write(found ? 'true' : 'false');
else if (what === 'cflags' && found) process.stdout.write(found.cflags);
else if (what === 'libs' && found) process.stdout.write(found.libs);

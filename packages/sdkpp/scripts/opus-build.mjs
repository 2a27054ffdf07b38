#!/usr/bin/env node
// Builds libopus from source for the native engine: a static, position-independent library with the
// codec's own runtime CPU detection (SSE4.1 kernels chosen at run time, so the addon still runs on any
// x86-64), compiled by libopus's own CMake build. Debian's libopus 1.3.1 is a scalar build and about 20 %
// slower to encode and 30 % slower to decode (bench/README.md); linking statically also means the addon
// needs no libopus0 at run time.
//
// The sources come from the npm registry, the only place an install may download from: the `libopus`
// package (1.0.7) ships libopus 1.4 untouched under package/opus. Only that tarball is fetched (`npm pack`,
// which uses npm's cache), its sha512 is checked against the pin below, and none of its scripts run.
//
//   node scripts/opus-build.mjs            build into build-deps/opus unless it is already there
//   SDKPP_OPUS=system | SDKPP_OPUS=0       skip (opus-config.mjs then asks pkg-config, or builds no codec)
//
// It never fails the install: without cmake, tar or the registry, it says why and exits 0, and the addon
// links the system libopus instead (or none, with the JS engine's wasm codec).
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { fetchPinnedTarball, run, works } from './npm-source.mjs';

export const OPUS_SOURCE = Object.freeze({
  npmPackage: 'libopus@1.0.7',
  libopusVersion: '1.4',
  integrity:
    'sha512-zdfso8UOLbNKFHYG50Q82cVVdFqrWBFslXVOtFG+fJzFHw4GB7/5eyxkIYr5iCyqPYD3boIyYRSg/Ap+e3nt2Q==',
});

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the built library lands: outside build/, which `node-gyp rebuild` wipes. */
export const opusPrefix = path.join(packageRoot, 'build-deps', 'opus');
export const opusStaticLibrary = path.join(opusPrefix, 'lib', 'libopus.a');
export const opusIncludeDir = path.join(opusPrefix, 'include', 'opus');
const stampFile = path.join(opusPrefix, 'stamp.json');

function log(line) {
  process.stdout.write(`sdkpp: ${line}\n`);
}

/** The compiler CMake should use: clang when present (its build decodes about 20 % faster here), else CMake's pick. */
function chooseCompiler() {
  if (process.env.CC) return undefined;
  for (const candidate of ['clang', 'clang-18', 'clang-17', 'clang-16', 'clang-15', 'clang-14']) {
    if (works(candidate)) return candidate;
  }
  return undefined;
}

/** The tarball from the registry (or npm's cache), checked against the pinned sha512. */
function fetchSource(workDir) {
  fetchPinnedTarball(OPUS_SOURCE, workDir, ['package/opus']);
  return path.join(workDir, 'package', 'opus');
}

function build() {
  const compiler = chooseCompiler();
  const wanted = {
    source: OPUS_SOURCE,
    compiler: compiler ?? 'cmake default',
    platform: process.platform,
    arch: process.arch,
  };
  if (existsSync(opusStaticLibrary) && existsSync(stampFile)) {
    const stamp = readFileSync(stampFile, 'utf8');
    if (stamp === JSON.stringify(wanted)) {
      log(`libopus ${OPUS_SOURCE.libopusVersion} already built in ${path.relative(packageRoot, opusPrefix)}`);
      return;
    }
  }
  for (const tool of ['cmake', 'tar']) {
    if (!works(tool)) throw new Error(`${tool} was not found`);
  }
  const started = performance.now();
  const workDir = path.join(packageRoot, 'build-deps', 'opus-work');
  rmSync(workDir, { recursive: true, force: true });
  rmSync(opusPrefix, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  try {
    const source = fetchSource(workDir);
    const buildDir = path.join(workDir, 'build');
    run('cmake', [
      '-S',
      source,
      '-B',
      buildDir,
      '-DCMAKE_BUILD_TYPE=Release',
      '-DCMAKE_POSITION_INDEPENDENT_CODE=ON',
      '-DCMAKE_C_VISIBILITY_PRESET=hidden',
      `-DCMAKE_INSTALL_PREFIX=${opusPrefix}`,
      '-DCMAKE_INSTALL_LIBDIR=lib',
      '-DOPUS_BUILD_PROGRAMS=OFF',
      '-DOPUS_BUILD_TESTING=OFF',
      '-DOPUS_INSTALL_PKG_CONFIG_MODULE=OFF',
      '-DOPUS_INSTALL_CMAKE_CONFIG_MODULE=OFF',
      ...(compiler ? [`-DCMAKE_C_COMPILER=${compiler}`] : []),
    ]);
    run('cmake', ['--build', buildDir, '--parallel', process.env.JOBS || '2']);
    run('cmake', ['--install', buildDir]);
    if (!existsSync(opusStaticLibrary)) {
      const found = readdirSync(path.join(opusPrefix, 'lib')).join(', ');
      throw new Error(`the build installed no lib/libopus.a (found: ${found})`);
    }
    writeFileSync(stampFile, JSON.stringify(wanted));
  } catch (error) {
    rmSync(opusPrefix, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(
    `libopus ${OPUS_SOURCE.libopusVersion} built from npm:${OPUS_SOURCE.npmPackage} with ` +
      `${compiler ?? 'the default C compiler'} (runtime CPU detection) in ${seconds} s`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const choice = process.env.SDKPP_OPUS;
  if (choice === '0' || choice === 'system') {
    log(`SDKPP_OPUS=${choice}: libopus is not built from source`);
  } else if (process.platform === 'win32') {
    log('libopus is not built from source on Windows yet; the addon uses the JS engine codec');
  } else {
    try {
      build();
    } catch (error) {
      log(
        `libopus was not built from source (${error instanceof Error ? error.message : String(error)}); ` +
          'the addon links the system libopus if pkg-config finds one, else uses the JS engine codec',
      );
    }
  }
}

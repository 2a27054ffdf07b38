#!/usr/bin/env node
// Builds libopus from source for the native engine: a static, position-independent library with the
// codec's own runtime CPU detection (SSE4.1 and AVX2 kernels chosen at run time, so the addon still runs on
// any x86-64), compiled by libopus's own CMake build with the options of opus-source.mjs. Debian's libopus
// 1.3.1 is a scalar build and much slower (bench/README.md); linking statically also means the addon needs
// no libopus0 at run time.
//
// The sources come from the npm registry, the only place an install may download from: libopus 1.5.2's
// tree inside a pinned package (opus-source.mjs says which and why). Only that tarball is fetched (`npm
// pack`, which uses npm's cache), its sha512 is checked against the pin, only the opus folder is extracted,
// and none of the package's scripts run.
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
import { OPUS_CMAKE_OPTIONS, OPUS_SOURCE, prepareOpusSource } from './opus-source.mjs';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the built library lands: outside build/, which `node-gyp rebuild` wipes. */
export const opusPrefix = path.join(packageRoot, 'build-deps', 'opus');
export const opusStaticLibrary = path.join(opusPrefix, 'lib', 'libopus.a');
export const opusIncludeDir = path.join(opusPrefix, 'include', 'opus');
const stampFile = path.join(opusPrefix, 'stamp.json');

function log(line) {
  process.stdout.write(`sdkpp: ${line}\n`);
}

/** The compiler CMake should use: clang when present (its builds of 1.4 and 1.5.2 decode 12–20 % faster here), else CMake's pick. */
function chooseCompiler() {
  if (process.env.CC) return undefined;
  for (const candidate of ['clang', 'clang-18', 'clang-17', 'clang-16', 'clang-15', 'clang-14']) {
    if (works(candidate)) return candidate;
  }
  return undefined;
}

/** The tarball from the registry (or npm's cache), checked against the pinned sha512. */
function fetchSource(workDir) {
  fetchPinnedTarball(OPUS_SOURCE, workDir, [OPUS_SOURCE.member]);
  return prepareOpusSource(path.join(workDir, OPUS_SOURCE.member));
}

function build() {
  const compiler = chooseCompiler();
  const wanted = {
    source: OPUS_SOURCE,
    options: OPUS_CMAKE_OPTIONS,
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
      `-DCMAKE_INSTALL_PREFIX=${opusPrefix}`,
      ...OPUS_CMAKE_OPTIONS,
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

#!/usr/bin/env node
// `npm run test:asan`: builds native/core (everything but the N-API glue), the fuzz targets and the test
// driver native/test/native_tests.cc with AddressSanitizer + UBSan (-fno-sanitize-recover=all), then runs
// every native self-test and replays every fuzz seed (made from test/vectors) and every regression input
// (native/fuzz/regressions/<target>/, the inputs that once crashed) through its target. Non-zero exit
// on a failed self-test or any sanitizer finding. CXX picks the compiler (default g++, else clang++).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import console from 'node:console';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

import { writeSeedCorpus } from './native-fuzz-seeds.mjs';
import {
  ALLOCATION_COUNTING,
  buildExecutable,
  findOpenSsl,
  findOpus,
  findSanitizerCompiler,
  outputRoot,
  FUZZ_DRIVERS,
  repoRoot,
  SANITIZER_ENV,
  SANITIZER_FLAGS,
  sourcesUnder,
  warningFlags,
} from './native-sanitize.mjs';

async function main() {
  const started = performance.now();
  const compiler = findSanitizerCompiler();
  if (!compiler) {
    console.error('test:asan: no C++ compiler with -fsanitize=address,undefined (install g++ or clang)');
    process.exit(1);
  }
  const openssl = findOpenSsl(compiler);
  const opus = findOpus();
  // Only once core/audio has its counting allocator (which defines the wrappers the linker asks for).
  const counting = existsSync(path.join(repoRoot, 'native', 'core', 'audio', 'alloc_counter.cc'))
    ? ALLOCATION_COUNTING
    : { defines: [], ldflags: [] };
  console.log(
    `test:asan: ${compiler}; OpenSSL from ${openssl.source}; libopus ${opus.libs.length ? 'yes' : 'no'}`,
  );

  const sources = [
    ...sourcesUnder('core'),
    ...sourcesUnder('fuzz').filter((file) => !FUZZ_DRIVERS.includes(file)),
    ...sourcesUnder('test'),
  ];
  const cflags = [
    '-std=c++17',
    '-O1',
    '-g',
    ...SANITIZER_FLAGS,
    ...warningFlags(compiler),
    '-Inative',
    ...openssl.cflags,
    ...opus.defines,
    ...opus.cflags,
    ...counting.defines,
  ];
  const { executable, compiled, total } = await buildExecutable({
    name: 'asan',
    compiler,
    sources,
    cflags,
    ldflags: [...SANITIZER_FLAGS, ...counting.ldflags],
    libs: [...openssl.libs, ...opus.libs],
  });
  const built = performance.now();
  console.log(
    `test:asan: built (${compiled} of ${total} sources compiled) in ${((built - started) / 1000).toFixed(1)} s`,
  );

  const seeds = path.join(outputRoot, 'fuzz', 'seeds');
  writeSeedCorpus(seeds);
  const regressions = path.join(repoRoot, 'native', 'fuzz', 'regressions');
  const run = spawnSync(executable, [seeds, regressions], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, ...SANITIZER_ENV },
  });
  const seconds = ((performance.now() - built) / 1000).toFixed(1);
  if (run.status !== 0) {
    console.error(`test:asan: FAILED (exit ${run.status ?? run.signal}) after ${seconds} s`);
    process.exit(1);
  }
  console.log(`test:asan: passed in ${seconds} s`);
}

main().catch((error) => {
  console.error(`test:asan: ${error.message}`);
  process.exit(1);
});

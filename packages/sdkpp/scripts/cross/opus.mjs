// libopus for each cross target: the same pinned source and CMake options as the local build
// (scripts/opus-source.mjs), compiled by its own CMake build through a toolchain file that names the
// target's compilers. Static and position-independent, with the codec's runtime CPU detection on x86 and
// its NEON kernels on arm64. The result lands in the cross cache under the version's name,
// <cache>/opus-<version>/<target>/{include,lib}, so that checkouts pinned to other releases keep theirs.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

import { OPUS_CMAKE_OPTIONS, OPUS_SOURCE, prepareOpusSource } from '../opus-source.mjs';
import { cachedLibrary, cachedPackage } from './cache.mjs';
import { run } from '../npm-source.mjs';

/** A CMake toolchain file for `target` with `tools`' compilers. */
function toolchainFile(dir, target, tools) {
  const lines = [
    `set(CMAKE_SYSTEM_NAME ${target.cmake.system})`,
    `set(CMAKE_SYSTEM_PROCESSOR ${target.cmake.processor})`,
    `set(CMAKE_C_COMPILER "${tools.cc}")`,
    `set(CMAKE_CXX_COMPILER "${tools.cxx}")`,
    `set(CMAKE_AR "${tools.ar}" CACHE FILEPATH "")`,
    `set(CMAKE_RANLIB "${tools.ranlib}" CACHE FILEPATH "")`,
    // Nothing of this machine's libraries or headers may be found for another target.
    'set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)',
    'set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)',
    'set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)',
  ];
  const file = path.join(dir, 'toolchain.cmake');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The options one target adds to the shared ones. */
function targetOptions(target) {
  if (target.platform !== 'win32') return [];
  return [
    // MinGW's stack protector needs libssp at link time; the addon links none.
    '-DOPUS_STACK_PROTECTOR=OFF',
    '-DOPUS_FORTIFY_SOURCE=OFF',
    // GCC cannot align the stack to 32 bytes on 64-bit Windows (its bug 54412), so an AVX2 kernel's aligned
    // spill of a 256-bit register could fault; the assembler turns aligned vector moves into unaligned ones,
    // which cost the same on every CPU with AVX.
    '-DCMAKE_C_FLAGS=-Wa,-muse-unaligned-vector-move',
  ];
}

/** libopus.a for `id` as `{ library, include, seconds }` (seconds 0 when it came from the cache). */
export async function libopusFor(id, target, tools) {
  const options = [...OPUS_CMAKE_OPTIONS, ...targetOptions(target)];
  const wanted = { source: OPUS_SOURCE, options, target, cc: tools.cc };
  const kind = `opus-${OPUS_SOURCE.libopusVersion}`;
  const built = await cachedLibrary(kind, id, wanted, path.join('lib', 'libopus.a'), (work, prefix) => {
    const packageDir = cachedPackage(OPUS_SOURCE);
    const source = prepareOpusSource(path.join(path.dirname(packageDir), OPUS_SOURCE.member));
    run('cmake', [
      '-S',
      source,
      '-B',
      work,
      `-DCMAKE_TOOLCHAIN_FILE=${toolchainFile(work, target, tools)}`,
      `-DCMAKE_INSTALL_PREFIX=${prefix}`,
      ...options,
    ]);
    run('cmake', ['--build', work, '--parallel', process.env.JOBS || '2']);
    run('cmake', ['--install', work]);
  });
  return {
    library: built.library,
    include: path.join(built.prefix, 'include', 'opus'),
    seconds: built.seconds,
  };
}

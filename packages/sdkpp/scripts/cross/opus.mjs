// libopus for each cross target: the same pinned source as the local build (scripts/opus-build.mjs, the
// `libopus` registry package), compiled by its own CMake build through a toolchain file that names the
// target's compilers. Static and position-independent, with the codec's runtime CPU detection on x86 and
// its NEON kernels on arm64. The result lands in the cross cache: <cache>/opus/<target>/{include,lib}.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

import { OPUS_SOURCE } from '../opus-build.mjs';
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

/** libopus.a for `id` as `{ library, include, seconds }` (seconds 0 when it came from the cache). */
export async function libopusFor(id, target, tools) {
  const wanted = { source: OPUS_SOURCE, target, cc: tools.cc };
  const built = await cachedLibrary('opus', id, wanted, path.join('lib', 'libopus.a'), (work, prefix) => {
    const source = path.join(cachedPackage(OPUS_SOURCE), 'opus');
    run('cmake', [
      '-S',
      source,
      '-B',
      work,
      `-DCMAKE_TOOLCHAIN_FILE=${toolchainFile(work, target, tools)}`,
      '-DCMAKE_BUILD_TYPE=Release',
      '-DCMAKE_POSITION_INDEPENDENT_CODE=ON',
      '-DCMAKE_C_VISIBILITY_PRESET=hidden',
      `-DCMAKE_INSTALL_PREFIX=${prefix}`,
      '-DCMAKE_INSTALL_LIBDIR=lib',
      '-DOPUS_BUILD_PROGRAMS=OFF',
      '-DOPUS_BUILD_TESTING=OFF',
      '-DOPUS_BUILD_SHARED_LIBRARY=OFF',
      '-DOPUS_INSTALL_PKG_CONFIG_MODULE=OFF',
      '-DOPUS_INSTALL_CMAKE_CONFIG_MODULE=OFF',
      // MinGW's stack protector needs libssp at link time; the addon links none.
      ...(target.platform === 'win32' ? ['-DOPUS_STACK_PROTECTOR=OFF', '-DOPUS_FORTIFY_SOURCE=OFF'] : []),
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

// The libopus source every build of the native addon compiles (the local build in opus-build.mjs and each
// cross target's in cross/opus.mjs), and the CMake options they share.
//
// The source is libopus 1.5.2. Installs may download from the npm registry only, and the registry has no
// package of the 1.5.2 release tarball; `audify@1.10.1` carries the upstream git tree at the v1.5.2 tag
// (its vendor/opus submodule is pinned to commit ddbe4838…, which is the tag): every one of its 709 files
// is byte for byte the tagged file once its CRLF line ends (audify was packed on Windows) are made LF, and the
// six it lacks are CI files and a .gitignore. Only that folder is extracted. A git tree has no
// `package_version` file (the release tarball's), without which libopus calls itself "libopus 0";
// prepareOpusSource writes the one the release carries, so opus_get_version_string() says "libopus 1.5.2".
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const OPUS_SOURCE = Object.freeze({
  npmPackage: 'audify@1.10.1',
  integrity:
    'sha512-DXq0YxyD4pk7EhIyOqFRaEfM7eia55cuYuLE+mAAfnx/HsWOCvfrDQA4MgctYxXJ29a4weDB07etncPMzJTGYA==',
  /** The only folder of the tarball that is extracted. */
  member: 'package/vendor/opus',
  libopusVersion: '1.5.2',
  /** The upstream commit of the v1.5.2 tag, which audify's submodule pins. */
  upstreamCommit: 'ddbe48383984d56acd9e1ab6a090c54ca6b735a6',
});

/**
 * libopus's CMake options, shared by every target. Measured with a C loop over libopus alone on this x86-64
 * machine (the bench's 200 frames, its encoder settings, clang 14, CPU time, best of 5, three rounds):
 * 1.5.2 encodes in about 255 µs a frame where 1.4 took 360 µs, and decodes in the same 39 µs.
 * - The x86 kernels (SSE4.1, AVX2 with FMA) are chosen at run time (MAY_HAVE, never PRESUME), so one x86-64
 *   build runs on any x86-64 CPU and uses AVX2 where there is one; arm64 presumes NEON (every arm64 CPU has it).
 * - Release is CMake's -O3. The flags left out made no difference above the noise (±10 %): FLOAT_APPROX
 *   (its authors' advice for IEEE floats; 255–285 µs encode either way), turning hardening off, turning the
 *   stack protector off; so hardening stays on (the decoder reads packets from the network). clang is
 *   preferred where there is one (opus-build.mjs): GCC 12's build decoded about 12 % slower.
 * - The deep-learning features (DRED, OSCE, deep PLC) stay off: they need model weights that a git tree
 *   lacks, cost CPU on every frame, and the platform's clients send no DRED.
 */
export const OPUS_CMAKE_OPTIONS = Object.freeze([
  '-DCMAKE_BUILD_TYPE=Release',
  '-DCMAKE_POSITION_INDEPENDENT_CODE=ON',
  '-DCMAKE_C_VISIBILITY_PRESET=hidden',
  '-DCMAKE_INSTALL_LIBDIR=lib',
  '-DOPUS_BUILD_PROGRAMS=OFF',
  '-DOPUS_BUILD_TESTING=OFF',
  '-DOPUS_BUILD_SHARED_LIBRARY=OFF',
  '-DOPUS_INSTALL_PKG_CONFIG_MODULE=OFF',
  '-DOPUS_INSTALL_CMAKE_CONFIG_MODULE=OFF',
  '-DOPUS_DRED=OFF',
  '-DOPUS_OSCE=OFF',
  '-DOPUS_X86_PRESUME_SSE4_1=OFF',
  '-DOPUS_X86_PRESUME_AVX2=OFF',
]);

/** Makes the extracted tree at `dir` build as the release: writes its `package_version` unless present. */
export function prepareOpusSource(dir) {
  const file = path.join(dir, 'package_version');
  if (!existsSync(file)) writeFileSync(file, `PACKAGE_VERSION="${OPUS_SOURCE.libopusVersion}"\n`);
  return dir;
}

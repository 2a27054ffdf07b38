// The five prebuilds `npm run native:prebuild -- --all` makes, and how each is built on a Linux x64 machine.
// Linux and macOS are compiled by zig's clang (one registry package; it targets a glibc version directly and
// carries libc++ and the macOS libc headers), Windows by Debian's MinGW-w64 g++ (its binutils make the
// delay-load import library that lets the addon load in a host not named node.exe).
//   file        the name in prebuilds/<id>/ that node-gyp-build's tag rules pick (glibc-tagged on Linux)
//   openssl     OpenSSL's Configure target for the static libcrypto
//   cmake       CMAKE_SYSTEM_NAME and CMAKE_SYSTEM_PROCESSOR for libopus's CMake build
//   systemAudio whether miniaudio's device backends can be compiled here (macOS's need Apple's SDK headers)
//   countsAllocations whether the linker can route allocations through core/audio/alloc_counter.cc (GNU
//               ld's --wrap, which MinGW has; zig's linker has no --wrap, so the zig-built prebuilds report
//               the audio self-test's allocation counting as unavailable, while local g++ builds count)

import process from 'node:process';

/** The oldest glibc the Linux prebuilds load on: Debian 11 and Ubuntu 20.04's, the SDK's own promise. */
export const GLIBC_FLOOR = '2.31';
/** The oldest macOS the macOS prebuilds load on (the first with Apple silicon). */
export const MACOS_FLOOR = '11.0';

export const TARGETS = Object.freeze({
  'linux-x64': {
    platform: 'linux',
    arch: 'x64',
    toolchain: 'zig',
    triple: `x86_64-linux-gnu.${GLIBC_FLOOR}`,
    file: 'sdkpp.glibc.node',
    openssl: 'linux-x86_64',
    cmake: { system: 'Linux', processor: 'x86_64' },
    systemAudio: true,
    countsAllocations: false,
  },
  'linux-arm64': {
    platform: 'linux',
    arch: 'arm64',
    toolchain: 'zig',
    triple: `aarch64-linux-gnu.${GLIBC_FLOOR}`,
    file: 'sdkpp.glibc.node',
    openssl: 'linux-aarch64',
    cmake: { system: 'Linux', processor: 'aarch64' },
    systemAudio: true,
    countsAllocations: false,
  },
  'win32-x64': {
    platform: 'win32',
    arch: 'x64',
    toolchain: 'mingw',
    triple: 'x86_64-w64-mingw32',
    file: 'sdkpp.node',
    openssl: 'mingw64',
    cmake: { system: 'Windows', processor: 'AMD64' },
    systemAudio: true,
    countsAllocations: true,
  },
  'darwin-x64': {
    platform: 'darwin',
    arch: 'x64',
    toolchain: 'zig',
    triple: `x86_64-macos.${MACOS_FLOOR}`,
    file: 'sdkpp.node',
    openssl: 'darwin64-x86_64-cc',
    cmake: { system: 'Darwin', processor: 'x86_64' },
    systemAudio: false,
    countsAllocations: false,
  },
  'darwin-arm64': {
    platform: 'darwin',
    arch: 'arm64',
    toolchain: 'zig',
    triple: `aarch64-macos.${MACOS_FLOOR}`,
    file: 'sdkpp.node',
    openssl: 'darwin64-arm64-cc',
    cmake: { system: 'Darwin', processor: 'arm64' },
    systemAudio: false,
    countsAllocations: false,
  },
});

/** The target this machine is, when it is one of the five (the default of `npm run native:prebuild`). */
export function hostTarget() {
  const id = `${process.platform}-${process.arch}`;
  return Object.hasOwn(TARGETS, id) ? id : undefined;
}

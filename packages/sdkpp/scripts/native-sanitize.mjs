// Builds native/core outside node-gyp, as plain executables with AddressSanitizer and UBSan: the test
// driver of `npm run test:asan` (scripts/native-asan.mjs) and the fuzzers of `npm run fuzz`
// (scripts/native-fuzz.mjs). Objects are cached under build-sanitize/<name>/ and rebuilt when a source, a header it
// includes (the compiler's -MMD list) or the flags change.
//
// OpenSSL: the addon compiles against Node's bundled OpenSSL headers and takes the EVP symbols from the
// node binary at load time. An executable has no node binary to take them from, so it must link a
// libcrypto. In order of preference:
//   1. the system's headers and libcrypto (Debian: libssl-dev), a matched pair. On Debian 12 that is
//      OpenSSL 3.0.x, the same series as Node 20/22's bundled 3.0.x (3.x keeps one ABI, and core/ uses
//      only EVP calls present since 1.1), so what runs here is the code the addon runs.
//   2. without libssl-dev: Node's own OpenSSL headers and the system's runtime libcrypto.so.3 (libssl3,
//      which every Debian with Node has), again one major version.
// The test driver prints both versions and fails when the headers and the library differ in major.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Everything these builds write: not build/, which every `node-gyp rebuild` deletes. */
export const outputRoot = path.join(repoRoot, 'build-sanitize');

/**
 * The addon's warnings. -Werror only with g++, the compiler the addon is built with (and gated by) on
 * Linux: clang warns about a few more things, and those are shown but must not stop a fuzz run.
 */
export function warningFlags(compiler) {
  const flags = ['-Wall', '-Wextra', '-Wshadow', '-Wconversion', '-Wsign-conversion', '-Wunused-parameter'];
  return /clang/.test(path.basename(compiler)) ? flags : [...flags, '-Werror'];
}
export const SANITIZER_FLAGS = [
  '-fsanitize=address,undefined',
  '-fno-sanitize-recover=all',
  '-fno-omit-frame-pointer',
];

/** The drivers that define main() or libFuzzer's entry points; each executable takes only its own. */
export const FUZZ_DRIVERS = ['native/fuzz/libfuzzer_entry.cc', 'native/fuzz/random_driver.cc'];

/** Sanitizer settings for every run: stop at the first finding, with a stack, and look for leaks. */
export const SANITIZER_ENV = {
  ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1',
  UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
};

/**
 * binding.gyp's allocation counting (core/audio/alloc_counter.cc): the linker routes the program's own
 * allocations through counting wrappers, so the audio self-test can prove a 20 ms tick allocates nothing.
 * The same flags here, so that the self-test passes (and is checked) under the sanitizers too.
 */
export const ALLOCATION_COUNTING = {
  defines: ['-DSDKPP_COUNT_ALLOCATIONS=1'],
  ldflags: [
    '-Wl,--wrap=_Znwm,--wrap=_Znam,--wrap=_ZnwmRKSt9nothrow_t,--wrap=_ZnamRKSt9nothrow_t',
    '-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc',
  ],
};

function works(command, args, input) {
  const result = spawnSync(command, args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  return result.status === 0;
}

const TRIAL_PROGRAM = 'int main() { return 0; }\n';
const FUZZER_PROGRAM =
  '#include <cstddef>\n#include <cstdint>\n' +
  'extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n';

/** Whether `compiler` can build and link a program with `flags` (the sanitizer runtimes may be absent). */
function canBuild(compiler, flags, program, libs = []) {
  const out = path.join(os.tmpdir(), `sdkpp-trial-${process.pid}`);
  try {
    return works(
      compiler,
      ['-x', 'c++', '-std=c++17', ...flags, '-', '-x', 'none', ...libs, '-o', out],
      program,
    );
  } finally {
    rmSync(out, { force: true });
  }
}

const CLANGS = [
  'clang++',
  'clang++-19',
  'clang++-18',
  'clang++-17',
  'clang++-16',
  'clang++-15',
  'clang++-14',
];

/**
 * A C++ compiler with AddressSanitizer and UBSan: $CXX, else g++ (the compiler the addon is built with
 * on Linux), else a clang++.
 */
export function findSanitizerCompiler() {
  const candidates = process.env.CXX ? [process.env.CXX] : ['g++', ...CLANGS];
  for (const compiler of candidates) {
    if (canBuild(compiler, SANITIZER_FLAGS, TRIAL_PROGRAM)) return compiler;
  }
  return undefined;
}

/** A clang++ that links libFuzzer (Debian: clang-14 and libclang-rt-14-dev), else undefined. */
export function findFuzzerCompiler() {
  const candidates = process.env.CXX ? [process.env.CXX, ...CLANGS] : CLANGS;
  for (const compiler of candidates) {
    if (canBuild(compiler, ['-fsanitize=fuzzer,address,undefined'], FUZZER_PROGRAM)) return compiler;
  }
  return undefined;
}

function nodeIncludeDir() {
  return path.resolve(process.execPath, '../../include/node');
}

function findRuntimeLibcrypto() {
  const result = spawnSync('ldconfig', ['-p'], { encoding: 'utf8' });
  const match = /libcrypto\.so\.3 \(.*x86-64.*\) => (\S+)/.exec(result.stdout ?? '');
  if (match) return match[1];
  for (const dir of ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib']) {
    const candidate = path.join(dir, 'libcrypto.so.3');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Compiler and linker flags for OpenSSL's libcrypto (see the file comment for the order), with a line
 * that says which was chosen. Throws with what to install when there is none.
 */
export function findOpenSsl(compiler) {
  const program = '#include <openssl/evp.h>\nint main() { return EVP_aes_256_gcm() == nullptr; }\n';
  if (canBuild(compiler, [], program, ['-lcrypto'])) {
    return { cflags: [], libs: ['-lcrypto'], source: 'system headers and libcrypto (libssl-dev)' };
  }
  const runtime = findRuntimeLibcrypto();
  const nodeInclude = nodeIncludeDir();
  const nodeHeaders = existsSync(path.join(nodeInclude, 'openssl', 'evp.h'));
  if (runtime && nodeHeaders) {
    const cflags = ['-idirafter', nodeInclude];
    if (canBuild(compiler, cflags, program, [runtime])) {
      return { cflags, libs: [runtime], source: `Node's OpenSSL headers and ${runtime}` };
    }
  }
  throw new Error(
    'no OpenSSL 3 to link: install libssl-dev (`apt-get install libssl-dev`); the addon itself does not ' +
      'need it, only this standalone sanitizer build does',
  );
}

/** libopus as binding.gyp finds it (scripts/opus-config.mjs), so that the same code paths compile. */
export function findOpus() {
  const config = path.join(repoRoot, 'scripts', 'opus-config.mjs');
  if (!existsSync(config)) return { defines: [], cflags: [], libs: [] };
  const ask = (what) =>
    spawnSync(process.execPath, [config, what], { encoding: 'utf8' }).stdout?.trim() ?? '';
  if (ask('exists') !== 'true') return { defines: [], cflags: [], libs: [] };
  const split = (text) => text.split(/\s+/).filter(Boolean);
  return { defines: ['-DSDKPP_HAVE_OPUS=1'], cflags: split(ask('cflags')), libs: split(ask('libs')) };
}

/** The suffix of the files for another OS (*_posix.cc or *_win.cc, as binding.gyp picks them). */
const OTHER_OS_SOURCES = process.platform === 'win32' ? '_posix.cc' : '_win.cc';

/** Every .cc under native/<dir> (recursively) but another OS's, relative to the repository, sorted. */
export function sourcesUnder(dir) {
  const base = path.join(repoRoot, 'native', dir);
  return readdirSync(base, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.cc') && !file.endsWith(OTHER_OS_SOURCES))
    .map((file) => path.posix.join('native', dir, file.split(path.sep).join('/')))
    .sort();
}

function runCompiler(compiler, args) {
  return new Promise((resolve) => {
    const child = spawn(compiler, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

/** True when `object` is older than its source or any header its .d file lists. */
function stale(object, depFile) {
  const built = mtime(object);
  if (built === Infinity || !existsSync(depFile)) return true;
  const deps = readFileSync(depFile, 'utf8')
    .replace(/\\\n/g, ' ')
    .replace(/^[^:]*:/, '')
    .split(/\s+/)
    .filter(Boolean);
  return deps.some((dep) => mtime(path.resolve(repoRoot, dep)) > built);
}

/**
 * Compiles `sources` into build-sanitize/<name>/ (in parallel, JOBS or the number of cores) and links `output`.
 * Returns the executable's path; throws when a compile or the link fails.
 */
export async function buildExecutable({ name, compiler, sources, cflags, ldflags, libs }) {
  const outDir = path.join(outputRoot, name);
  const objDir = path.join(outDir, 'obj');
  const stamp = path.join(outDir, 'flags');
  const flagsKey = createHash('sha256')
    .update(JSON.stringify([compiler, cflags, ldflags, libs]))
    .digest('hex');
  const flagsChanged = !existsSync(stamp) || readFileSync(stamp, 'utf8') !== flagsKey;
  if (flagsChanged) rmSync(outDir, { recursive: true, force: true });
  mkdirSync(objDir, { recursive: true });
  writeFileSync(stamp, flagsKey);

  const jobs = Math.max(1, Number(process.env.JOBS) || os.availableParallelism());
  const objects = sources.map((source) => path.join(objDir, source.replace(/\//g, '__') + '.o'));
  const queue = sources.map((source, i) => ({ source, object: objects[i] }));
  let failed = 0;
  let compiled = 0;
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const depFile = item.object.replace(/\.o$/, '.d');
      if (!stale(item.object, depFile)) continue;
      const code = await runCompiler(compiler, [
        ...cflags,
        '-MMD',
        '-MF',
        depFile,
        '-c',
        item.source,
        '-o',
        item.object,
      ]);
      if (code !== 0) {
        failed += 1;
        rmSync(item.object, { force: true });
      } else compiled += 1;
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  if (failed > 0) throw new Error(`${failed} of ${sources.length} sources failed to compile`);

  const executable = path.join(outDir, name);
  if (compiled > 0 || !existsSync(executable)) {
    const code = await runCompiler(compiler, [...ldflags, ...objects, ...libs, '-o', executable]);
    if (code !== 0) throw new Error(`linking ${executable} failed`);
  }
  return { executable, compiled, total: sources.length };
}

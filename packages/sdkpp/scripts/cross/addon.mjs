// Compiles and links the addon for one cross target with that target's tools (toolchain.mjs) and libraries
// (openssl.mjs, opus.mjs), into prebuilds/<target>/<file>. The same sources and warnings as binding.gyp;
// what differs per OS is how the addon is linked:
// - Linux: libc++ (zig's) and every archive linked in with their symbols made local (a version script
//   exports only the module's entry points), glibc 2.31 as the floor, and `-z now` (as binding.gyp: a
//   missing symbol fails the load, not the first call).
// - Windows: -static (libstdc++, libgcc and winpthread inside the addon, no DLL beside it) and Node-API
//   through a delay-load import library of node.exe whose hook (native/platform/win_delay_load_hook.cc)
//   answers with the process's own module, so the addon loads in electron.exe or a game's own .exe.
// - macOS: `-undefined dynamic_lookup`, so Node-API resolves from whatever host loads it.
// Objects are kept per target with their header dependencies (-MMD), so a second run recompiles only what
// changed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

import { miniaudioIncludeDir, fetchMiniaudio } from '../miniaudio-config.mjs';
import { run } from '../npm-source.mjs';

const require = createRequire(import.meta.url);

/** The warning flags of binding.gyp's Linux branch, with -Werror: this repository builds clean. */
const WARNINGS = ['-Wall', '-Wextra', '-Wshadow', '-Wconversion', '-Wsign-conversion', '-Wunused-parameter'];

/**
 * The allocation entry points GNU ld's --wrap routes through core/audio/alloc_counter.cc (MinGW; zig's
 * linker has none). Windows x64's size_t is unsigned long long, hence _Znwy rather than Linux's _Znwm.
 */
const WRAPPED = {
  win32: ['_Znwy', '_Znay', '_ZnwyRKSt9nothrow_t', '_ZnayRKSt9nothrow_t', 'malloc', 'calloc', 'realloc'],
};

/** Every .cc of native/core and native/napi for the target's OS (as binding.gyp picks them), plus its glue. */
export function addonSources(root, target) {
  const other = target.platform === 'win32' ? /_posix\.cc$/ : /_win\.cc$/;
  const sources = readdirSync(path.join(root, 'native'), { recursive: true })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.cc') && /^(core|napi)\//.test(file) && !other.test(file))
    .sort()
    .map((file) => path.join(root, 'native', file));
  if (target.platform === 'win32')
    sources.push(path.join(root, 'native', 'platform', 'win_delay_load_hook.cc'));
  return sources;
}

function compileFlags(root, target, libs) {
  const flags = [
    '-std=c++17',
    '-O3',
    '-fvisibility=hidden',
    '-fvisibility-inlines-hidden',
    '-ffunction-sections',
    '-fdata-sections',
    ...WARNINGS,
    '-Werror',
    '-DNAPI_VERSION=8',
    '-DNAPI_CPP_EXCEPTIONS',
    '-DBUILDING_NODE_EXTENSION',
    '-DSDKPP_STATIC_CRYPTO=1',
    '-DSDKPP_HAVE_OPUS=1',
    `-I${path.join(root, 'native')}`,
    '-isystem',
    require('node-api-headers').include_dir,
    '-isystem',
    path.resolve(require('node-addon-api').include_dir),
    `-I${libs.crypto.include}`,
    `-I${libs.opus.include}`,
  ];
  if (target.platform !== 'win32') flags.push('-fPIC');
  else flags.push('-D_HAS_EXCEPTIONS=1', '-DNOMINMAX', '-D_WIN32_WINNT=0x0A00');
  if (target.systemAudio) flags.push('-DSDKPP_HAVE_MINIAUDIO=1', '-isystem', libs.miniaudio);
  if (target.countsAllocations) flags.push('-DSDKPP_COUNT_ALLOCATIONS=1');
  return flags;
}

function linkFlags(target, tools, libs, delayLibrary, versionScript) {
  const archives = [libs.crypto.library, libs.opus.library];
  const wraps = target.countsAllocations ? WRAPPED[target.platform].map((name) => `-Wl,--wrap=${name}`) : [];
  if (target.platform === 'linux') {
    return [
      '-shared',
      '-Wl,--gc-sections',
      '-Wl,-z,now',
      // Only the module's entry points are exported: libcrypto's, libopus's and libc++'s symbols stay
      // local, so none interposes on (or is interposed by) the host's OpenSSL or C++ runtime.
      `-Wl,--version-script=${versionScript}`,
      ...wraps,
      ...archives,
      '-ldl',
      '-lpthread',
      '-lm',
      '-s',
    ];
  }
  if (target.platform === 'win32') {
    return [
      '-shared',
      '-static',
      '-static-libgcc',
      '-static-libstdc++',
      '-Wl,--gc-sections',
      ...wraps,
      ...archives,
      delayLibrary,
      // OpenSSL's Windows entropy and threads, Winsock, MMCSS, and WASAPI's COM.
      '-lws2_32',
      '-lbcrypt',
      '-ladvapi32',
      '-lcrypt32',
      '-luser32',
      '-lole32',
      '-s',
    ];
  }
  return ['-shared', '-undefined', 'dynamic_lookup', '-Wl,-dead_strip', ...archives, '-s'];
}

/** A delay-load import library for node.exe's Node-API exports (Windows), made by MinGW's dlltool. */
function delayImportLibrary(objDir, tools) {
  const def = path.join(require('node-api-headers').include_dir, '..', 'def', 'node_api.def');
  const library = path.join(objDir, 'node_api_delay.a');
  run(tools.dlltool, ['--input-def', def, '--dllname', 'node.exe', '--output-delaylib', library]);
  return library;
}

/** Whether `object` is older than its source, any header it included, or the flags it was built with. */
function stale(object, depFile, flagsStamp) {
  if (!existsSync(object) || !existsSync(depFile)) return true;
  const built = statSync(object).mtimeMs;
  const text = readFileSync(depFile, 'utf8').replace(/\\\n/g, ' ');
  const deps = text
    .slice(text.indexOf(':') + 1)
    .split(/(?<!\\)\s+/)
    .filter(Boolean)
    .map((dep) => dep.replace(/\\ /g, ' '));
  return (
    statSync(flagsStamp).mtimeMs > built ||
    deps.some((dep) => !existsSync(dep) || statSync(dep).mtimeMs > built)
  );
}

function compile(cxx, flags, source, object, depFile) {
  return new Promise((resolve, reject) => {
    const child = spawn(cxx, [...flags, '-MMD', '-MF', depFile, '-c', source, '-o', object], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk) => {
      if (errors.length < 64 * 1024) errors += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(source)} did not compile:\n${errors.trim()}`)),
    );
  });
}

/**
 * Builds prebuilds/<id>/<file> for a target; returns `{ file, seconds, compiled, linked }`: the number of
 * sources compiled this time (0 when nothing changed since the last run) and whether it was relinked.
 */
export async function buildAddon(root, id, target, tools, libs) {
  const started = performance.now();
  if (target.systemAudio) {
    fetchMiniaudio();
    libs = { ...libs, miniaudio: miniaudioIncludeDir };
  }
  const objDir = path.join(root, 'build-cross', id);
  mkdirSync(objDir, { recursive: true });
  const flags = compileFlags(root, target, libs);
  // Objects built with other flags (another compiler, another library version) are rebuilt.
  const flagsStamp = path.join(objDir, 'flags.json');
  const flagsText = JSON.stringify({ cxx: tools.cxx, flags });
  if (!existsSync(flagsStamp) || readFileSync(flagsStamp, 'utf8') !== flagsText)
    writeFileSync(flagsStamp, flagsText);

  const sources = addonSources(root, target);
  const jobs = sources.map((source) => {
    const base = path.relative(path.join(root, 'native'), source).replace(/[/\\]/g, '_').replace(/\.cc$/, '');
    return { source, object: path.join(objDir, `${base}.o`), depFile: path.join(objDir, `${base}.d`) };
  });
  const pending = jobs.filter((job) => stale(job.object, job.depFile, flagsStamp));
  const width = Math.max(1, Number(process.env.JOBS) || 2);
  const queue = [...pending];
  // Every source is tried, so that one run shows every file another compiler's warnings stop.
  const failures = [];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
        await compile(tools.cxx, flags, job.source, job.object, job.depFile).catch((error) => {
          rmSync(job.object, { force: true });
          failures.push(error.message);
        });
      }
    }),
  );
  if (failures.length > 0)
    throw new Error(
      `${id}: ${failures.length} of ${pending.length} sources did not compile:\n${failures.join('\n')}`,
    );

  const outDir = path.join(root, 'prebuilds', id);
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, target.file);
  // Nothing newer than the linked file: it is left alone, so that a process running it (a wine or qemu
  // test) never sees it rewritten by a build that had nothing to do.
  const inputs = [...jobs.map((job) => job.object), libs.crypto.library, libs.opus.library, flagsStamp];
  if (existsSync(file) && inputs.every((input) => statSync(input).mtimeMs <= statSync(file).mtimeMs)) {
    return { file, seconds: (performance.now() - started) / 1000, compiled: 0, linked: false };
  }
  const delayLibrary = target.platform === 'win32' ? delayImportLibrary(objDir, tools) : undefined;
  const versionScript = path.join(objDir, 'exports.map');
  writeFileSync(
    versionScript,
    '{ global: napi_register_module_v1; node_api_module_get_api_version_v1; local: *; };\n',
  );
  run(tools.cxx, [
    ...jobs.map((job) => job.object),
    ...linkFlags(target, tools, libs, delayLibrary, versionScript),
    '-o',
    file,
  ]);
  return { file, seconds: (performance.now() - started) / 1000, compiled: pending.length, linked: true };
}

#!/usr/bin/env node
// Makes the prebuilt addons that ship in the package, prebuilds/<platform>-<arch>/<file> (the layout and
// tags node-gyp-build reads; one Node-API build serves every Node ≥ 22, Electron and Bun), on a Linux x64
// machine, for five targets: linux-x64, linux-arm64 (glibc 2.31 and later), win32-x64, darwin-x64 and
// darwin-arm64 (macOS 11 and later). Each carries its own static OpenSSL 3 and libopus 1.5.2, built for it
// from pinned sources and cached outside the checkout (scripts/cross/cache.mjs), and is then checked from
// the file itself (scripts/cross/inspect.mjs): the glibc floor on Linux, no DLL but Windows' own and
// node.exe (delay-loaded) on Windows, nothing but Node-API left to the host on macOS. The prebuild for this
// machine is also loaded in a fresh process and must pass its self-tests; the others are run by the wine
// and qemu tests (test/integration/wineHost.test.ts, qemuHost.test.ts).
//   npm run native:prebuild                       this machine's target (npm pack's prepack builds --all)
//   npm run native:prebuild -- --all              the five
//   npm run native:prebuild -- --target win32-x64 [--target linux-arm64 …]
//   node scripts/prebuild.mjs --cwd <dir>         for a copy of the package
//   … --libraries-only                            only fetch the toolchains and build the cached libraries
// Toolchains: zig for Linux and macOS (a registry package, fetched into the cache), Debian's MinGW-w64 g++
// for Windows (installed when run as root, else the command to run is printed); perl, make and cmake.
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { buildAddon } from './cross/addon.mjs';
import { elfRequirements, machORequirements, peImports, versionAtMost } from './cross/inspect.mjs';
import { withLock } from './cross/cache.mjs';
import { libcryptoFor } from './cross/openssl.mjs';
import { libopusFor } from './cross/opus.mjs';
import { GLIBC_FLOOR, TARGETS, hostTarget } from './cross/targets.mjs';
import { ToolchainMissing, checkHostTools, toolchainFor } from './cross/toolchain.mjs';
import { checkPrebuild } from './prebuild-check.mjs';

const { values } = parseArgs({
  options: {
    cwd: { type: 'string' },
    all: { type: 'boolean', default: false },
    target: { type: 'string', multiple: true },
    'libraries-only': { type: 'boolean', default: false },
  },
});
const packageRoot = path.resolve(values.cwd ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));

function fail(message) {
  process.stderr.write(`sdkpp prebuild: ${message}\n`);
  process.exit(1);
}

function say(message) {
  process.stdout.write(`sdkpp prebuild: ${message}\n`);
}

/** The Windows DLLs a win32 prebuild may import: the OS's own, never a compiler runtime. */
const WINDOWS_SYSTEM_DLLS =
  /^(kernel32|ws2_32|bcrypt|advapi32|crypt32|user32|ole32|msvcrt|api-ms-win-[a-z0-9-]+)\.dll$/i;

/** Reads the built file and throws when it asks the loading machine for more than its target promises. */
function checkFile(id, target, file) {
  if (target.platform === 'linux') {
    const needs = elfRequirements(file);
    if (needs.glibc !== undefined && !versionAtMost(needs.glibc, GLIBC_FLOOR)) {
      throw new Error(`${id} needs GLIBC_${needs.glibc}, above the ${GLIBC_FLOOR} floor`);
    }
    if (needs.glibcxx !== undefined || needs.needed.some((lib) => /libstdc\+\+|libc\+\+/.test(lib))) {
      throw new Error(`${id} needs a C++ runtime from the host (${needs.needed.join(', ')})`);
    }
    return `glibc ≤ ${needs.glibc}, needs ${needs.needed.join(' ')}`;
  }
  if (target.platform === 'win32') {
    const { imports, delayLoadsNode } = peImports(file, `${target.triple}-objdump`);
    const foreign = imports.filter((dll) => !WINDOWS_SYSTEM_DLLS.test(dll));
    if (foreign.length > 0)
      throw new Error(`${id} imports ${foreign.join(', ')}, which Windows does not carry`);
    if (!delayLoadsNode) throw new Error(`${id} does not delay-load node.exe`);
    return `imports ${imports.join(' ')}; node.exe delay-loaded`;
  }
  const macho = machORequirements(file);
  const expected = target.arch === 'arm64' ? 'arm64' : 'x86_64';
  if (macho.cpu !== expected) throw new Error(`${id} is a ${macho.cpu} Mach-O, not ${expected}`);
  const notNodeApi = macho.dynamicLookup.filter((name) => !/^(napi|node_api)_/.test(name));
  if (notNodeApi.length > 0) throw new Error(`${id} leaves ${notNodeApi.join(', ')} to the host`);
  if (target.arch === 'arm64' && !macho.signed)
    throw new Error(`${id} has no code signature (macOS arm64 runs none)`);
  return `Mach-O ${macho.cpu} ${macho.fileType}${macho.signed ? ', signed' : ''}, ${macho.dynamicLookup.length} Node-API symbols from the host`;
}

async function buildTarget(id) {
  const target = TARGETS[id];
  const started = performance.now();
  const tools = toolchainFor(id, target);
  const opus = await libopusFor(id, target, tools);
  const crypto = await libcryptoFor(id, target, tools);
  if (values['libraries-only']) {
    say(`${id}: OpenSSL ${crypto.version} and libopus are in the cross cache`);
    return undefined;
  }
  const addon = await buildAddon(packageRoot, id, target, tools, { crypto, opus });
  const checked = checkFile(id, target, addon.file);
  const seconds = (performance.now() - started) / 1000;
  const cached = (s) => (s === 0 ? 'cached' : `${s.toFixed(1)} s`);
  say(
    `${path.relative(packageRoot, addon.file)} (${(statSync(addon.file).size / 1024).toFixed(0)} KiB) in ` +
      `${seconds.toFixed(1)} s: OpenSSL ${crypto.version} ${cached(crypto.seconds)}, libopus ${cached(opus.seconds)}, ` +
      `addon ${addon.compiled} files compiled${addon.linked ? '' : ', up to date'}; ${checked}`,
  );
  return addon.file;
}

const host = hostTarget();
const wanted = values.all ? Object.keys(TARGETS) : (values.target ?? (host ? [host] : []));
if (wanted.length === 0)
  fail(
    `no target given, and this machine (${process.platform}-${process.arch}) is none of ${Object.keys(TARGETS).join(', ')}`,
  );
const unknown = wanted.filter((id) => !Object.hasOwn(TARGETS, id));
if (unknown.length > 0)
  fail(`unknown target ${unknown.join(', ')}; the targets are ${Object.keys(TARGETS).join(', ')}`);
if (process.platform !== 'linux' || process.arch !== 'x64') {
  fail('the cross builds run on a Linux x64 machine (the toolchains they fetch are for it)');
}

try {
  checkHostTools();
  // One target at a time holds its lock: its libraries' work folders and its objects are its own.
  for (const id of wanted) await withLock(id, () => buildTarget(id));
} catch (error) {
  fail(
    error instanceof ToolchainMissing
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error),
  );
}

// The prebuild for this machine must also load and pass its self-tests in a fresh process.
if (host !== undefined && wanted.includes(host) && !values['libraries-only']) {
  const check = await checkPrebuild(packageRoot);
  if (!check.ok) fail(`the ${host} prebuild does not work here: ${check.reason}`);
  say(
    `${host} loads here and passes its self-tests (engine ${check.engine.version}, ABI ${check.engine.abi})`,
  );
  // With no local build yet, the checked prebuild also serves as one (the loader looks in build/ too).
  const localBuild = path.join(packageRoot, 'build', 'Release', 'sdkpp_native.node');
  if (!existsSync(localBuild)) {
    mkdirSync(path.dirname(localBuild), { recursive: true });
    copyFileSync(check.file, localBuild);
  }
}

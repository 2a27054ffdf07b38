import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { NativeAddonOrigin } from '../MediaEngine.js';
import { findPackageRoot } from '@sdkpp/protocol';
import { findPrebuild } from './prebuild.js';
import { NATIVE_ADDON_ABI, type NativeAddon } from './types.js';

/** The file name both builds produce (binding.gyp and CMakeLists.txt). */
export const NATIVE_ADDON_FILE = 'sdkpp_native.node';

// node-gyp's outputs first, then cmake-js's (`--out build-cmake`).
const BUILD_DIRS = ['build/Release', 'build/Debug', 'build-cmake/Release', 'build-cmake/Debug'] as const;

const ADDON_FUNCTIONS = [
  'version',
  'engineInfo',
  'cryptoSelfTest',
  'aeadSeal',
  'aeadOpen',
  'rtpResultNames',
  'rtpParsePacket',
  'rtpWriteHeader',
  'ipDiscoveryWrite',
  'ipDiscoveryParse',
  'transportSelfTest',
  'TransportCryptor',
] as const;

/** The outcome of {@link loadNativeAddon}: the addon, or why not and how to fix it. */
export type NativeAddonLoadResult =
  | {
      readonly ok: true;
      /** The loaded, ABI-checked addon. */
      readonly addon: NativeAddon;
      /** The absolute path of the `.node` file that was loaded. */
      readonly path: string;
      /** Which kind of file that was. */
      readonly origin: NativeAddonOrigin;
    }
  | {
      readonly ok: false;
      /** What went wrong, naming the paths tried; never contains secrets. */
      readonly reason: string;
      /** The command that fixes it, in a sentence fit for a log line. */
      readonly remedy: string;
    };

/** Options of {@link loadNativeAddon}. */
export interface LoadNativeAddonOptions {
  /**
   * `.node` files to try, in order, instead of the package's build folders. Relative paths resolve
   * against the current directory.
   */
  readonly searchPaths?: readonly string[];
}

// Loading a .node file is process-global anyway; repeated calls must not retry or re-report.
const results = new Map<string, NativeAddonLoadResult>();

/**
 * Finds and loads the native addon: the package's prebuild for this platform first, then a local build
 * (`npm run build:native`), except that a local build newer than the prebuild goes first, so a rebuilt
 * addon is the one that runs. A candidate that fails to load or is stale is skipped. Never throws: a missing, broken or stale build gives
 * `{ ok: false, reason, remedy }`, and the caller decides whether the JS engine will do. Memoized per
 * process and per `searchPaths`.
 */
export function loadNativeAddon(options: LoadNativeAddonOptions = {}): NativeAddonLoadResult {
  const key = JSON.stringify(options.searchPaths ?? null);
  let result = results.get(key);
  if (result === undefined) {
    result = load(options.searchPaths);
    results.set(key, result);
  }
  return result;
}

/**
 * The fix for a missing addon. Inside the repository that is the build script; in a consumer's project it is
 * re-running sdkpp's install script with `npm rebuild sdkpp`. Approving it first keeps npm 11's install-script
 * policy (`allowScripts`) from skipping it: npm 11 runs an unreviewed package's script with a notice, but
 * refuses under `strict-allow-scripts` and skips silently a package that `allowScripts` denies — an entry that
 * `approve` does not override, so it must be removed by hand.
 */
export function nativeAddonRemedy(packageRoot: string | undefined): string {
  if (packageRoot !== undefined && !packageRoot.split(path.sep).includes('node_modules')) {
    return `run \`npm run build:native\` in ${packageRoot}`;
  }
  return (
    'run `npm install-scripts approve sdkpp && npm rebuild sdkpp` in your project, which re-runs the install ' +
    "script that builds the addon (it needs python3, make and a C++17 compiler; if package.json's allowScripts " +
    'has "sdkpp": false, remove that entry first: approve does not override a denial)'
  );
}

interface Candidate {
  readonly file: string;
  readonly origin: NativeAddonOrigin;
}

function modifiedMs(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** The package's own candidates, in the order described at {@link loadNativeAddon}. */
function packageCandidates(packageRoot: string): Candidate[] {
  const builds = BUILD_DIRS.map((dir) => ({
    file: path.join(packageRoot, dir, NATIVE_ADDON_FILE),
    origin: 'local-build' as const,
  }));
  const prebuild = findPrebuild(packageRoot);
  if (prebuild === undefined) return builds;
  const prebuilt = modifiedMs(prebuild);
  const newer = builds.filter(({ file }) => modifiedMs(file) > prebuilt);
  const older = builds.filter((candidate) => !newer.includes(candidate));
  return [...newer, { file: prebuild, origin: 'prebuild' }, ...older];
}

function load(searchPaths: readonly string[] | undefined): NativeAddonLoadResult {
  const moduleDir = path.dirname(fileURLToPath(import.meta.url));
  const packageRoot = findPackageRoot(moduleDir, 'sdkpp');
  const remedy = nativeAddonRemedy(packageRoot);
  const candidates: Candidate[] | undefined =
    searchPaths?.map((file) => ({ file: path.resolve(file), origin: 'search-path' as const })) ??
    (packageRoot === undefined ? undefined : packageCandidates(packageRoot));
  if (candidates === undefined) {
    return { ok: false, reason: `the sdkpp package root was not found above ${moduleDir}`, remedy };
  }

  const requireAddon = createRequire(import.meta.url);
  const failures: string[] = [];
  for (const { file, origin } of candidates) {
    if (!existsSync(file)) continue;
    try {
      return { ok: true, addon: checkAddon(requireAddon(file)), path: file, origin };
    } catch (error) {
      failures.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const reason =
    failures.length > 0
      ? `the native addon failed to load (${failures.join('; ')})`
      : `the native addon is not built (looked for ${candidates.map(({ file }) => file).join(', ')})`;
  return { ok: false, reason, remedy };
}

function checkAddon(value: unknown): NativeAddon {
  const exports = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const missing = ADDON_FUNCTIONS.filter((name) => typeof exports[name] !== 'function');
  if (missing.length > 0) {
    throw new Error(`not an sdkpp addon (missing ${missing.join(', ')})`);
  }
  const addon = value as NativeAddon;
  const { abi } = addon.engineInfo();
  if (abi !== NATIVE_ADDON_ABI) {
    throw new Error(`a stale build: its ABI is ${abi}, this sdkpp needs ${NATIVE_ADDON_ABI}`);
  }
  return addon;
}

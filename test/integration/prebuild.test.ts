import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HOST_CRYPTO_SYMBOL, undefinedSymbols } from '../native/symbols.js';
import { CROSS_TARGETS } from '../setup/crossPrebuilds.js';

const run = promisify(execFile);
const repo = process.cwd();
/** The SDK package's folder: what is packed, built and installed. */
const sdk = path.join(repo, 'packages', 'sdkpp');
const PREBUILD = path.join('prebuilds', `${process.platform}-${process.arch}`, 'sdkpp.glibc.node');

/**
 * A copy of the package to build in: the prebuild is written into the package's prebuilds/, which the other
 * test files' loader would otherwise start preferring to the local build midway through the run.
 */
function copyPackage(into: string): void {
  for (const entry of ['package.json', 'binding.gyp', 'native', 'scripts', 'dist']) {
    cpSync(path.join(sdk, entry), path.join(into, entry), { recursive: true });
  }
  // Dependencies and the libopus source build are shared, not copied: both are read-only here.
  symlinkSync(path.join(repo, 'node_modules'), path.join(into, 'node_modules'));
  symlinkSync(path.join(sdk, 'build-deps'), path.join(into, 'build-deps'));
}

/** What a game that imports the installed package sees: the engine and where its addon came from. */
async function engineSeenBy(packageDir: string): Promise<{
  engine: string;
  origin?: string;
  path?: string;
  fallbackReason?: string;
  selfTest: boolean;
}> {
  const script = `
    const { createMediaEngine } = await import(${JSON.stringify(path.join(packageDir, 'dist', 'index.js'))});
    const engine = createMediaEngine();
    const { info } = engine;
    console.log(JSON.stringify({
      engine: info.engine,
      origin: info.addon?.origin,
      path: info.addon?.path,
      fallbackReason: info.fallbackReason,
      selfTest: engine.cryptoSelfTest().ok,
    }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Awaited<ReturnType<typeof engineSeenBy>>;
}

describe('prebuilt addon packaging (linux-x64)', () => {
  let work: string;
  let pkg: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'sdkpp-prebuild-'));
    pkg = path.join(work, 'sdkpp');
    mkdirSync(pkg);
    copyPackage(pkg);
    // What `npm pack`'s prepack runs for each of its five targets, for this machine's: the cross build on
    // zig (glibc 2.31 as the floor), OpenSSL and libopus from the cross cache, then the load check.
    await run(process.execPath, [path.join(pkg, 'scripts', 'prebuild.mjs'), '--cwd', pkg], {
      cwd: pkg,
      timeout: 900_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  }, 960_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("npm pack's prepack leaves a checked Node-API prebuild where node-gyp-build looks", async () => {
    expect(existsSync(path.join(pkg, PREBUILD))).toBe(true);
    const { stdout } = await run(process.execPath, [path.join(pkg, 'scripts', 'prebuild-check.mjs'), pkg]);
    const check = JSON.parse(stdout) as { ok: boolean; file: string; engine: { opus: string } };
    expect(check.ok).toBe(true);
    expect(check.file).toBe(path.join(pkg, PREBUILD));
    expect(check.engine.opus).toBe('libopus 1.5.2'); // the release scripts/opus-source.mjs pins
    // It carries its own crypto: no OpenSSL symbol is left for the host (Electron, Bun) to provide.
    const needed = undefinedSymbols(path.join(pkg, PREBUILD));
    expect(needed).toContain('napi_create_object');
    expect(needed.filter((name) => HOST_CRYPTO_SYMBOL.test(name))).toEqual([]);
    // It loads on glibc 2.31 (Debian 11, Ubuntu 20.04) and brings its own C++ runtime.
    const { stdout: versions } = await run('readelf', ['-V', '-d', '-W', path.join(pkg, PREBUILD)]);
    const glibc = [...versions.matchAll(/Name: GLIBC_2\.(\d+)/g)].map((m) => Number(m[1]));
    expect(glibc.length).toBeGreaterThan(0);
    expect(Math.max(...glibc)).toBeLessThanOrEqual(31);
    expect(versions).not.toMatch(/GLIBCXX_|libstdc\+\+/);
  });

  it('npm pack ships the five prebuilds and the install script that checks them', async () => {
    // prepack builds all five; the other four come from the test setup's run of the same script.
    const manifest = JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts['prepack']).toBe('node scripts/prebuild.mjs --all');
    for (const id of CROSS_TARGETS) {
      cpSync(path.join(sdk, 'prebuilds', id), path.join(pkg, 'prebuilds', id), { recursive: true });
    }
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: pkg });
    const [packed] = JSON.parse(stdout) as [{ files: { path: string }[]; size: number }];
    const files = packed.files.map((file) => file.path);
    expect(files).toContain(PREBUILD);
    expect(files.filter((file) => file.startsWith('prebuilds/')).sort()).toEqual([
      'prebuilds/darwin-arm64/sdkpp.node',
      'prebuilds/darwin-x64/sdkpp.node',
      'prebuilds/linux-arm64/sdkpp.glibc.node',
      PREBUILD,
      'prebuilds/win32-x64/sdkpp.node',
    ]);
    expect(files).toContain('scripts/prebuild-check.mjs');
    expect(files).toContain('scripts/build-native.mjs');
  });

  it('an installed package with only the prebuild (no compiler, install scripts skipped) runs the native engine', async () => {
    const installed = path.join(work, 'game', 'node_modules', 'sdkpp');
    mkdirSync(installed, { recursive: true });
    for (const entry of ['package.json', 'dist', 'prebuilds']) {
      cpSync(path.join(pkg, entry), path.join(installed, entry), { recursive: true });
    }
    symlinkSync(path.join(repo, 'node_modules'), path.join(installed, 'node_modules'));

    const seen = await engineSeenBy(installed);
    expect(seen).toMatchObject({ engine: 'native', origin: 'prebuild', selfTest: true });
    expect(seen.path).toBe(path.join(installed, PREBUILD));

    // Without it, the JS engine takes over and says why.
    rmSync(path.join(installed, 'prebuilds'), { recursive: true });
    const fallback = await engineSeenBy(installed);
    expect(fallback).toMatchObject({ engine: 'js', selfTest: true });
    expect(fallback.fallbackReason).toMatch(/not built/);
  });

  it('prefers the prebuild to an older local build, and a newer local build to the prebuild', async () => {
    const localBuild = path.join(pkg, 'build', 'Release', 'sdkpp_native.node');
    expect(existsSync(localBuild)).toBe(true);
    const prebuild = path.join(pkg, PREBUILD);

    const past = new Date(Date.now() - 3_600_000);
    utimesSync(localBuild, past, past);
    expect(await engineSeenBy(pkg)).toMatchObject({ engine: 'native', origin: 'prebuild', path: prebuild });

    const later = new Date(Date.now() + 60_000);
    utimesSync(localBuild, later, later);
    expect(await engineSeenBy(pkg)).toMatchObject({
      engine: 'native',
      origin: 'local-build',
      path: localBuild,
    });
  });

  it('a broken prebuild is refused by the install check and skipped by the loader', async () => {
    const broken = path.join(work, 'broken');
    mkdirSync(path.dirname(path.join(broken, PREBUILD)), { recursive: true });
    for (const entry of ['package.json', 'dist']) {
      cpSync(path.join(pkg, entry), path.join(broken, entry), { recursive: true });
    }
    symlinkSync(path.join(repo, 'node_modules'), path.join(broken, 'node_modules'));
    writeFileSync(path.join(broken, PREBUILD), 'not an ELF file');
    cpSync(path.join(pkg, 'build'), path.join(broken, 'build'), { recursive: true });
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(path.join(broken, 'build', 'Release', 'sdkpp_native.node'), past, past);

    const check = await run(process.execPath, [path.join(sdk, 'scripts', 'prebuild-check.mjs'), broken]).then(
      () => ({ code: 0, stdout: '' }),
      (error: unknown) => error as { code: number; stdout: string },
    );
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        /^the prebuild did not load: .*(file too short|invalid ELF header)/,
      ) as unknown,
    });

    expect(await engineSeenBy(broken)).toMatchObject({ engine: 'native', origin: 'local-build' });
  });

  it('the install script uses a working prebuild instead of compiling', async () => {
    const { stdout } = await run(
      process.execPath,
      [path.join(pkg, 'scripts', 'build-native.mjs'), '--if-possible'],
      {
        cwd: pkg,
        env: { ...process.env, npm_config_build_from_source: '' },
        timeout: 60_000,
      },
    );
    expect(stdout).toMatch(
      /using the prebuilt native addon prebuilds\/linux-x64\/sdkpp\.glibc\.node \(self-tests passed\)/,
    );
    expect(stdout).not.toMatch(/building the native addon/);
    expect(readFileSync(path.join(pkg, PREBUILD)).subarray(1, 4).toString()).toBe('ELF');
  });
});

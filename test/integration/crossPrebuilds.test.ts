import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

// @ts-expect-error: a build script in plain JavaScript, with no declarations
import * as inspect from '../../packages/sdkpp/scripts/cross/inspect.mjs';
import { CROSS_TARGETS } from '../setup/crossPrebuilds.js';

// The prebuilds of the other four targets, built by the package's own prebuild script before the tests
// (test/setup/crossPrebuilds.ts), read from the files themselves: each must load on its target's floor and ask
// its host for nothing but Node-API and the OS. wineHost.test.ts and qemuHost.test.ts run two of them.
const run = promisify(execFile);
// The SDK package's folder: its scripts, native sources, build and prebuilds.
const repo = path.resolve('packages/sdkpp');
const prebuild = (id: string, file: string): string => path.join(repo, 'prebuilds', id, file);

interface MachO {
  cpu: string;
  fileType: string;
  dynamicLookup: string[];
  fromLibraries: number;
  signed: boolean;
}
const machO = (file: string): MachO =>
  (inspect as { machORequirements(f: string): MachO }).machORequirements(file);

describe('the cross-built prebuilds', () => {
  it('are all where node-gyp-build looks', () => {
    expect([...CROSS_TARGETS]).toEqual(['win32-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64']);
    for (const [id, file] of [
      ['win32-x64', 'sdkpp.node'],
      ['linux-arm64', 'sdkpp.glibc.node'],
      ['darwin-x64', 'sdkpp.node'],
      ['darwin-arm64', 'sdkpp.node'],
    ] as const) {
      expect(existsSync(prebuild(id, file)), `${id}/${file}`).toBe(true);
    }
  });

  it('linux-arm64 needs glibc 2.31 at most and no C++ runtime from the host', async () => {
    const file = prebuild('linux-arm64', 'sdkpp.glibc.node');
    const { stdout } = await run('readelf', ['-h', '-V', '-d', '-W', file]);
    expect(stdout).toMatch(/Machine:\s+AArch64/);
    const glibc = [...stdout.matchAll(/Name: GLIBC_([0-9.]+)/g)].map((m) => m[1] ?? '');
    expect(glibc.length).toBeGreaterThan(0);
    for (const version of glibc) {
      const [major = 0, minor = 0] = version.split('.').map(Number);
      expect(major * 100 + minor, `GLIBC_${version}`).toBeLessThanOrEqual(231);
    }
    expect(stdout).not.toMatch(/GLIBCXX_|libstdc\+\+|libc\+\+/);
    // Only the module's entry points are exported: OpenSSL and libc++ stay inside.
    const symbols = await run('readelf', ['--dyn-syms', '-W', file]);
    const exported = symbols.stdout
      .split('\n')
      .filter((line) => /\b(GLOBAL|WEAK)\b/.test(line) && !/\bUND\b/.test(line))
      .map((line) => line.trim().split(/\s+/).at(-1));
    expect(exported.sort()).toEqual(['napi_register_module_v1', 'node_api_module_get_api_version_v1']);
  });

  it('win32-x64 imports only DLLs Windows carries and delay-loads Node-API from node.exe', async () => {
    const file = prebuild('win32-x64', 'sdkpp.node');
    expect(readFileSync(file).subarray(0, 2).toString('latin1')).toBe('MZ');
    const { stdout } = await run('x86_64-w64-mingw32-objdump', ['-p', file], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const imports = [...stdout.matchAll(/DLL Name: (\S+)/g)].map((m) => (m[1] ?? '').toLowerCase());
    expect(imports).toContain('kernel32.dll');
    expect(imports).toContain('ws2_32.dll');
    // -static: no compiler runtime beside the addon, and node.exe not bound by name at load time.
    expect(imports.filter((dll) => /libstdc|libgcc|libwinpthread|node\.exe/.test(dll))).toEqual([]);
    expect(readFileSync(file).includes(Buffer.from('node.exe\0', 'latin1'))).toBe(true);
    expect(stdout).toMatch(/\[\s*\d+\] napi_register_module_v1/);
  });

  for (const [id, cpu] of [
    ['darwin-x64', 'x86_64'],
    ['darwin-arm64', 'arm64'],
  ] as const) {
    it(`${id} is a Mach-O for ${cpu} that leaves only Node-API to its host`, () => {
      const seen = machO(prebuild(id, 'sdkpp.node'));
      expect(seen.cpu).toBe(cpu);
      expect(['dylib', 'bundle']).toContain(seen.fileType);
      expect(seen.dynamicLookup).toContain('napi_create_object');
      expect(seen.dynamicLookup.filter((name) => !/^(napi|node_api)_/.test(name))).toEqual([]);
      // The rest (malloc, pthread…) binds to libSystem, which every Mac has.
      expect(seen.fromLibraries).toBeGreaterThan(0);
      if (cpu === 'arm64') expect(seen.signed).toBe(true);
    });
  }

  it('a second run takes its libraries from the cache and recompiles nothing', async () => {
    const started = Date.now();
    const { stdout } = await run(
      process.execPath,
      [path.join(repo, 'scripts', 'prebuild.mjs'), '--target', 'darwin-x64'],
      { timeout: 120_000 },
    );
    expect(stdout).toMatch(
      /darwin-x64\/sdkpp\.node .*OpenSSL 3\.0\.\d+ cached, libopus cached, addon 0 files compiled/,
    );
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 130_000);
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { loadNativeAddon, nativeAddonRemedy } from '../../../packages/sdkpp/src/media/addon/loader.js';
import { findPackageRoot } from '../../../packages/protocol/src/base/packageRoot.js';
import { NATIVE_ADDON_ABI } from '../../../packages/sdkpp/src/media/addon/types.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'sdkpp-loader-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function scratchFile(name: string, contents: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, contents);
  return file;
}

const FAKE_FUNCTIONS =
  'aeadOpen(){}, aeadSeal(){}, cryptoSelfTest(){}, version(){ return "0.0.0"; }, rtpResultNames(){}, ' +
  'rtpParsePacket(){}, rtpWriteHeader(){}, ipDiscoveryWrite(){}, ipDiscoveryParse(){}, transportSelfTest(){}, ' +
  'TransportCryptor: class {},';

describe('loadNativeAddon', () => {
  it('reports a missing build with a remedy naming the command', () => {
    const result = loadNativeAddon({ searchPaths: ['/nonexistent/x.node'] });
    expect(result).toEqual({
      ok: false,
      reason: 'the native addon is not built (looked for /nonexistent/x.node)',
      remedy: `run \`npm run build:native\` in ${path.resolve(repoRoot, 'packages', 'sdkpp')}`,
    });
  });

  it('memoizes per process and per search path list', () => {
    const options = { searchPaths: ['/nonexistent/x.node'] };
    expect(loadNativeAddon(options)).toBe(loadNativeAddon({ searchPaths: ['/nonexistent/x.node'] }));
    expect(loadNativeAddon({ searchPaths: ['/nonexistent/y.node'] })).not.toBe(loadNativeAddon(options));
  });

  it('reports a file that is not a loadable addon, and keeps looking past it', () => {
    const broken = scratchFile('broken.node', 'not an ELF file');
    const result = loadNativeAddon({ searchPaths: [broken, '/nonexistent/z.node'] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain('the native addon failed to load');
    expect(result.reason).toContain(broken);
  });

  it('refuses a module without the addon functions', () => {
    const file = scratchFile('partial.cjs', 'module.exports = { version() { return "0.1.0"; } };');
    const result = loadNativeAddon({ searchPaths: [file] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain(
      'not an sdkpp addon (missing engineInfo, cryptoSelfTest, aeadSeal, aeadOpen, rtpResultNames, ' +
        'rtpParsePacket, rtpWriteHeader, ipDiscoveryWrite, ipDiscoveryParse, transportSelfTest, TransportCryptor)',
    );
  });

  it('refuses a stale build whose ABI differs', () => {
    const file = scratchFile(
      'stale.cjs',
      `module.exports = { ${FAKE_FUNCTIONS} engineInfo() { return { abi: ${NATIVE_ADDON_ABI + 1} }; } };`,
    );
    const result = loadNativeAddon({ searchPaths: [file] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain(`a stale build: its ABI is ${NATIVE_ADDON_ABI + 1}`);
  });

  it('takes the first candidate that passes the checks', () => {
    const file = scratchFile(
      'good.cjs',
      `module.exports = { ${FAKE_FUNCTIONS} engineInfo() { return { abi: ${NATIVE_ADDON_ABI} }; } };`,
    );
    const result = loadNativeAddon({ searchPaths: ['/nonexistent/a.node', file] });
    expect(result).toMatchObject({ ok: true, path: file });
  });
});

describe('nativeAddonRemedy', () => {
  it('names the build script inside the repository', () => {
    expect(nativeAddonRemedy('/work/sdkpp')).toBe('run `npm run build:native` in /work/sdkpp');
  });

  it("names npm's approval and rebuild for an installed dependency or an unknown location", () => {
    for (const root of [path.join('/app', 'node_modules', 'sdkpp'), undefined]) {
      expect(nativeAddonRemedy(root)).toContain('`npm install-scripts approve sdkpp && npm rebuild sdkpp`');
    }
  });
});

describe('findPackageRoot', () => {
  it('walks up to the package of the name asked for', () => {
    const sdk = path.join(repoRoot, 'packages', 'sdkpp');
    expect(findPackageRoot(path.join(sdk, 'src', 'media', 'js'), 'sdkpp')).toBe(path.resolve(sdk));
    expect(findPackageRoot(path.join(sdk, 'src'), 'sdkpp-repository')).toBe(path.resolve(repoRoot));
  });

  it('gives undefined when no such package is above', () => {
    expect(findPackageRoot(scratch, 'sdkpp')).toBeUndefined();
    expect(findPackageRoot(repoRoot, 'not-sdkpp')).toBeUndefined();
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { requireNativeAddon } from './requireAddon.js';

// The SDK package's folder: its scripts, native sources, build and prebuilds.
const root = fileURLToPath(new URL('../../packages/sdkpp', import.meta.url));
const staticOpus = fileURLToPath(
  new URL('../../packages/sdkpp/build-deps/opus/lib/libopus.a', import.meta.url),
);
const stampFile = fileURLToPath(new URL('../../packages/sdkpp/build-deps/opus/stamp.json', import.meta.url));
const addonPath = createRequire(import.meta.url).resolve(
  '../../packages/sdkpp/build/Release/sdkpp_native.node',
);

/** What scripts/opus-config.mjs tells binding.gyp. */
function opusConfig(what: 'exists' | 'cflags' | 'libs'): string {
  return execFileSync(process.execPath, ['scripts/opus-config.mjs', what], { cwd: root, encoding: 'utf8' });
}

// scripts/opus-build.mjs builds libopus 1.5.2 from a pinned registry tarball when CMake is there (CI
// installs it); otherwise the addon links the system's libopus or none. Whichever was chosen, the addon
// must report it, with the version the source build was pinned to (its stamp says which), and a static
// libopus must stay out of the addon's exported symbols.
describe('the libopus the addon links', () => {
  it('is the one opus-config chose, and says so in engineInfo', () => {
    const reported = requireNativeAddon().engineInfo().opus;
    if (existsSync(staticOpus)) {
      expect(opusConfig('libs')).toContain(staticOpus);
      const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { source: { libopusVersion: string } };
      expect(stamp.source.libopusVersion).toBe('1.5.2');
      expect(reported).toEqual({ version: `libopus ${stamp.source.libopusVersion}` });
    } else if (opusConfig('exists') === 'true') {
      expect(reported?.version).toMatch(/^libopus \d+\.\d+/);
    } else {
      expect(reported).toBeNull();
    }
  });

  it('keeps libopus symbols out of the addon exports when linked statically', () => {
    const exported = execFileSync('nm', ['-D', '--defined-only', addonPath], { encoding: 'utf8' });
    const opusExports = exported.split('\n').filter((line) => / opus_/.test(line));
    expect(opusExports).toEqual([]);
    // The addon's own entry point is exported, so the listing above is real.
    expect(exported).toMatch(/napi_register_module_v1/);
  });

  it('is refused by SDKPP_OPUS=0 and limited to pkg-config by SDKPP_OPUS=system', () => {
    const run = (value: string, what: 'exists' | 'libs'): string =>
      execFileSync(process.execPath, ['scripts/opus-config.mjs', what], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, SDKPP_OPUS: value },
      });
    expect(run('0', 'exists')).toBe('false');
    expect(run('system', 'libs')).not.toContain('build-deps');
  });
});

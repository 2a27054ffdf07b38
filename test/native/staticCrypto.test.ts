import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { requireNativeAddon } from './requireAddon.js';
import { HOST_CRYPTO_SYMBOL, undefinedSymbols } from './symbols.js';

// The SDK package's folder: its scripts, native sources, build and prebuilds.
const root = fileURLToPath(new URL('../../packages/sdkpp', import.meta.url));
const addonPath = createRequire(import.meta.url).resolve(
  '../../packages/sdkpp/build/Release/sdkpp_native.node',
);

// The addon carries its own crypto (scripts/crypto-config.mjs: a static libcrypto, symbols hidden), so it
// loads in hosts that export no OpenSSL: Electron and Bun carry BoringSSL.
describe('the crypto the addon carries', () => {
  it('takes no crypto symbol from its host', () => {
    const needed = undefinedSymbols(addonPath);
    // The listing is real: the addon does take Node-API and the C runtime from its host.
    expect(needed).toContain('napi_create_object');
    expect(needed.filter((name) => HOST_CRYPTO_SYMBOL.test(name))).toEqual([]);
  });

  it('exports none of the static library symbols', () => {
    const exported = execFileSync('nm', ['-D', '--defined-only', addonPath], { encoding: 'utf8' });
    expect(exported.split('\n').filter((line) => / (EVP_|OPENSSL_|CRYPTO_)/.test(line))).toEqual([]);
  });

  it('says in engineInfo which library it carries, and passes its crypto self-test', () => {
    const addon = requireNativeAddon();
    const info = addon.engineInfo();
    expect(info.crypto).toMatchObject({ backend: 'OpenSSL', linkage: 'static' });
    expect(info.crypto.version).toMatch(/^OpenSSL 3\./);
    expect(addon.cryptoSelfTest().ok).toBe(true);
  });

  it('crypto-config finds the static library, and SDKPP_CRYPTO=host turns it off', () => {
    const config = (env: Record<string, string>): string =>
      execFileSync(process.execPath, ['scripts/crypto-config.mjs', 'exists'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
    expect(config({})).toBe('true');
    expect(config({ SDKPP_CRYPTO: 'host' })).toBe('false');
  });
});

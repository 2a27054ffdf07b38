import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { engineSeenIn } from './hostEngine.js';

// Deno loads Node-API addons too (its own V8 and crypto, no OpenSSL exported): the same engine check as Bun's,
// with Deno's binary from its registry package (a devDependency), on the package's built dist/.
const require = createRequire(import.meta.url);
const deno = path.join(path.dirname(require.resolve('@deno/linux-x64-glibc/package.json')), 'deno');

describe('Deno as a host', () => {
  it('loads the native engine from dist/, with the crypto it carries, and passes the self-test', async () => {
    expect(existsSync(deno)).toBe(true);
    const seen = await engineSeenIn(deno, ['eval', '--node-modules-dir=manual'], 'Deno', {
      ...process.env,
      DENO_NO_UPDATE_CHECK: '1',
      NO_COLOR: '1',
    });
    expect(seen).toMatchObject({
      runtime: 'object',
      engine: 'native',
      crypto: { backend: 'OpenSSL', linkage: 'static' },
      selfTest: true,
    });
  });
});

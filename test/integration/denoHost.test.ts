import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

// Deno loads Node-API addons too (its own V8 and crypto, no OpenSSL exported): the same engine check as Bun's,
// with Deno's binary from its registry package (a devDependency), on the package's built dist/.
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const deno = path.join(path.dirname(require.resolve('@deno/linux-x64-glibc/package.json')), 'deno');

describe('Deno as a host', () => {
  it('loads the native engine from dist/, with the crypto it carries, and passes the self-test', async () => {
    expect(existsSync(deno)).toBe(true);
    const script = `
      const { Client } = await import(${JSON.stringify(path.resolve('dist/index.js'))});
      const client = new Client({ localClient: false });
      const info = client.getMediaEngineInfo();
      console.log(JSON.stringify({ runtime: typeof Deno, engine: info.engine, crypto: info.crypto, selfTest: client.runMediaSelfTest().ok }));
      await client.destroy();`;
    const { stdout } = await run(deno, ['eval', '--node-modules-dir=manual', script], {
      timeout: 60_000,
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    });
    const seen = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(seen).toMatchObject({
      runtime: 'object',
      engine: 'native',
      crypto: { backend: 'OpenSSL', linkage: 'static' },
      selfTest: true,
    });
  });
});

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('npm run demo', () => {
  it('links two players, reaches Ready, and exits 0 by itself', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/demo/main.ts'], {
      timeout: 30_000,
    });
    expect(stdout).toMatch(/\[alice\]\s+Ready: signed in as Alice/);
    expect(stdout).toMatch(/\[bob\]\s+Ready: signed in as Bob/);
    expect(stdout).toMatch(/\[demo\]\s+done/);
    // The demo prints progress, never credentials.
    expect(stdout).not.toMatch(/access_token|refresh_token|code=|Bearer /);
  });
});

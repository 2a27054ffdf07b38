import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runSnippet, writeRunConfig } from './snippetRunner.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
// Inside the repository, as the guide test's snippets are, so tsx and its config resolve the same way.
mkdirSync(path.join(REPO_ROOT, '.guide-snippets'), { recursive: true });
const dir = mkdtempSync(path.join(REPO_ROOT, '.guide-snippets', 'runner-'));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('runSnippet', () => {
  it('a snippet that hangs is stopped at the timeout, and says what it was waiting on', async () => {
    const file = path.join(dir, 'hang.ts');
    writeFileSync(
      file,
      "import { createServer } from 'node:net';\n" +
        "createServer().listen(0, '127.0.0.1');\n" +
        "console.log('listening');\n",
    );
    const run = await runSnippet(file, REPO_ROOT, writeRunConfig(REPO_ROOT, dir), 2000);
    expect(run.timedOut).toBe(true);
    expect(run.stdout).toBe('listening\n');
    expect(run.stderr).toMatch(/--- timed out ---/);
    expect(run.stderr).toMatch(
      /active handles: .*tcp \{"host":"localhost","ip4":"127\.0\.0\.1","port":\d+\}/,
    );
  });
});

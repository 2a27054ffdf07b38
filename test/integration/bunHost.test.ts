import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterAll, describe, expect, it } from 'vitest';

import { startEmulator } from '../../packages/emulator/src/index.js';
import { engineSeenIn } from './hostEngine.js';
import { expectHeardEachOther, speechFile } from './voiceSampleRuns.js';

// Bun is the second host the package promises that can be tested here: like Electron it carries BoringSSL and
// exports no OpenSSL, so the native addon runs in it only because it carries its own crypto. It comes from the
// registry package that holds its binary (a devDependency); the tests run the package's built dist/.
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const bun = path.join(path.dirname(require.resolve('@oven/bun-linux-x64/package.json')), 'bin', 'bun');
/** The threshold of the other speech-through-a-call tests. */
const HEARD = 0.9;

const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-bun-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('Bun as a host', () => {
  it('loads the native engine from dist/, with the crypto it carries, and passes the self-test', async () => {
    expect(existsSync(bun)).toBe(true);
    const seen = await engineSeenIn(bun, ['-e'], 'Bun');
    expect(seen).toMatchObject({
      runtime: 'object',
      engine: 'native',
      crypto: { backend: 'OpenSSL', linkage: 'static' },
      selfTest: true,
    });
  });

  it('carries an end-to-end encrypted call with a Node process both ways', async () => {
    const emulator = await startEmulator({ users: 2, rpc: false });
    try {
      const alice = await speechFile(dir, 'alice.wav', 'Alice speaking from the Bun process. Over.', 'en-us');
      const bob = await speechFile(dir, 'bob.wav', 'Bob answering from the Node process.', 'en-us+m3');
      const common = [
        '--emulator',
        emulator.http,
        '--app-id',
        emulator.applicationId,
        '--lobby-secret',
        'bun',
      ];
      const aliceRecord = path.join(dir, 'alice-heard.wav');
      const bobRecord = path.join(dir, 'bob-heard.wav');
      const sample = 'examples/voice-call/main.ts';
      const [aliceRun, bobRun] = await Promise.all([
        run(bun, [sample, ...common, '--user', 'alice', '--play', alice.file, '--record', aliceRecord], {
          timeout: 90_000,
        }),
        new Promise((resolve) => setTimeout(resolve, 500)).then(() =>
          run(
            process.execPath,
            [
              '--import',
              'tsx',
              sample,
              ...common,
              '--user',
              'bob',
              '--play',
              bob.file,
              '--record',
              bobRecord,
            ],
            { timeout: 90_000 },
          ),
        ),
      ]);
      expectHeardEachOther(
        { run: aliceRun, played: alice, record: aliceRecord },
        { run: bobRun, played: bob, record: bobRecord },
        HEARD,
      );
    } finally {
      await emulator.close();
    }
  }, 120_000);

  it('runs the demo on the native engine', async () => {
    const { stdout } = await run(bun, ['examples/demo/main.ts'], { timeout: 110_000 });
    expect(stdout).toMatch(/\[media\]\s+native engine .*crypto OpenSSL 3.*\(carried in the addon\)/);
    expect(stdout).toMatch(/crypto self-test .*: passed/);
    expect(stdout).toMatch(/heard Alice: correlation 0\.9\d/);
    expect(stdout).toMatch(/\[demo\]\s+done/);
  }, 120_000);
});

/**
 * A game whose sdkpp has no native addon (its install script skipped or failed) is told so without any
 * setup: the JS engine fallback is a process warning on stderr, once per process, with the command that
 * builds the addon. The package is laid out as npm installs it (node_modules/sdkpp with dist/ and no build),
 * and a child process imports it as a game would.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = process.cwd();
/** The SDK package's folder, what a game installs. */
const SDK = path.join(REPO, 'packages', 'sdkpp');

let game = '';

beforeAll(() => {
  game = mkdtempSync(path.join(tmpdir(), 'sdkpp-game-'));
  const installed = path.join(game, 'node_modules', 'sdkpp');
  mkdirSync(installed, { recursive: true });
  // package.json and dist/ (built by `npm test`), no build/ and no prebuilds/: the addon is unavailable.
  for (const entry of ['package.json', 'dist']) {
    cpSync(path.join(SDK, entry), path.join(installed, entry), { recursive: true });
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(installed, 'node_modules'));
});

afterAll(() => {
  if (game !== '') rmSync(game, { recursive: true, force: true });
});

describe('the JS engine fallback', () => {
  it('is a process warning on stderr, once per process, naming the reason and the fixing command', async () => {
    // Three engines asked for in three ways, one of them by a client with no log callback.
    const script = `
      const { Client, createMediaEngine, getMediaEngineInfo } = await import('sdkpp');
      const engines = [createMediaEngine().info.engine, createMediaEngine().info.engine, getMediaEngineInfo().engine];
      const client = new Client();
      engines.push(client.getMediaEngineInfo().engine);
      await client.destroy();
      console.log(JSON.stringify(engines));`;
    const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: game,
      timeout: 15_000,
    });
    expect(JSON.parse(stdout.trim())).toEqual(['js', 'js', 'js', 'js']);
    const warnings = stderr.split('\n').filter((line) => line.includes('[SDKPP_JS_ENGINE]'));
    expect(warnings).toHaveLength(1);
    const [warning] = warnings;
    expect(warning).toMatch(
      /^\(node:\d+\) \[SDKPP_JS_ENGINE\] Warning: sdkpp: using the JS media engine because the native addon is not built/,
    );
    expect(warning).toContain(path.join(game, 'node_modules', 'sdkpp', 'build', 'Release'));
    expect(warning).toContain(
      'For the faster native engine, run `npm install-scripts approve sdkpp && npm rebuild sdkpp` in your project',
    );
    expect(warning).toContain('python3, make and a C++17 compiler');
  });
});

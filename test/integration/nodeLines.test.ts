import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { engineSeenIn, lineNode } from './foreignHost.js';
import { expectDemoHeardEachOther } from './voiceSampleRuns.js';

// Every supported Node line, not only the one the suite runs on (scripts/test.mjs): the registry's Linux x64
// Nodes of scripts/node-versions.mjs load the native engine this checkout built (`npm install` built it once,
// on whichever Node that was: Node-API needs no rebuild per line) and run the demo from start to end.
const LINES = [22, 24, 26] as const;
/** The suite's own line runs the demo in demo.test.ts. */
const OTHER_LINES = LINES.filter((major) => major !== Number(process.versions.node.split('.')[0]));

const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-lines-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.each(LINES)('Node %i', (major) => {
  it('loads the native engine this checkout built and passes every self-test', async () => {
    const node = await lineNode(major);
    const seen = await engineSeenIn(node);
    expect(seen).toMatchObject({
      platform: 'linux-x64',
      engine: 'native',
      crypto: { backend: 'OpenSSL', version: expect.stringMatching(/^OpenSSL 3\./) as unknown },
      codec: { name: 'libopus' },
      fallbackReason: null,
      sameAsDefault: true,
      selfTests: { crypto: [], transport: [], dave: [], audio: [] },
    });
    const { stdout } = await node.run(['--version']);
    expect(stdout.trim()).toMatch(new RegExp(`^v${major}\\.`));
  }, 120_000);
});

describe.each(OTHER_LINES)('Node %i', (major) => {
  it('runs the demo on the native engine, from sign-in to the encrypted call', async () => {
    const node = await lineNode(major);
    const output = path.join(dir, `demo-${major}`);
    const tsx = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;
    // About 20 s; the bound leaves room for a loaded machine.
    const { stdout } = await node.run(['--import', tsx, 'examples/demo/main.ts', '--output', output], {
      timeout: 110_000,
    });
    expect(stdout).toMatch(/\[media\]\s+native engine .*crypto OpenSSL 3.*\(carried in the addon\)/);
    expect(stdout).toMatch(/crypto self-test .*: passed/);
    expect(stdout).toMatch(/\[alice\]\s+in a voice call with bob: end-to-end encrypted/);
    expectDemoHeardEachOther(stdout, 0.9);
    expect(statSync(path.join(output, 'bob-hears.wav')).size).toBeGreaterThan(48_000);
    expect(stdout).toMatch(/\[demo\]\s+done/);
  }, 120_000);
});

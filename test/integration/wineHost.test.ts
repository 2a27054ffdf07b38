import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { callWithLinuxNode, engineSeenIn, foreignNode, type ForeignNode } from './foreignHost.js';

// The Windows x64 prebuild, run where a game on Windows runs it: the registry's Windows Node under wine on
// this Linux machine (scripts/cross/hosts.mjs), importing the package's built dist/. Node 22, not 24: see
// FOREIGN_NODES in hosts.mjs for why wine 8 cannot start Node 24; the addon is Node-API either way.
const PREBUILD = 'prebuilds/win32-x64/sdkpp.node';
/**
 * The threshold of the other speech-through-a-call tests (bunHost.test.ts, voiceCallSample.test.ts): wine
 * runs the Windows engine at native speed, and measured 0.93–0.95 each way here.
 */
const HEARD = 0.9;
/** The first run on a fresh machine installs wine (apt-get), fetches node.exe and makes the wine prefix. */
const SETUP_MS = 600_000;

const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-wine-'));
let wine: ForeignNode;
beforeAll(async () => {
  wine = await foreignNode('wine');
}, SETUP_MS);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The native engine from the Windows prebuild, with the crypto and codec it carries, every self-test passed. */
const NATIVE_FROM_PREBUILD = {
  platform: 'win32-x64',
  engine: 'native',
  crypto: {
    backend: 'OpenSSL',
    version: expect.stringMatching(/^OpenSSL 3\./) as unknown,
    linkage: 'static',
  },
  codec: { name: 'libopus', version: expect.stringMatching(/^libopus 1\.4/) as unknown },
  addon: { file: PREBUILD, origin: 'prebuild' },
  fallbackReason: null,
  sameAsDefault: true,
  selfTests: { crypto: [], transport: [], dave: [], audio: [] },
  countsAllocations: true,
};

describe('Windows Node (wine) as a host', () => {
  it('loads the native engine from the win32-x64 prebuild, with the crypto it carries, and passes the self-tests', async () => {
    expect(
      existsSync(PREBUILD),
      `${PREBUILD} is built by npm run native:prebuild -- --target win32-x64`,
    ).toBe(true);
    const seen = await engineSeenIn(wine);
    expect(seen).toMatchObject({ ...NATIVE_FROM_PREBUILD, executable: 'node.exe' });
  }, 90_000);

  it('loads the same addon in a host not named node.exe (a game.exe)', async () => {
    // An addon that imported its Node-API functions from node.exe by name would look for node.exe beside
    // game.exe and fail to load; the delay-load hook binds them to whatever executable the process runs.
    expect(existsSync(PREBUILD)).toBe(true);
    const game = path.join(mkdtempSync(path.join(dir, 'game-')), 'game.exe');
    copyFileSync(wine.nodeExe ?? '', game);
    const seen = await engineSeenIn(wine, { executable: game });
    expect(seen).toMatchObject({ ...NATIVE_FROM_PREBUILD, executable: 'game.exe' });
  }, 90_000);

  it('carries an end-to-end encrypted call with a Linux Node both ways', async () => {
    // About 25 s (each side's run about 23 s); the bounds leave room for a loaded machine.
    await callWithLinuxNode(wine, dir, { heard: HEARD, timeout: 120_000 });
  }, 180_000);
});

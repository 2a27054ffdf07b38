import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

// scripts/patch-ts-mls.mjs, run as the install script in a scratch layout: sdkpp as a repository checkout,
// and sdkpp as a dependency of an app. A ts-mls it cannot patch fails the repository's install (exit 1) and
// only warns in an app's install, always with the reason on stderr.

const SCRIPT = path.resolve('packages/protocol/scripts/patch-ts-mls.mjs');
const TS_MLS = path.resolve('node_modules/ts-mls');
let scratch: string;
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** A package folder named sdkpp with the script and a copy of ts-mls it resolves. */
function layout(kind: 'repository' | 'dependency'): { root: string; tsMls: string } {
  scratch = mkdtempSync(path.join(tmpdir(), 'sdkpp-patch-'));
  const root =
    kind === 'repository' ? path.join(scratch, 'sdkpp') : path.join(scratch, 'app', 'node_modules', 'sdkpp');
  mkdirSync(path.join(root, 'scripts'), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), '{"name":"sdkpp","type":"module"}');
  cpSync(SCRIPT, path.join(root, 'scripts', 'patch-ts-mls.mjs'));
  const tsMls =
    kind === 'repository'
      ? path.join(root, 'node_modules', 'ts-mls')
      : path.join(scratch, 'app', 'node_modules', 'ts-mls');
  cpSync(path.join(TS_MLS, 'package.json'), path.join(tsMls, 'package.json'));
  cpSync(path.join(TS_MLS, 'dist'), path.join(tsMls, 'dist'), { recursive: true });
  return { root, tsMls };
}

function run(root: string): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'patch-ts-mls.mjs')], {
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

/** The patched copy's dist/src (the one folder under .sdkpp-ts-mls, named `<version>-<patch set>`). */
function entry(root: string): string {
  const copies = path.join(root, 'node_modules', '.sdkpp-ts-mls');
  const [copy, ...others] = existsSync(copies) ? readdirSync(copies) : [];
  if (copy === undefined || others.length > 0) return path.join(copies, 'missing');
  return path.join(copies, copy, 'dist', 'src');
}

describe('patch-ts-mls', () => {
  it('writes the patched copy, with the interop fixes and the speed patches, and leaves ts-mls alone', () => {
    const { root, tsMls } = layout('dependency');
    expect(run(root)).toEqual({ status: 0, stderr: '' });
    const clientState = readFileSync(path.join(entry(root), 'clientState.js'), 'utf8');
    expect(clientState).toContain('grouped[defaultProposalTypes.remove]).length > 0;');
    expect(readFileSync(path.join(entry(root), 'extension.js'), 'utf8')).toContain(
      'varLenTypeDecoder(externalSenderDecoder)',
    );
    expect(readFileSync(path.join(entry(root), 'treeHash.js'), 'utf8')).toContain('sdkppTreeHashes');
    expect(readFileSync(path.join(entry(root), 'leafNode.js'), 'utf8')).toContain('sdkppLeafNodeBytes');
    // Issue 35's: one byte view per output buffer, KDF labels encoded once, zeroing without a random fill,
    // nothing gathered for a dropped epoch.
    for (const file of ['codec/number.js', 'codec/optional.js', 'codec/variableLength.js']) {
      const text = readFileSync(path.join(entry(root), file), 'utf8');
      expect(text).not.toMatch(/new (DataView|Uint8Array)\(buffer\)/);
      expect(text).toMatch(/sdkpp(View|Bytes)Of\(buffer\)/);
    }
    expect(readFileSync(path.join(entry(root), 'crypto/kdf.js'), 'utf8')).toContain('sdkppLabels');
    expect(readFileSync(path.join(entry(root), 'util/byteArray.js'), 'utf8')).not.toContain(
      'getRandomValues(buf)',
    );
    expect(clientState).not.toContain('toBeDeleted.push(...allSecretTreeValues');
    expect(readFileSync(path.join(tsMls, 'dist', 'src', 'clientState.js'), 'utf8')).toContain(
      'grouped[defaultProposalTypes.remove]).length > 1;',
    );
  });

  it('in the repository, a patch that no longer applies fails the install', () => {
    const { root, tsMls } = layout('repository');
    const file = path.join(tsMls, 'dist', 'src', 'clientState.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('remove]).length > 1', 'remove]).length >= 2'));
    const { status, stderr } = run(root);
    expect(status).toBe(1);
    expect(stderr).toMatch(/no longer applies: dist\/src\/clientState\.js/);
    expect(existsSync(entry(root))).toBe(false);
  });

  it('as a dependency, another ts-mls version warns and lets the install go on', () => {
    const { root, tsMls } = layout('dependency');
    const file = path.join(tsMls, 'package.json');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"version": "2.0.0-rc.10"', '"version": "2.0.0-rc.16"'),
    );
    const { status, stderr } = run(root);
    expect(status).toBe(0);
    expect(stderr).toMatch(/ts-mls 2\.0\.0-rc\.16 is installed/);
    expect(stderr).toMatch(/installing anyway/);
    expect(existsSync(entry(root))).toBe(false);
  });
});

/**
 * The SDK and the emulator as two packages: what each tarball carries (`npm pack` of the built packages), the
 * emulator's own `sdkpp-emulator` command, and `sdkpp emulator`, the SDK's forwarder to it, in a game that
 * installed only the SDK and in one that installed both.
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'sdkpp-two-packages-'));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

interface Packed {
  files: { path: string }[];
  entryCount: number;
}

/** What `npm pack` would put in a package's tarball (the dist/ `npm test` built; no prepack). */
async function packed(folder: string): Promise<string[]> {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], {
    cwd: path.join(REPO, folder),
    maxBuffer: 16 * 1024 * 1024,
  });
  const [result] = JSON.parse(stdout) as [Packed];
  return result.files.map((file) => file.path);
}

function manifest(folder: string): { dependencies: Record<string, string>; bin?: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(REPO, folder, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    bin?: Record<string, string>;
  };
}

/**
 * A game's folder with the built packages `names` in its node_modules, as npm installs them (each package's
 * package.json and dist/), and the third-party dependencies linked from this repository's.
 */
function game(name: string, packages: Record<string, string>): string {
  const dir = path.join(scratch, name);
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true }));
  for (const [packageName, folder] of Object.entries(packages)) {
    const installed = path.join(modules, packageName);
    mkdirSync(installed, { recursive: true });
    for (const entry of ['package.json', 'dist', 'scripts']) {
      cpSync(path.join(REPO, folder, entry), path.join(installed, entry), { recursive: true });
    }
    for (const dependency of Object.keys(manifest(folder).dependencies)) {
      if (dependency in packages) continue;
      const target = path.join(modules, dependency);
      if (existsSync(target)) continue; // linked already, for another of the packages
      mkdirSync(path.dirname(target), { recursive: true });
      symlinkSync(path.join(REPO, 'node_modules', dependency), target, 'dir');
    }
  }
  return dir;
}

describe('two packages', () => {
  it("the SDK's tarball carries no emulator, fuzz or native-test file, and no dependency only the emulator uses", async () => {
    const files = await packed('packages/sdkpp');
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/media.js');
    expect(files).toContain('dist/voice.js');
    expect(files).toContain('native/core/dave/encryptor.cc');
    expect(files.filter((file) => /^native\/(fuzz|test)\//.test(file))).toEqual([]);
    expect(files.filter((file) => /emulator|dashboard/i.test(file))).toEqual([]);
    // No emulator code bundled into a chunk either: its entry point's name is nowhere in the JavaScript.
    for (const file of files.filter((f) => /^dist\/.*\.(c?js)$/.test(f))) {
      expect(readFileSync(path.join(REPO, 'packages/sdkpp', file), 'utf8'), file).not.toContain(
        'function startEmulator',
      );
    }
    const sdk = manifest('packages/sdkpp');
    expect(Object.keys(sdk.dependencies)).not.toContain('@fastify/busboy');
    expect(Object.keys(sdk.dependencies)).not.toContain('zod');
    expect(Object.keys(sdk.dependencies)).not.toContain('@sdkpp/emulator');
    expect(sdk.dependencies['@sdkpp/protocol']).toBeDefined();
  }, 60_000);

  it("the emulator's tarball carries its command, its dashboard script and its declarations", async () => {
    const files = await packed('packages/emulator');
    for (const file of [
      'dist/cli.js',
      'dist/cliMain.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/dashboard/app.js',
    ])
      expect(files).toContain(file);
    expect(manifest('packages/emulator').bin).toEqual({ 'sdkpp-emulator': './dist/cli.js' });
    expect(Object.keys(manifest('packages/emulator').dependencies)).toEqual(
      expect.arrayContaining(['@fastify/busboy', 'sdkpp', '@sdkpp/protocol']),
    );
  }, 60_000);

  it('sdkpp-emulator prints its version and usage, and serves', async () => {
    const bin = path.join(REPO, 'packages/emulator/dist/cli.js');
    const version = await run(process.execPath, [bin, '--version']);
    expect(version.stdout.trim()).toBe(
      (
        JSON.parse(readFileSync(path.join(REPO, 'packages/emulator/package.json'), 'utf8')) as {
          version: string;
        }
      ).version,
    );
    const usage = await run(process.execPath, [bin, 'help', 'exec']);
    expect(usage.stdout).toContain('Usage: sdkpp emulator exec');
    // exec: a fresh emulator, a command run against it (which reads the address it was given), then the stop.
    const probe = `fetch(process.env.SDKPP_EMULATOR_HTTP + '/emulator.json').then((r) => r.json()).then((j) => console.log(j.applicationId))`;
    const served = await run(process.execPath, [
      bin,
      'exec',
      '--port',
      '0',
      '--',
      process.execPath,
      '-e',
      probe,
    ]);
    expect(served.stdout.trim()).toMatch(/^\d{17,20}$/);
  }, 60_000);

  it('sdkpp emulator, in a game with only the SDK installed, says how to install the emulator', async () => {
    const dir = game('sdk-only', { sdkpp: 'packages/sdkpp', '@sdkpp/protocol': 'packages/protocol' });
    const cli = path.join(dir, 'node_modules/sdkpp/dist/cli.js');
    const failed = await run(process.execPath, [cli, 'emulator', '--port', '0'], { cwd: dir }).then(
      () => null,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('npm install --save-dev @sdkpp/emulator');
    const help = await run(process.execPath, [cli, '--help'], { cwd: dir });
    expect(help.stdout).toContain('emulator        start the local platform emulator');
  }, 60_000);

  it('sdkpp emulator, in a game with both installed, runs the emulator the game installed', async () => {
    const dir = game('both', {
      sdkpp: 'packages/sdkpp',
      '@sdkpp/protocol': 'packages/protocol',
      '@sdkpp/emulator': 'packages/emulator',
    });
    const cli = path.join(dir, 'node_modules/sdkpp/dist/cli.js');
    const usage = await run(process.execPath, [cli, 'help', 'emulator', 'call'], { cwd: dir });
    expect(usage.stdout).toContain('Usage: sdkpp emulator call');
    const probe = `fetch(process.env.SDKPP_EMULATOR_HTTP + '/emulator.json').then((r) => r.json()).then((j) => console.log(j.users.length))`;
    const served = await run(
      process.execPath,
      [cli, 'emulator', 'exec', '--port', '0', '--users', '3', '--', process.execPath, '-e', probe],
      { cwd: dir },
    );
    expect(served.stdout.trim()).toBe('3');
  }, 60_000);
});

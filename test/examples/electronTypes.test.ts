/**
 * The Electron sample cannot run here (no Electron binary can be fetched), so its type check is what keeps
 * main, preload and renderer honest: against Electron's real `electron.d.ts` (fetched by
 * scripts/electron-types.mjs) and the DOM. The check must also fail when a type error is introduced, which
 * proves `electron` is not resolving to `any`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const sample = join(root, 'examples/electron');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const MAIN_CONFIG = join(sample, 'tsconfig.json');
const RENDERER_CONFIG = join(sample, 'src/renderer/tsconfig.json');

function run(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: root, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, output: `${stdout}${stderr}` });
    });
  });
}

let scratch: string;

/** A tsconfig in the scratch directory that checks `source` under the settings of `base`. */
function brokenProject(base: string, name: string, source: string): string {
  const file = join(scratch, `${name}.ts`);
  writeFileSync(file, source);
  const config = join(scratch, `${name}.tsconfig.json`);
  // Type roots are looked up from the config's own folder; this one lives outside the repository.
  const typeRoots = [join(root, 'node_modules/@types')];
  writeFileSync(
    config,
    JSON.stringify({ extends: base, compilerOptions: { typeRoots }, files: [file], include: [] }),
  );
  return config;
}

/** An import specifier from the scratch directory to a file of the sample. */
function from(file: string): string {
  return relative(scratch, join(sample, file)).split('\\').join('/');
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'sdkpp-electron-types-test-'));
  const fetched = await run(['scripts/electron-types.mjs', '--quiet']);
  expect(fetched.output).toBe('');
  expect(fetched.code).toBe(0);
}, 60_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('Electron sample: type check against electron.d.ts', () => {
  it('main process and preload typecheck', async () => {
    const result = await run([tsc, '-p', MAIN_CONFIG]);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('renderer typechecks with the DOM library', async () => {
    const result = await run([tsc, '-p', RENDERER_CONFIG]);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('fails on a misuse of the Electron API', async () => {
    const config = brokenProject(
      MAIN_CONFIG,
      'mainBroken',
      [
        "import { app, BrowserWindow } from 'electron';",
        'app.enableSandboxes();',
        "new BrowserWindow({ webPreferences: { contextIsolation: 'yes' } });",
        '',
      ].join('\n'),
    );
    const result = await run([tsc, '-p', config]);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/mainBroken\.ts\(2,\d+\): error TS2551: Property 'enableSandboxes'/);
    expect(result.output).toMatch(/mainBroken\.ts\(3,\d+\): error TS2322/);
  }, 120_000);

  it('fails when the renderer calls the bridge with the wrong types', async () => {
    const config = brokenProject(
      RENDERER_CONFIG,
      'rendererBroken',
      [
        `import type { SdkppApi } from '${from('src/shared/api.js')}';`,
        'declare const api: SdkppApi;',
        "void api.sendMessage(42, 'hi');",
        'void api.launchMissiles();',
        "document.getElementById('x')?.notAnElementMember;",
        '',
      ].join('\n'),
    );
    const result = await run([tsc, '-p', config]);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/rendererBroken\.ts\(3,\d+\): error TS2345/);
    expect(result.output).toMatch(/rendererBroken\.ts\(4,\d+\): error TS2339: Property 'launchMissiles'/);
    expect(result.output).toMatch(/rendererBroken\.ts\(5,\d+\): error TS2339: Property 'notAnElementMember'/);
  }, 120_000);
});

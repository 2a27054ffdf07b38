/**
 * The published type declarations, as a strict TypeScript game sees them: the packed tarball (`npm pack`) is
 * installed into a scratch project outside the repository — its files unpacked into node_modules/sdkpp, as
 * npm does with install scripts off — next to sdkpp's runtime dependencies, `typescript` and `@types/node`
 * (linked from this repository's node_modules, so nothing is downloaded) and nothing else: no devDependency
 * such as `@types/ws`. An ES module and a CommonJS module import every entry point, and `tsc --strict` checks
 * them together with every declaration file they reach (skipLibCheck off).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');

let consumer = '';

/** What the consumer project's modules do with the package: enough to reach every public declaration. */
const USES = `
const verifier = createAuthorizationCodeVerifier();
const client: Client = new Client({ applicationId: '1' });
const scopes: string = Client.getDefaultCommunicationScopes();
const emulator: Promise<Emulator> = startEmulator({ users: 1 });
const speech: Promise<SpeechAudio> = synthesizeSpeech('hello');
const backend: typeof GameBackend = GameBackend;
const args: typeof bindings.AuthorizationArgs = bindings.AuthorizationArgs;
export const used = [verifier.verifier, client, scopes, emulator, speech, backend, args];
`;

const IMPORTS = `
import { Client, createAuthorizationCodeVerifier } from 'sdkpp';
import { startEmulator, synthesizeSpeech, type Emulator, type SpeechAudio } from 'sdkpp/emulator';
import * as bindings from 'sdkpp/bindings';
import { GameBackend } from 'sdkpp/backend';
`;

/** Links a package from this repository's node_modules into the consumer's. */
function link(name: string): void {
  const target = path.join(consumer, 'node_modules', name);
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules', name), target, 'dir');
}

beforeAll(async () => {
  consumer = mkdtempSync(path.join(tmpdir(), 'sdkpp-consumer-'));
  // The tarball as published (prepare is not run: dist/ is the one `npm test` just built).
  const { stdout } = await run(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', consumer],
    { cwd: REPO, maxBuffer: 16 * 1024 * 1024 },
  );
  const [packed] = JSON.parse(stdout) as [{ filename: string }];
  const installed = path.join(consumer, 'node_modules', 'sdkpp');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', path.join(consumer, packed.filename), '-C', installed, '--strip-components=1']);

  const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const name of [...Object.keys(manifest.dependencies), 'typescript', '@types/node']) link(name);

  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'game', private: true }));
  writeFileSync(
    path.join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2023'],
        types: ['node'],
      },
      files: ['game.mts', 'game.cts'],
    }),
  );
  writeFileSync(path.join(consumer, 'game.mts'), `${IMPORTS}${USES}`);
  writeFileSync(path.join(consumer, 'game.cts'), `${IMPORTS}${USES}`);
}, 60_000);

afterAll(() => {
  if (consumer !== '') rmSync(consumer, { recursive: true, force: true });
});

describe('published types', () => {
  it('type-check in a strict ESM and CommonJS consumer with only the runtime dependencies installed', async () => {
    const tsc = path.join(consumer, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--listFilesOnly'], {
      cwd: consumer,
    });
    // Both module kinds reached the package's declarations (.d.ts for import, .d.cts for require).
    expect(result.stdout).toMatch(/node_modules\/sdkpp\/dist\/index\.d\.ts/);
    expect(result.stdout).toMatch(/node_modules\/sdkpp\/dist\/index\.d\.cts/);
    // tsc prints its errors on stdout and exits 1; the expected output of a clean check is nothing.
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer }).then(
      () => '',
      (error: unknown) => (error as { stdout?: string }).stdout ?? (error as Error).message,
    );
    expect(checked).toBe('');
  }, 60_000);
});

/**
 * The published type declarations, as a strict TypeScript game sees them: the packed tarballs (`npm pack` of
 * sdkpp, @sdkpp/emulator and @sdkpp/protocol) are installed into a scratch project outside the repository —
 * their files unpacked into node_modules, as npm does with install scripts off — next to sdkpp's runtime dependencies, `typescript` and `@types/node`
 * (linked from this repository's node_modules, so nothing is downloaded) and nothing else: no devDependency
 * such as `@types/ws`. An ES module and a CommonJS module import every entry point, and `tsc --strict` checks
 * them together with every declaration file they reach (skipLibCheck off). The same modules are checked
 * again with README's minimal consumer tsconfig, under this repository's TypeScript 5.x and under TypeScript 7
 * (what `npm i -D typescript` installs now), whose defaults include `types: []`: the declarations must
 * reference what they need themselves (scripts/declaration-references.mjs). TypeScript 7 is a native compiler:
 * the `typescript` 7 package is a launcher for the platform package's executable, which the test takes from
 * the npm registry (pinned, into the cross cache) and runs directly, so the repository's own `tsc` stays 5.x.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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
const connection: typeof VoiceConnection = VoiceConnection;
export const used = [verifier.verifier, client, scopes, emulator, speech, backend, args, connection];
`;

const IMPORTS = `
import { Client, createAuthorizationCodeVerifier } from 'sdkpp';
import { startEmulator, synthesizeSpeech, type Emulator, type SpeechAudio } from '@sdkpp/emulator';
import * as bindings from 'sdkpp/bindings';
import { GameBackend } from 'sdkpp/backend';
import { VoiceConnection } from 'sdkpp/voice';
`;

/** Links a package from this repository's node_modules (`from`, default `name`) into the consumer's. */
function link(name: string, from = name): void {
  const target = path.join(consumer, 'node_modules', name);
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules', from), target, 'dir');
}

/**
 * README's minimal consumer tsconfig (section "TypeScript"): nothing but the module system and noEmit, so
 * every other setting is the compiler's default; skipLibCheck is off by default.
 */
const MINIMAL_TSCONFIG = {
  compilerOptions: { module: 'nodenext', noEmit: true },
  files: ['game.mts', 'game.cts'],
};

/** The TypeScript 7 compiler for Linux x64, the executable its `typescript` launcher package would start. */
const TYPESCRIPT_7 = {
  npmPackage: '@typescript/typescript-linux-x64@7.0.2',
  integrity:
    'sha512-EYdf2cNg7rgCWJnxCdJ+F3V39O8ihb37eHAu1LK8oAFizgTQbPOK7zHHXbPt8rX24COqODXeI3sIf0fCXG7H/A==',
};

/** The command line of a compiler: this repository's TypeScript 5.x (`tsc` on Node) or TypeScript 7. */
async function compiler(which: '5' | '7'): Promise<[string, string[]]> {
  if (which === '5')
    return [process.execPath, [path.join(consumer, 'node_modules', 'typescript', 'bin', 'tsc')]];
  const cache = (await import(
    pathToFileURL(path.join(REPO, 'packages/sdkpp/scripts/cross/cache.mjs')).href
  )) as {
    cachedPackage(source: typeof TYPESCRIPT_7): string;
  };
  return [path.join(cache.cachedPackage(TYPESCRIPT_7), 'lib', 'tsc'), []];
}

/** Runs `tsc -p <config>` of TypeScript `which` in the consumer; resolves with its errors. */
async function typeErrors(which: '5' | '7', config: string): Promise<string> {
  const [command, args] = await compiler(which);
  // tsc prints its errors on stdout and exits 1; the expected output of a clean check is nothing.
  return run(command, [...args, '-p', config], { cwd: consumer }).then(
    () => '',
    (error: unknown) => (error as { stdout?: string }).stdout ?? (error as Error).message,
  );
}

beforeAll(async () => {
  consumer = mkdtempSync(path.join(tmpdir(), 'sdkpp-consumer-'));
  // The three tarballs as published (prepare is not run: each dist/ is the one `npm test` just built), each
  // unpacked where npm puts it; the other runtime dependencies are linked from this repository's.
  const ours = new Map([
    ['@sdkpp/protocol', 'packages/protocol'],
    ['sdkpp', 'packages/sdkpp'],
    ['@sdkpp/emulator', 'packages/emulator'],
  ]);
  const dependencies = new Set<string>();
  for (const [name, folder] of ours) {
    const { stdout } = await run(
      'npm',
      ['pack', '--ignore-scripts', '--json', '--pack-destination', consumer],
      { cwd: path.join(REPO, folder), maxBuffer: 16 * 1024 * 1024 },
    );
    const [packed] = JSON.parse(stdout) as [{ filename: string }];
    const installed = path.join(consumer, 'node_modules', name);
    mkdirSync(installed, { recursive: true });
    await run('tar', ['-xzf', path.join(consumer, packed.filename), '-C', installed, '--strip-components=1']);
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const dependency of Object.keys(manifest.dependencies)) dependencies.add(dependency);
  }
  for (const name of [...dependencies, 'typescript', '@types/node']) if (!ours.has(name)) link(name);

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
  writeFileSync(path.join(consumer, 'tsconfig.minimal.json'), JSON.stringify(MINIMAL_TSCONFIG));
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
    expect(await typeErrors('5', 'tsconfig.json')).toBe('');
  }, 60_000);

  it.each([
    ['5', /^Version 5\./],
    ['7', /^Version 7\./],
  ] as const)(
    'type-check under TypeScript %s with its defaults (README’s minimal tsconfig, no `types`)',
    async (which, version) => {
      const [command, args] = await compiler(which);
      const { stdout } = await run(command, [...args, '--version'], { cwd: consumer });
      expect(stdout.trim()).toMatch(version);
      expect(await typeErrors(which, 'tsconfig.minimal.json')).toBe('');
    },
    120_000,
  );
});

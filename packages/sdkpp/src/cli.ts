#!/usr/bin/env node
/**
 * The `sdkpp` command line. Its one command, `emulator`, belongs to the `@sdkpp/emulator` package, which a
 * game installs as a devDependency: this forwards to that package's command line when it is installed and
 * says how to install it when it is not, so `npx sdkpp emulator` keeps working.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { didYouMean } from '@sdkpp/protocol';

/** What `@sdkpp/emulator/cli` exports that this uses (the SDK does not depend on the emulator's types). */
interface EmulatorCli {
  runEmulatorCli(argv: readonly string[]): Promise<number>;
}

const INSTALL_HINT =
  'sdkpp: the emulator is its own package; install it beside sdkpp with\n' +
  '  npm install --save-dev @sdkpp/emulator\n' +
  'then run "npx sdkpp emulator" (or "npx sdkpp-emulator").\n';

/** The package's version, from the package.json one level up (from `dist/` or `src/` alike). */
function version(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

const OVERVIEW = `Usage: sdkpp <command> [options]

Commands:
  emulator        start the local platform emulator (the @sdkpp/emulator package)
  help [command]  show this help, or the help of a command

Options:
  -h, --help      show this help
  -v, --version   print the version of sdkpp

Run "sdkpp <command> --help" for the options of a command.
`;

/**
 * `@sdkpp/emulator/cli`, resolved from the current folder first (the game's own devDependency), then from
 * beside this package; null when neither has it.
 */
async function emulatorCli(): Promise<EmulatorCli | null> {
  for (const base of [path.join(process.cwd(), 'package.json'), import.meta.url]) {
    let resolved: string;
    try {
      resolved = createRequire(base).resolve('@sdkpp/emulator/package.json');
    } catch {
      continue;
    }
    const manifest = JSON.parse(readFileSync(resolved, 'utf8')) as {
      exports?: { './cli'?: { import?: { default?: string } } };
    };
    const entry = manifest.exports?.['./cli']?.import?.default;
    if (entry === undefined) continue;
    return (await import(pathToFileURL(path.join(path.dirname(resolved), entry)).href)) as EmulatorCli;
  }
  return null;
}

function unknownCommand(name: string): number {
  const known = name.startsWith('-') ? ['--help', '--version'] : ['emulator', 'help'];
  const guess = didYouMean(name, known);
  const hint = guess ? ` (did you mean "${guess}"?)` : '';
  process.stderr.write(
    `sdkpp: unknown ${name.startsWith('-') ? 'option' : 'command'} "${name}"${hint}\n\n${OVERVIEW}`,
  );
  return 2;
}

/** Runs the CLI with `argv` (without node and script); resolves with the exit code. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(OVERVIEW);
    return 2;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    process.stdout.write(OVERVIEW);
    return 0;
  }
  const [command, forwarded] = name === 'help' ? [rest[0] ?? '', ['help', ...rest.slice(1)]] : [name, rest];
  if (command !== 'emulator') return unknownCommand(command);
  const cli = await emulatorCli();
  if (cli === null) {
    process.stderr.write(INSTALL_HINT);
    return 1;
  }
  // `sdkpp help emulator` is the emulator's own usage: its `help` with no topic.
  return cli.runEmulatorCli(forwarded);
}

main(process.argv.slice(2)).then(
  (code) => {
    // Wait for stdout to drain (it may be a pipe), then exit even if a stray handle would keep us alive.
    process.stdout.write('', () => process.exit(code));
  },
  (error: unknown) => {
    // A bug of ours, not a usage mistake: one line, and the stack only when asked for (SDKPP_DEBUG=1).
    const detail = error instanceof Error ? error.message : String(error);
    process.stderr.write(`sdkpp: internal error: ${detail}\n`);
    if (process.env.SDKPP_DEBUG && error instanceof Error) process.stderr.write(`${error.stack ?? ''}\n`);
    process.exit(1);
  },
);

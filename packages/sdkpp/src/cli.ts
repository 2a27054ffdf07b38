#!/usr/bin/env node
/**
 * The `sdkpp` command line. Each subcommand is an entry of {@link COMMANDS}; add new ones there.
 */
import { readFileSync } from 'node:fs';

import { didYouMean } from '@sdkpp/emulator/cli';
import type { CommandIo } from '@sdkpp/emulator/cli';
import { EMULATOR_USAGE, runEmulatorCommand } from '@sdkpp/emulator/cli';
import { CALL_USAGE } from '@sdkpp/emulator/cli';
import { EXEC_USAGE } from '@sdkpp/emulator/cli';

/** One subcommand. */
interface Command {
  /** One line for the overview. */
  summary: string;
  /** Full usage text. */
  usage: string;
  /** Runs the command; resolves with the exit code. */
  run(args: string[], io: CommandIo): Promise<number>;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  emulator: {
    summary: 'start the local platform emulator',
    usage: EMULATOR_USAGE,
    run: runEmulatorCommand,
  },
};

/** Usage texts of sub-subcommands, for `sdkpp help emulator exec`. */
const SUBCOMMAND_USAGE: Readonly<Record<string, string>> = {
  'emulator exec': EXEC_USAGE,
  'emulator call': CALL_USAGE,
};

/** The package's version, from the package.json one level up (from `dist/` or `src/` alike). */
function version(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

function overview(): string {
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(16)}${command.summary}`);
  return `Usage: sdkpp <command> [options]

Commands:
${lines.join('\n')}
  help [command]  show this help, or the help of a command

Options:
  -h, --help      show this help
  -v, --version   print the version of sdkpp

Run "sdkpp <command> --help" for the options of a command.
`;
}

function unknownCommand(name: string, io: CommandIo): number {
  const known = name.startsWith('-') ? ['--help', '--version'] : [...Object.keys(COMMANDS), 'help'];
  const guess = didYouMean(name, known);
  const hint = guess ? ` (did you mean "${guess}"?)` : '';
  io.stderr(
    `sdkpp: unknown ${name.startsWith('-') ? 'option' : 'command'} "${name}"${hint}\n\n${overview()}`,
  );
  return 2;
}

function processIo(): CommandIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stopRequested: () =>
      new Promise((resolve) => {
        const stop = (signal: NodeJS.Signals): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(signal);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }),
  };
}

/** Runs the CLI with `argv` (without node and script); resolves with the exit code. */
async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(overview());
    return 2;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${version()}\n`);
    return 0;
  }
  if (name === '--help' || name === '-h') {
    io.stdout(overview());
    return 0;
  }
  if (name === 'help') {
    const topic = rest.join(' ');
    if (topic === '') io.stdout(overview());
    else if (Object.hasOwn(SUBCOMMAND_USAGE, topic)) io.stdout(SUBCOMMAND_USAGE[topic] ?? '');
    else if (Object.hasOwn(COMMANDS, topic)) io.stdout(COMMANDS[topic]?.usage ?? '');
    else return unknownCommand(topic, io);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) return unknownCommand(name, io);
  return command.run(rest, io);
}

main(process.argv.slice(2), processIo()).then(
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

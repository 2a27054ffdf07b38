#!/usr/bin/env node
/**
 * The `sdkpp` command line. Each subcommand is an entry of {@link COMMANDS}; add new ones there.
 */
import { EMULATOR_USAGE, runEmulatorCommand, type CommandIo } from './emulator/cli.js';

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

function overview(): string {
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(12)}${command.summary}`);
  return `Usage: sdkpp <command> [options]

Commands:
${lines.join('\n')}
  help [cmd]  show this help, or the help of a command

Run "sdkpp <command> --help" for the options of a command.
`;
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
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    const command = topic !== undefined && Object.hasOwn(COMMANDS, topic) ? COMMANDS[topic] : undefined;
    io.stdout(command ? command.usage : overview());
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr(`sdkpp: unknown command "${name}"\n\n${overview()}`);
    return 2;
  }
  return command.run(rest, io);
}

main(process.argv.slice(2), processIo()).then(
  (code) => {
    // Wait for stdout to drain (it may be a pipe), then exit even if a stray handle would keep us alive.
    process.stdout.write('', () => process.exit(code));
  },
  (error: unknown) => {
    process.stderr.write(
      `sdkpp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);

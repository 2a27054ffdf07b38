/**
 * `@sdkpp/emulator/cli`: the emulator's command line as a function, for the `sdkpp-emulator` bin
 * (src/bin.ts) and for `sdkpp emulator`, the SDK's forwarder to it.
 */
import { readFileSync } from 'node:fs';

import { CALL_USAGE } from './cli/call.js';
import { EXEC_USAGE } from './cli/exec.js';
import { didYouMean } from '@sdkpp/protocol';
import type { CommandIo } from './cli/io.js';
import { EMULATOR_USAGE, runEmulatorCommand } from './cli.js';

export type { CommandIo } from './cli/io.js';

/** Usage texts of the subcommands, for `sdkpp-emulator help exec`. */
const SUBCOMMAND_USAGE: Readonly<Record<string, string>> = {
  exec: EXEC_USAGE,
  call: CALL_USAGE,
};

/** The package's version, from the package.json one level up (from `dist/` or `src/` alike). */
function version(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** The terminal as a {@link CommandIo}: stdout, stderr, and SIGINT / SIGTERM as the request to stop. */
export function processIo(): CommandIo {
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

/**
 * Runs the emulator's command line with `argv` (without node and script: `[]`, `exec …`, `call …`,
 * `help [exec|call]`, `--version` or the emulator's options); resolves with the exit code.
 */
export async function runEmulatorCli(argv: readonly string[], io: CommandIo = processIo()): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    io.stdout(`${version()}\n`);
    return 0;
  }
  if (first === 'help') {
    const topic = rest.join(' ');
    if (topic === '') io.stdout(EMULATOR_USAGE);
    else if (Object.hasOwn(SUBCOMMAND_USAGE, topic)) io.stdout(SUBCOMMAND_USAGE[topic] ?? '');
    else {
      const guess = didYouMean(topic, Object.keys(SUBCOMMAND_USAGE));
      io.stderr(`sdkpp emulator: no help on "${topic}"${guess ? ` (did you mean "${guess}"?)` : ''}\n`);
      return 2;
    }
    return 0;
  }
  return runEmulatorCommand([...argv], io);
}

/**
 * Runs the command line on this process's arguments and exits with its code once stdout drained; a bug of
 * ours is one line (and its stack with SDKPP_DEBUG=1) and exit code 1.
 */
export function runEmulatorCliProcess(argv: readonly string[]): void {
  runEmulatorCli(argv).then(
    (code) => {
      // Wait for stdout to drain (it may be a pipe), then exit even if a stray handle would keep us alive.
      process.stdout.write('', () => process.exit(code));
    },
    (error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      process.stderr.write(`sdkpp emulator: internal error: ${detail}\n`);
      if (process.env.SDKPP_DEBUG && error instanceof Error) process.stderr.write(`${error.stack ?? ''}\n`);
      process.exit(1);
    },
  );
}

// The emulator's flag parser, for commands built around it (the demo's own options use it).
export { formatFlags, parseFlags, UsageError, type Flag } from './cli/flags.js';

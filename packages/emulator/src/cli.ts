import { formatFlags, parseFlags, UsageError } from './cli/flags.js';
import type { CommandIo } from './cli/io.js';
import { startEmulator } from './Emulator.js';
import { runCall } from './cli/call.js';
import { registerEmulator, type OwnRegistration } from './cli/emulatorRegistry.js';
import { runExec, EXEC_USAGE } from './cli/exec.js';
import { emulatorCommandLine, EMULATOR_FLAGS, type EmulatorCommandLine } from './cli/emulatorFlags.js';
import { summary } from './cli/summary.js';
import { describePartialSave, loadStateFile, saveEmulatorState, StateFileError } from './cli/stateFile.js';
import { dashboardTokenOf } from './dashboard/adminToken.js';
import type { Emulator } from './types.js';

export type { CommandIo } from './cli/io.js';

/** Usage of `sdkpp emulator`. */
export const EMULATOR_USAGE = `Usage: sdkpp emulator [options]
       sdkpp emulator exec [options] [--] <command> [args…]
       sdkpp emulator call [--emulator URL] <hook> ['<JSON arguments>']

Starts the local platform emulator (HTTP API, OAuth2, gateway, dashboard, voice) and serves until
SIGINT or SIGTERM. "exec" runs <command> against it instead and stops it when the command ends
(see "sdkpp emulator exec --help"). "call" calls an admin hook (createSku, launchActivity,
invokeCommand, …) of a running emulator and prints its JSON answer (see "sdkpp emulator call --help").

Options:
${formatFlags(EMULATOR_FLAGS)}`;

/** Longest a shutdown may take before the command gives up waiting: the process must end within 2 s. */
const SHUTDOWN_LIMIT_MS = 1500;

/** `sdkpp emulator`, `sdkpp emulator exec` or `sdkpp emulator call`: resolves with the exit code. */
export async function runEmulatorCommand(args: string[], io: CommandIo): Promise<number> {
  if (args[0] === 'call') return runCall(args.slice(1), io);
  const exec = args[0] === 'exec';
  const usage = exec ? EXEC_USAGE : EMULATOR_USAGE;
  const name = exec ? 'sdkpp emulator exec' : 'sdkpp emulator';
  const line = emulatorCommandLine();
  let rest: string[];
  try {
    const parsed = parseFlags(EMULATOR_FLAGS, exec ? args.slice(1) : args, line, {
      restFromPositional: exec,
    });
    if (parsed.help) {
      io.stdout(usage);
      return 0;
    }
    rest = parsed.rest;
    if (exec && rest.length === 0) throw new UsageError('no command given');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`${name}: ${error.message}\n\nRun "${name} --help" for the options.\n`);
    return 2;
  }
  const emulator = await start(line, io, name);
  if (!emulator) return 1;
  // Before the addresses are announced: whoever reads them may "call" at once.
  const registration = await registerForCall(emulator, io, name);
  let code = 0;
  if (exec) {
    // stdout belongs to the command; the summary goes to stderr.
    io.stderr(line.json ? `${JSON.stringify(emulator)}\n` : summary(emulator, 'exec'));
    code = await runExec(rest, emulator, io);
  } else {
    // Listen for the stop signal before announcing the addresses: a caller may signal as soon as it reads them.
    const stopRequested = io.stopRequested();
    io.stdout(line.json ? `${JSON.stringify(emulator)}\n` : summary(emulator, 'serve'));
    const signal = await stopRequested;
    if (!line.json) io.stderr(`\n${signal}: stopping the emulator\n`);
  }
  // First, so no "call" reaches an emulator that is closing.
  registration?.remove();
  return (await stop(emulator, line, io, name)) ? code : code || 1;
}

/** Registers the emulator for `sdkpp emulator call`; when that fails it still serves, and says so. */
async function registerForCall(
  emulator: Emulator,
  io: CommandIo,
  name: string,
): Promise<OwnRegistration | null> {
  const token = dashboardTokenOf(emulator);
  if (token === undefined) return null;
  try {
    return await registerEmulator(emulator, token);
  } catch (error) {
    io.stderr(`${name}: "sdkpp emulator call" cannot reach this emulator: ${(error as Error).message}\n`);
    return null;
  }
}

/** Starts the emulator (loading `--state`); on failure prints why, without a stack, and resolves null. */
async function start(line: EmulatorCommandLine, io: CommandIo, name: string): Promise<Emulator | null> {
  const { options } = line;
  if (line.verbose) {
    options.log = (text) => {
      io.stderr(`${text}\n`);
    };
  }
  try {
    if (line.statePath !== undefined) {
      const saved = await loadStateFile(line.statePath);
      if (saved) {
        options.state = saved;
        // --users and the seeded guild apply to a new world only: say where this one came from.
        if (!line.json) io.stderr(`loaded the state saved ${saved.savedAt} from ${line.statePath}\n`);
      }
    }
    return await startEmulator(options);
  } catch (error) {
    io.stderr(`${name}: could not start: ${startFailure(error, options.port)}\n`);
    return null;
  }
}

function startFailure(error: unknown, port: number | undefined): string {
  if (error instanceof StateFileError || error instanceof RangeError) return error.message;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE') {
    return `port ${String(port)} is in use (another emulator?); choose another with --port N, or --port 0 for any free port`;
  }
  if (code === 'EACCES') return `no permission to listen on port ${String(port)}; try --port 0`;
  return error instanceof Error ? error.message : String(error);
}

/** Stops the emulator within the shutdown limit and saves `--state`; false when saving failed or was partial. */
async function stop(
  emulator: Emulator,
  line: EmulatorCommandLine,
  io: CommandIo,
  name: string,
): Promise<boolean> {
  await Promise.race([
    emulator.close(),
    new Promise((resolve) => setTimeout(resolve, SHUTDOWN_LIMIT_MS).unref()),
  ]);
  if (line.statePath === undefined) return true;
  try {
    const result = await saveEmulatorState(line.statePath, () => emulator.exportState());
    if (result.kind === 'partial') {
      io.stderr(`${name}: ${describePartialSave(result)}\n`);
      return false;
    }
    if (!line.json) io.stderr(`state saved to ${line.statePath}\n`);
    return true;
  } catch (error) {
    io.stderr(
      `${name}: could not save the state: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return false;
  }
}

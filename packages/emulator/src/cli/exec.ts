import { spawn } from 'node:child_process';
import { constants } from 'node:os';

import { formatFlags } from './flags.js';
import type { CommandIo } from './io.js';
import type { Emulator } from '../types.js';
import { EMULATOR_FLAGS } from './emulatorFlags.js';

/**
 * The environment a command run by `sdkpp emulator exec` gets, on top of the caller's. The names follow the
 * `--json` line and `/emulator.json`; `SDKPP_EMULATOR` and `SDKPP_APP_ID` are what the samples already read.
 * The users are not in it (thousands would pass the limit of one variable): `<http>/emulator.json` has them.
 */
export function execEnvironment(emulator: Emulator): Record<string, string> {
  const env: Record<string, string> = {
    SDKPP_EMULATOR: emulator.http,
    SDKPP_EMULATOR_HTTP: emulator.http,
    SDKPP_EMULATOR_API: emulator.api,
    SDKPP_EMULATOR_GATEWAY: emulator.gateway,
    SDKPP_EMULATOR_DASHBOARD: emulator.dashboard,
    SDKPP_APPLICATION_ID: emulator.applicationId,
    SDKPP_APP_ID: emulator.applicationId,
    SDKPP_BOT_TOKEN: emulator.botToken,
    SDKPP_APP_PUBLIC_KEY: emulator.applicationPublicKey,
    SDKPP_CLIENT_SECRET: emulator.clientSecret,
  };
  if (emulator.rpcSocket !== null) env.SDKPP_EMULATOR_RPC_SOCKET = emulator.rpcSocket;
  // Node reads it at start: the command's bots then trust the voice gateway's wss:// certificate.
  if (emulator.voiceCaFile !== null) env.NODE_EXTRA_CA_CERTS = emulator.voiceCaFile;
  return env;
}

/** Usage of `sdkpp emulator exec`. */
export const EXEC_USAGE = `Usage: sdkpp emulator exec [options] [--] <command> [args…]

Starts the emulator, runs <command> with the emulator's addresses in its environment, stops the emulator
when the command ends and exits with the command's exit code (128+n when a signal n ended it). SIGINT and
SIGTERM are passed on to the command. The start-up summary goes to stderr; stdout is the command's.

Environment of the command:
  SDKPP_EMULATOR, SDKPP_EMULATOR_HTTP   the HTTP origin (the test users: <origin>/emulator.json)
  SDKPP_EMULATOR_API                    the API base, <origin>/api/v10
  SDKPP_EMULATOR_GATEWAY                the gateway's WebSocket URL
  SDKPP_EMULATOR_DASHBOARD              the dashboard page
  SDKPP_EMULATOR_RPC_SOCKET             the desktop client's IPC socket (not with --no-rpc)
  SDKPP_APPLICATION_ID, SDKPP_APP_ID    the application id
  SDKPP_BOT_TOKEN                       the bot token
  SDKPP_APP_PUBLIC_KEY                  the application's public key (verifies interactions and events)
  SDKPP_CLIENT_SECRET                   the client secret (a game server's token exchange)
  NODE_EXTRA_CA_CERTS                   the voice gateway's local authority: a bot's wss:// trusts it
                                        (not with --voice-ca none)

Options (those of "sdkpp emulator"):
${formatFlags(EMULATOR_FLAGS)}`;

/** The exit code a shell would report for a process that ended with `code` or `signal`. */
export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal === null ? undefined : constants.signals[signal];
  return 128 + (number ?? 0);
}

/** Runs `command` against `emulator` and resolves with its exit code; passes SIGINT/SIGTERM on. */
export async function runExec(command: string[], emulator: Emulator, io: CommandIo): Promise<number> {
  const [file = '', ...args] = command;
  const child = spawn(file, args, {
    stdio: 'inherit',
    env: { ...process.env, ...execEnvironment(emulator) },
  });
  const ended = new Promise<number>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      io.stderr(`sdkpp emulator exec: cannot run "${file}": ${error.code ?? error.message}\n`);
      // 127 as a shell reports a command it cannot find, 126 one it cannot run.
      resolve(error.code === 'ENOENT' ? 127 : 126);
    });
    child.once('exit', (code, signal) => {
      resolve(exitCodeOf(code, signal));
    });
  });
  let running = true;
  const forward = async (): Promise<void> => {
    while (running) {
      const signal = await Promise.race([io.stopRequested(), ended.then(() => null)]);
      if (signal === null || !running) return;
      child.kill(signal as NodeJS.Signals);
    }
  };
  void forward();
  const code = await ended;
  running = false;
  return code;
}

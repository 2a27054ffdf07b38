import { parseArgs } from 'node:util';

import { startEmulator } from './Emulator.js';
import { MAX_SEED_USERS } from './options.js';
import type { Emulator, EmulatorOptions } from './types.js';

/** Where a CLI command writes, and how it learns that it should stop; injectable for tests. */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Resolves when the process is asked to stop (SIGINT or SIGTERM). */
  stopRequested(): Promise<string>;
}

/** Usage of `sdkpp emulator`. */
export const EMULATOR_USAGE = `Usage: sdkpp emulator [options]

Starts the local platform emulator (HTTP API, OAuth2, gateway) and serves until SIGINT or SIGTERM.

Options:
  --port N          TCP port (default 0: any free port)
  --host H          interface to listen on (default 127.0.0.1)
  --users N         number of seeded test users (default 2: alice, bob)
  --auto-consent    approve authorize requests at once, as the login_hint user (default: show the consent page)
  --app-id ID       application id (a snowflake; default: generated)
  --bot-token T     bot token (default: random)
  --no-rpc          do not run the emulated desktop client (IPC socket)
  --rpc-user NAME   the user signed in to the emulated desktop client (default: the first user)
  --no-seed-guild   do not seed the "Emulator Guild" (guilds and channels for lobby linking)
  --rate-limits P   HTTP rate limits: default (generous), development (the platform's pre-approval
                    limits) or off
  --bot-session-limit N
                    bot Identifies allowed per 24 h (default 1000; then op 9)
  --bot-max-concurrency N
                    bot Identify rate-limit keys, one Identify per key per 5 s (default 1)
  --http-latency MS hold each API reply back MS milliseconds (0-10000) while the gateway stays
                    fast, to meet replies that arrive after the events they caused
  --voice-port N    TCP port of the voice gateway (default 0: any free port)
  --voice-udp-port N
                    UDP port of the voice forwarding unit (default 0: any free port)
  --allow-non-dave  let voice clients without DAVE in (the call then runs without E2EE);
                    by default they are refused with 4017
  --voice-impairment SPEC
                    impair forwarded voice packets, e.g. loss=5,delay=40,jitter=10,reorder=2,seed=7
                    (percent, ms, ms, percent, PRNG seed)
  --json            print one JSON line with the addresses once ready, instead of a summary
  --verbose         print a log line per request and gateway event to stderr
  -h, --help        show this help
`;

/** Longest a shutdown may take before the command gives up waiting: the process must end within 2 s. */
const SHUTDOWN_LIMIT_MS = 1500;

class UsageError extends Error {}

function intOption(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return Number(value);
}

function parseEmulatorArgs(args: string[]): {
  options: EmulatorOptions;
  json: boolean;
  verbose: boolean;
  help: boolean;
} {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        users: { type: 'string' },
        'auto-consent': { type: 'boolean' },
        'app-id': { type: 'string' },
        'bot-token': { type: 'string' },
        'no-rpc': { type: 'boolean' },
        'rpc-user': { type: 'string' },
        'rate-limits': { type: 'string' },
        'http-latency': { type: 'string' },
        'bot-session-limit': { type: 'string' },
        'bot-max-concurrency': { type: 'string' },
        'no-seed-guild': { type: 'boolean' },
        'voice-port': { type: 'string' },
        'voice-udp-port': { type: 'string' },
        'allow-non-dave': { type: 'boolean' },
        'voice-impairment': { type: 'string' },
        json: { type: 'boolean' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const v = parsed.values;
  const options: EmulatorOptions = {};
  const port = intOption('port', v.port, 0, 65_535);
  if (port !== undefined) options.port = port;
  const users = intOption('users', v.users, 0, MAX_SEED_USERS);
  if (users !== undefined) options.users = users;
  if (v.host !== undefined) options.host = v.host;
  if (v['auto-consent'] === true) options.autoConsent = true;
  if (v['app-id'] !== undefined) options.applicationId = v['app-id'];
  if (v['bot-token'] !== undefined) options.botToken = v['bot-token'];
  if (v['no-rpc'] === true) options.rpc = false;
  else if (v['rpc-user'] !== undefined) options.rpc = { user: v['rpc-user'] };
  if (v['no-seed-guild'] === true) options.seedGuild = false;
  const rateLimits = v['rate-limits'];
  if (rateLimits !== undefined) {
    if (rateLimits !== 'default' && rateLimits !== 'development' && rateLimits !== 'off') {
      throw new UsageError('--rate-limits must be default, development or off');
    }
    options.rateLimits = rateLimits;
  }
  const latency = intOption('http-latency', v['http-latency'], 0, 10_000);
  if (latency !== undefined) options.httpLatencyMs = latency;
  const sessionLimit = intOption('bot-session-limit', v['bot-session-limit'], 0, 1_000_000);
  if (sessionLimit !== undefined) options.botSessionLimit = sessionLimit;
  const concurrency = intOption('bot-max-concurrency', v['bot-max-concurrency'], 1, 1024);
  if (concurrency !== undefined) options.botMaxConcurrency = concurrency;
  const voice = voiceOptions(v);
  if (voice) options.voice = voice;
  return { options, json: v.json === true, verbose: v.verbose === true, help: v.help === true };
}

/** `--voice-*` and `--allow-non-dave` as {@link EmulatorOptions.voice}, or undefined when none is given. */
function voiceOptions(v: {
  'voice-port'?: string;
  'voice-udp-port'?: string;
  'allow-non-dave'?: boolean;
  'voice-impairment'?: string;
}): EmulatorOptions['voice'] {
  const voice: NonNullable<EmulatorOptions['voice']> = {};
  const port = intOption('voice-port', v['voice-port'], 0, 65_535);
  if (port !== undefined) voice.port = port;
  const udpPort = intOption('voice-udp-port', v['voice-udp-port'], 0, 65_535);
  if (udpPort !== undefined) voice.udpPort = udpPort;
  if (v['allow-non-dave'] === true) voice.allowNonDave = true;
  const spec = v['voice-impairment'];
  if (spec !== undefined) {
    const names = {
      loss: 'lossPercent',
      delay: 'delayMs',
      jitter: 'jitterMs',
      reorder: 'reorderPercent',
      seed: 'seed',
    } as const;
    const impairment: Record<string, number> = {};
    for (const part of spec.split(',')) {
      const [name, value] = part.split('=');
      const key =
        name !== undefined && Object.hasOwn(names, name) ? names[name as keyof typeof names] : undefined;
      if (key === undefined || value === undefined || !/^[0-9]+(\.[0-9]+)?$/.test(value)) {
        throw new UsageError('--voice-impairment takes loss=N,delay=N,jitter=N,reorder=N,seed=N');
      }
      impairment[key] = Number(value);
    }
    voice.impairment = impairment;
  }
  return Object.keys(voice).length > 0 ? voice : undefined;
}

function summary(emulator: Emulator): string {
  const users = emulator.users.map((u) => `${u.username} (${u.id})`).join(', ') || 'none';
  return [
    'sdkpp emulator is running',
    `  HTTP       ${emulator.http}`,
    `  API        ${emulator.api}`,
    `  Gateway    ${emulator.gateway}`,
    `  Dashboard  ${emulator.dashboard}`,
    `  Voice      ws://${emulator.voice.endpoint}/?v=8, UDP port ${emulator.voice.udpPort}`,
    `  App id     ${emulator.applicationId}`,
    `  Bot token  ${emulator.botToken}`,
    `  Users      ${users}`,
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}

/** `sdkpp emulator`: runs until asked to stop; resolves with the exit code. */
export async function runEmulatorCommand(args: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseEmulatorArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`sdkpp emulator: ${error.message}\n\n${EMULATOR_USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(EMULATOR_USAGE);
    return 0;
  }
  const { options } = parsed;
  if (parsed.verbose) {
    options.log = (line) => {
      io.stderr(`${line}\n`);
    };
  }
  let emulator: Emulator;
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    io.stderr(`sdkpp emulator: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const info = {
    http: emulator.http,
    api: emulator.api,
    gateway: emulator.gateway,
    dashboard: emulator.dashboard,
    rpcSocket: emulator.rpcSocket,
    applicationId: emulator.applicationId,
    botToken: emulator.botToken,
    users: emulator.users,
  };
  // Listen for the stop signal before announcing the addresses: a caller may signal as soon as it reads them.
  const stopRequested = io.stopRequested();
  io.stdout(parsed.json ? `${JSON.stringify(info)}\n` : summary(emulator));

  const signal = await stopRequested;
  if (!parsed.json) io.stderr(`\n${signal}: stopping the emulator\n`);
  await Promise.race([
    emulator.close(),
    new Promise((resolve) => setTimeout(resolve, SHUTDOWN_LIMIT_MS).unref()),
  ]);
  return 0;
}

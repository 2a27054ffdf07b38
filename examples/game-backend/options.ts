import { parseArgs } from 'node:util';

import { UsageError } from './print.js';

/** Where the game backend finds the platform, from the command line and the environment. */
export interface BackendSampleOptions {
  /** An emulator started in another terminal, or undefined to start one in this process. */
  emulator: string | undefined;
  /** That emulator's application id. */
  applicationId: string | undefined;
  /** That emulator's bot token (a secret: never printed). */
  botToken: string | undefined;
}

export const USAGE = `Usage: npm run example:game-backend -- [options]

The game server's side of the platform, with the application's bot token: provisional accounts for
players, a server-managed lobby, character names, bulk member changes, lobby history and moderation.

Options:
  --emulator URL     an emulator started in another terminal (default: start one here);
                     also env SDKPP_EMULATOR
  --app-id ID        that emulator's application id; also env SDKPP_APP_ID
  --bot-token T      that emulator's bot token; better: env SDKPP_BOT_TOKEN (keeps it out of
                     the shell history and the process list)
  -h, --help         show this help
`;

/** Reads the command line; a UsageError says what is wrong, undefined means `--help` was asked for. */
export function readOptions(argv: string[], env: NodeJS.ProcessEnv): BackendSampleOptions | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        emulator: { type: 'string' },
        'app-id': { type: 'string' },
        'bot-token': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help === true) return undefined;
  const emulator = (values.emulator ?? env.SDKPP_EMULATOR)?.replace(/\/+$/, '');
  const applicationId = values['app-id'] ?? env.SDKPP_APP_ID;
  const botToken = values['bot-token'] ?? env.SDKPP_BOT_TOKEN;
  if (emulator !== undefined) {
    if (!/^https?:\/\/[^/]+$/.test(emulator))
      throw new UsageError(`--emulator takes the emulator's http:// address, not "${emulator}"`);
    if (!applicationId || !botToken)
      throw new UsageError(
        '--emulator needs the application id and bot token the emulator printed: --app-id and SDKPP_BOT_TOKEN',
      );
  }
  return { emulator, applicationId, botToken };
}

import { parseArgs } from 'node:util';

/** The command line of the lobby game. */
export interface GameOptions {
  /** The emulator's HTTP address, or null to start one inside this process. */
  emulator: string | null;
  /** The application id, or null to ask the emulator (its `/emulator.json`) or let the embedded one choose. */
  appId: string | null;
  /** The user to sign in as (the emulator's auto-consent), or null to sign in in the browser. */
  user: string | null;
  host: boolean;
  join: boolean;
  secret: string | null;
  invite: string[];
  startAt: number | null;
  bots: number;
  autoplay: boolean;
  moveDelayMs: number;
  help: boolean;
}

export const USAGE = `Usage: npm run example:lobby-game -- [options]

Four in a row for 2-4 players, each in their own terminal, against the platform emulator.

  --emulator URL   the emulator's HTTP address (or SDKPP_EMULATOR); without it an emulator starts
                   inside this process and computer players (--bots) fill the table
  --app-id ID      the game's application id (or SDKPP_APP_ID; default: the one the
                   emulator reports at <URL>/emulator.json)
  --user NAME      sign in as this emulator user (needs the emulator's --auto-consent);
                   without it the browser opens the consent page
  --host           open a table at once
  --invite NAME    invite this user once the table is open (repeatable)
  --join           accept friend requests and the first invite by yourself
  --secret S       with --host: the table's lobby secret; without: join the table with this secret
  --start-at N     as host, start the game once N players are at the table (2-4)
  --bots N         computer players on the embedded emulator, 1-3 (default 1)
  --autoplay       choose your own moves too, and leave when the game is over
  --move-delay MS  how long computer players think (default 400)
  -h, --help       this help

In the game: /move <column>, /invite <name>, /friends, /join, /start, /quit, /help; anything else is chat.
`;

/** A command-line mistake, shown with the usage. */
export class UsageError extends Error {}

function count(name: string, value: string | undefined, min: number, max: number): number | null {
  if (value === undefined) return null;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} takes a whole number from ${min} to ${max}`);
  }
  return Number(value);
}

/** Reads the command line (and SDKPP_EMULATOR / SDKPP_APP_ID); throws {@link UsageError}. */
export function parseGameOptions(args: string[], env: NodeJS.ProcessEnv = process.env): GameOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        emulator: { type: 'string' },
        'app-id': { type: 'string' },
        user: { type: 'string' },
        host: { type: 'boolean' },
        join: { type: 'boolean' },
        secret: { type: 'string' },
        invite: { type: 'string', multiple: true },
        'start-at': { type: 'string' },
        bots: { type: 'string' },
        autoplay: { type: 'boolean' },
        'move-delay': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const emulator = values.emulator ?? (env.SDKPP_EMULATOR || null);
  if (emulator !== null && !/^http:\/\/[^/]+\/?$/.test(emulator)) {
    throw new UsageError("--emulator takes the emulator's HTTP address, e.g. http://127.0.0.1:53123");
  }
  const appId = values['app-id'] ?? (env.SDKPP_APP_ID || null);
  if (appId !== null && !/^\d{1,20}$/.test(appId)) {
    throw new UsageError('--app-id takes an application id (digits)');
  }
  const bots = count('bots', values.bots, 1, 3);
  if (bots !== null && emulator !== null) {
    throw new UsageError('--bots plays on the embedded emulator; leave out --emulator');
  }
  return {
    emulator: emulator === null ? null : emulator.replace(/\/$/, ''),
    appId,
    user: values.user?.toLowerCase() ?? null,
    host: values.host === true,
    join: values.join === true,
    secret: values.secret ?? null,
    invite: (values.invite ?? []).map((name) => name.toLowerCase()),
    startAt: count('start-at', values['start-at'], 2, 4),
    bots: bots ?? 1,
    autoplay: values.autoplay === true,
    moveDelayMs: count('move-delay', values['move-delay'], 0, 10_000) ?? 400,
    help: values.help === true,
  };
}

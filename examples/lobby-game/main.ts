/**
 * Four in a row in the terminal, for 2–4 players, on the platform emulator: each terminal is one player who
 * links their account, befriends and invites others, meets them at a table (a lobby), chats, and plays.
 * `npm run example:lobby-game -- --help` lists the options; README.md shows the two-terminal game.
 */
import { createInterface } from 'node:readline';

import { emulatorInfoAt, startEmulator, type Emulator } from '@sdkpp/emulator';

import { parseGameOptions, UsageError, USAGE, type GameOptions } from './options.js';
import { Player } from './player.js';
import { botPrinter, terminalPrinter } from './print.js';
import { gameClient, linkAndConnect, type Platform } from './signIn.js';

const print = terminalPrinter();

/** Signs a player in and seats them at the game. */
async function sitDown(
  platform: Platform,
  username: string | undefined,
  options: ConstructorParameters<typeof Player>[1],
): Promise<Player> {
  const client = gameClient(platform, username);
  try {
    await linkAndConnect(client, options.print);
  } catch (error) {
    await client.destroy();
    throw error;
  }
  return new Player(client, options);
}

/** Computer players: real clients of their own, each signed in as an emulator user. */
async function seatBots(platform: Platform, names: string[], options: GameOptions): Promise<Player[]> {
  return Promise.all(
    names.map((name) =>
      sitDown(platform, name, {
        print: botPrinter(name),
        autoJoin: true,
        autoplayDelayMs: options.moveDelayMs,
        startAt: null,
        quitAfterGame: false,
        greeting: 'hi! good luck',
      }),
    ),
  );
}

/** Typed lines go to the player; the end of input leaves the game unless the player plays by itself. */
function readTerminal(player: Player, options: GameOptions): () => void {
  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    void player.type(line);
  });
  lines.on('close', () => {
    if (!options.autoplay) void player.quit();
  });
  return () => {
    lines.close();
  };
}

async function main(options: GameOptions): Promise<void> {
  let emulator: Emulator | undefined;
  let platform: Platform;
  if (options.emulator !== null) {
    platform = {
      http: options.emulator,
      applicationId: options.appId ?? (await emulatorInfoAt(options.emulator)).applicationId,
    };
  } else {
    emulator = await startEmulator({
      users: 4,
      autoConsent: true,
      rpc: false,
      seedGuild: false,
      ...(options.appId === null ? {} : { applicationId: options.appId }),
    });
    platform = { http: emulator.http, applicationId: emulator.applicationId };
    // Other terminals can join this one too: --emulator finds the application id at /emulator.json.
    print('game', `emulator started in this process at ${emulator.http}`);
  }
  const embedded = emulator !== undefined;
  const username = options.user ?? (embedded ? 'alice' : undefined);
  const botNames = embedded
    ? (emulator?.users ?? [])
        .map((u) => u.username)
        .filter((n) => n !== username)
        .slice(0, options.bots)
    : [];
  const bots = await seatBots(platform, botNames, options);
  const player = await sitDown(platform, username, {
    print,
    autoJoin: options.join,
    autoplayDelayMs: options.autoplay ? options.moveDelayMs : null,
    startAt: options.startAt ?? (embedded ? 1 + bots.length : null),
    quitAfterGame: options.autoplay,
    greeting: null,
  });
  const stopReading = readTerminal(player, options);
  process.once('SIGINT', () => void player.quit());
  process.once('SIGTERM', () => void player.quit());
  print('game', 'type /help for the commands; anything else is chat');

  if (options.host || embedded) {
    await player.host(options.secret ?? undefined);
    for (const name of [...botNames, ...options.invite]) await player.invite(name);
  } else if (options.secret !== null) {
    await player.join(options.secret);
  } else {
    print('game', 'in the menu: /host opens a table, or wait for an invite');
  }

  await player.done;
  stopReading();
  await Promise.all(bots.map((bot) => bot.quit()));
  await emulator?.close();
  print('game', 'bye');
}

let options: GameOptions;
try {
  options = parseGameOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`lobby-game: ${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
try {
  await main(options);
  process.exit(0);
} catch (error) {
  print('error', error instanceof Error ? error.message : String(error));
  process.exit(1);
}

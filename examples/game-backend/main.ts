/**
 * Game backend sample: the game server's side of the platform, with the application's bot token
 * (`sdkpp/backend`). A readable walkthrough: provisional accounts for the game's players, a server-managed
 * lobby with character names, bulk member changes, lobby history and moderation, and account links kept
 * honest by the platform's webhook events. See README.md.
 */
import { GameBackend } from 'sdkpp/backend';
import { startEmulator, type Emulator } from '@sdkpp/emulator';

const DAY_MS = 86_400_000;

import { AccountLinks, linkThenUnlink, listenForWebhookEvents } from './accountLinks.js';
import { moderateDirectMessage, moderateLobbyChat } from './chatModeration.js';
import { Perks } from './perks.js';
import { createMatchLobby, fillParty, reshuffle } from './lobbyManagement.js';
import { readOptions, USAGE, type BackendSampleOptions } from './options.js';
import { say, step, UsageError } from './print.js';
import { provisionPlayer, showFindOrCreate, type Player, type Server } from './provisional.js';
import { linkChildGame } from './publisherLinking.js';

/** The publisher's second game: a child application of the sample's application (publisher-level linking). */
const SEQUEL = { id: '1400000000000000001', name: 'Sunken Keep II' };

/** The game's own accounts (its login system), which get provisional platform accounts. */
const ACCOUNTS = [
  { name: 'Aria', externalId: 'acct-1001' },
  { name: 'Borin', externalId: 'acct-1002' },
  { name: 'Cass', externalId: 'acct-1003' },
] as const;

/**
 * Steps 8 to 10, with the embedded emulator: the server's webhook events endpoint; a player who links a
 * platform account and later unlinks it; a subscription bought, canceled and ended; publisher-level linking. (Against an emulator in
 * another terminal, start it with `--webhook-events-url`; see README.md.)
 */
async function webhookSteps(emulator: Emulator, server: Server): Promise<void> {
  step('8. Account links: the server follows APPLICATION_AUTHORIZED and APPLICATION_DEAUTHORIZED');
  const links = new AccountLinks();
  // The SKU is made in the developer portal; here the emulator makes it.
  const gold = emulator.createSku({ name: 'Gold Pass', type: 'subscription', periodMs: 30 * DAY_MS });
  const perks = new Perks(new Map([[gold.id, 'the Gold Pass perks']]));
  // On the platform the public key is the developer portal's Public Key. The emulator has it as
  // applicationPublicKey; `sdkpp emulator` prints it as "Public key" (also in --json, /emulator.json and on the
  // dashboard), and --state keeps it across restarts.
  const endpoint = await listenForWebhookEvents(emulator.applicationPublicKey, (event) => {
    links.onEvent(event);
    perks.onEvent(event);
  });
  try {
    emulator.setWebhookEventsUrl(endpoint.url);
    say(
      'backend',
      `webhook events endpoint at ${endpoint.url}, signatures checked with the app's public key`,
    );
    const dara = emulator.createUser({ username: 'dara', globalName: 'Dara' });
    await linkThenUnlink(server, links, 'Dara', emulator.browserAs(dara.username));

    step('9. A subscription: bought, so the perk is granted; canceled and ended, so it is taken back');
    const backend = new GameBackend({
      botToken: server.botToken,
      apiBase: server.api,
      applicationId: server.applicationId,
    });
    const bought = emulator.purchaseSku(dara.username, gold.id);
    say('Dara', 'store: bought the Gold Pass (a subscription, renewing every 30 days)');
    await waitFor(() => perks.has(dara.id, 'the Gold Pass perks'), 'the ENTITLEMENT_CREATE webhook event');
    emulator.cancelSubscription(bought.subscription?.id ?? '');
    say('Dara', 'store: canceled the Gold Pass; it runs to the end of the period');
    await perks.recheck(backend, dara.id);
    say(
      'backend',
      `check at login: ${perks.has(dara.id, 'the Gold Pass perks') ? 'perks kept until the period ends' : 'perks gone early (wrong)'}`,
    );
    emulator.advanceTime(31 * DAY_MS);
    const [subscription] = await backend.listSubscriptions(gold.id, dara.id);
    say(
      'backend',
      `a month later the subscription is ${subscription?.status === 1 ? 'inactive' : String(subscription?.status)}`,
    );
    await perks.recheck(backend, dara.id);
  } finally {
    await endpoint.close();
  }

  step(
    "10. Publisher-level linking: the player's token of this (parent) game is exchanged for one of the sequel (child)",
  );
  // Aria's token of this game (her provisional account from step 1; a linked account's token works the same).
  const tokens = new GameBackend({ botToken: server.botToken, apiBase: server.api });
  const aria = await tokens.getProvisionalToken('acct-1001').finally(() => tokens.close());
  await linkChildGame(server, emulator.clientSecret, SEQUEL, {
    name: 'Aria',
    parentAccessToken: aria.accessToken,
  });
}

/** Waits for a condition a webhook event sets (bounded). */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 250 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!check()) throw new Error(`no ${what}`);
}

async function walkthrough(server: Server): Promise<void> {
  const backend = new GameBackend({ botToken: server.botToken, apiBase: server.api });
  const players: Player[] = [];
  try {
    step('1. Provisional accounts: the server asks for them, each game connects with its token');
    for (const account of ACCOUNTS)
      players.push(await provisionPlayer(server, backend, account.name, account.externalId));
    const [aria, borin, cass] = players;
    if (!aria || !borin || !cass) throw new Error('three players expected');
    await showFindOrCreate(server, backend, aria);

    step('2. A server-managed lobby for the match, with a character name for its leader');
    const lobby = await createMatchLobby(backend, aria);

    step('3. Bulk member changes: the party joins with character names');
    await fillParty(backend, lobby.id, aria, [borin, cass]);
    step(
      '4. The match moves on: new lobby metadata; one bulk request removes a player and renames a character',
    );
    await reshuffle(backend, lobby.id, aria, borin, cass);

    step('5. Lobby chat, history and moderation metadata');
    await moderateLobbyChat(backend, lobby.id, aria, borin);

    step('6. Moderation metadata on a direct message');
    await moderateDirectMessage(backend, borin, aria);

    step('7. The lobby as the server sees it now');
    const now = await backend.getLobby(lobby.id);
    for (const member of now.members) {
      const player = players.find((p) => p.id === member.id);
      say(
        'backend',
        `member ${player?.name ?? member.id} as "${member.additionalName ?? '-'}": ${member.connected ? 'online' : 'offline'}, can link a channel: ${member.canLinkLobby ? 'yes' : 'no'}`,
      );
    }
    say('backend', `lobby ${now.id} stays until it has been idle for an hour (or the server deletes it)`);
  } finally {
    await Promise.all(players.map((p) => p.client.destroy()));
  }
}

async function main(): Promise<number> {
  let options: BackendSampleOptions | undefined;
  let emulator: Emulator | undefined;
  try {
    options = readOptions(process.argv.slice(2), process.env);
    if (!options) {
      process.stdout.write(USAGE);
      return 0;
    }
    let server: Server;
    if (options.emulator === undefined) {
      emulator = await startEmulator({ users: 0, rpc: false, publisherApplications: [SEQUEL] });
      say('emulator', `platform emulator up at ${emulator.http} (application ${emulator.applicationId})`);
      server = { api: emulator.api, applicationId: emulator.applicationId, botToken: emulator.botToken };
    } else {
      server = {
        api: `${options.emulator}/api/v10`,
        applicationId: options.applicationId ?? '',
        botToken: options.botToken ?? '',
      };
      say('backend', `using the emulator at ${options.emulator} (application ${server.applicationId})`);
    }
    await walkthrough(server);
    if (emulator) await webhookSteps(emulator, server);
    else
      say(
        'backend',
        'steps 8 to 10 (webhook events, publisher-level linking) run with the embedded emulator; see README.md',
      );
    say('game-backend', 'done');
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`game-backend: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    process.stderr.write(`game-backend: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await emulator?.close();
  }
}

process.exitCode = await main();

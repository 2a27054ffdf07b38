import { AuthorizationTokenType, Client, type TokenExchangeResult } from 'sdkpp';
import type { GameBackend } from 'sdkpp/backend';

import { say } from './print.js';

/** What the game server knows about the platform: its API, the application, and the bot token. */
export interface Server {
  /** The HTTP API base, e.g. `http://127.0.0.1:5000/api/v10`. */
  readonly api: string;
  /** The game's application id. */
  readonly applicationId: string;
  /** The application's bot token: it stays on the server. */
  readonly botToken: string;
}

/** A player: the game's own account, and their game (an SDK client) signed in to a provisional account. */
export interface Player {
  /** The name the game shows. */
  readonly name: string;
  /** The id of the player's account in the game's own account system. */
  readonly externalId: string;
  /** The platform user id of their provisional account. */
  readonly id: string;
  /** The player's game. */
  readonly client: Client;
}

/**
 * The server's half: finds or creates the provisional account of one of the game's own accounts
 * (`GameBackend.getProvisionalToken`, the bot-token endpoint) and returns its token, which the server then
 * hands to that player's game over the game's own connection.
 */
export function provisionalTokenFor(
  backend: GameBackend,
  externalUserId: string,
  preferredName: string,
): Promise<TokenExchangeResult> {
  return backend.getProvisionalToken(externalUserId, preferredName);
}

/**
 * The game's half: with the token from its server, the SDK connects as the provisional account; no
 * browser, no platform account needed.
 */
export async function connectWithToken(server: Server, accessToken: string): Promise<Client> {
  const client = new Client({ apiBase: server.api, applicationId: server.applicationId, localClient: false });
  await client.updateToken(AuthorizationTokenType.Bearer, accessToken);
  await client.connect();
  return client;
}

/** Both halves for one player, narrated. */
export async function provisionPlayer(
  server: Server,
  backend: GameBackend,
  name: string,
  externalId: string,
): Promise<Player> {
  const token = await provisionalTokenFor(backend, externalId, name);
  say(
    'backend',
    `provisional account for game account ${externalId} ("${name}"): token with scope "${token.scopes}", valid ${Math.round(token.expiresIn / 86_400)} days, handed to ${name}'s game`,
  );
  const client = await connectWithToken(server, token.accessToken);
  const me = client.getCurrentUser();
  if (!me) throw new Error(`${name}'s game connected without a current user`);
  say(
    name,
    `game: updateToken(Bearer, token), connect() → Ready as ${me.displayName} (id ${me.id}, ${me.isProvisional ? 'provisional' : 'full'} account)`,
  );
  return { name, externalId, id: me.id, client };
}

/** Asking again for the same game account finds the same platform user: the call is find-or-create. */
export async function showFindOrCreate(server: Server, backend: GameBackend, player: Player): Promise<void> {
  const again = await provisionalTokenFor(backend, player.externalId, player.name);
  const response = await fetch(`${server.api}/users/@me`, {
    headers: { Authorization: `Bearer ${again.accessToken}` },
  });
  const id = ((await response.json()) as { id?: unknown }).id;
  say(
    'backend',
    `asked again for ${player.externalId}: ${id === player.id ? `the same user ${player.id}` : `a DIFFERENT user ${String(id)}`} (find or create)`,
  );
}

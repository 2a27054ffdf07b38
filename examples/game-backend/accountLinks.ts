import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Client } from 'sdkpp';
import { createWebhookEventsHandler, type WebhookEvent } from 'sdkpp/backend';

import { say } from './print.js';
import type { Server } from './provisional.js';

/** What the server keeps about a platform account that linked itself to the game. */
interface Link {
  readonly username: string;
  /** The perk the game granted for linking (dropped with the link). */
  readonly perk: string;
}

/**
 * The game server's table of linked platform accounts, kept honest by the platform's webhook events:
 * APPLICATION_AUTHORIZED adds a link (and a perk), APPLICATION_DEAUTHORIZED, which the platform sends when the
 * user revokes the app, unlinks or is banned, drops the link and its perk at once.
 */
export class AccountLinks {
  readonly #links = new Map<string, Link>();
  readonly #waiters: (() => void)[] = [];

  /** The webhook events handler's callback. */
  onEvent(event: WebhookEvent): void {
    if (event.type === 'APPLICATION_AUTHORIZED') {
      const user = event.data.user;
      this.#links.set(user.id, { username: user.username, perk: 'linked-account badge' });
      say(
        'backend',
        `webhook APPLICATION_AUTHORIZED: ${user.username} linked; granted the linked-account badge`,
      );
    } else if (event.type === 'APPLICATION_DEAUTHORIZED') {
      const link = this.#links.get(event.data.user.id);
      this.#links.delete(event.data.user.id);
      say(
        'backend',
        `webhook APPLICATION_DEAUTHORIZED: ${event.data.user.username} unlinked; dropped the link${link ? ` and the ${link.perk}` : ''}`,
      );
    }
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Whether a platform user is linked. */
  has(userId: string): boolean {
    return this.#links.has(userId);
  }

  /** Resolves once `check` holds after an event (or rejects after `ms`). */
  async until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no webhook event: ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** Starts the server's webhook events endpoint on loopback (every event to `onEvent`); resolves with its URL and a way to stop it. */
export async function listenForWebhookEvents(
  publicKey: string,
  onEvent: (event: WebhookEvent) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const http: HttpServer = createServer(createWebhookEventsHandler({ publicKey, onEvent }));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/webhooks`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => {
          resolve();
        });
        http.closeAllConnections();
      }),
  };
}

/**
 * A player with a platform account links it in the game (OAuth2 with PKCE in their game's SDK client); the
 * server learns of it from APPLICATION_AUTHORIZED. Later the player unlinks in the game (the SDK revokes the
 * token), and APPLICATION_DEAUTHORIZED tells the server to drop the link. `openUrl` is the player's browser.
 */
export async function linkThenUnlink(
  server: Server,
  links: AccountLinks,
  name: string,
  openUrl: (url: string) => Promise<void>,
): Promise<void> {
  const client = new Client({
    apiBase: server.api,
    applicationId: server.applicationId,
    localClient: false,
    openUrl,
  });
  try {
    const pkce = client.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
    const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
    const me = await client.fetchCurrentUser(tokens.accessToken);
    say(name, `game: linked the platform account ${me.username} (authorize + getToken)`);
    await links.until(() => links.has(me.id), `${name}'s link`);
    say(name, 'game: "Unlink account" → revokeToken');
    await client.revokeToken({ token: tokens.accessToken });
    await links.until(() => !links.has(me.id), `${name}'s unlink`);
  } finally {
    await client.destroy();
  }
}

import { AuthorizationTokenType, Client, type ClientOptions } from 'sdkpp';
import { emulatorBrowser } from '@sdkpp/emulator';

import type { Print } from './print.js';

/** Where the emulator is and which application the game is. */
export interface Platform {
  /** The emulator's HTTP origin, e.g. `http://127.0.0.1:53123`. */
  http: string;
  applicationId: string;
}

/**
 * A game client for the player, pointed at the emulator. With a username it signs in as that user; without one the SDK opens the system browser at the emulator's consent page.
 */
export function gameClient(platform: Platform, username: string | undefined): Client {
  const options: ClientOptions = {
    apiBase: `${platform.http}/api/v10`,
    webBase: platform.http,
    applicationId: platform.applicationId,
    // The game talks to the platform over the gateway only; the emulated desktop client is not involved.
    localClient: false,
  };
  // Plays that user at the emulator's consent page (or follows --auto-consent's redirect).
  if (username !== undefined) options.openUrl = emulatorBrowser(platform.http, username);
  return new Client(options);
}

/**
 * Links the player's account and connects: OAuth2 authorization code with PKCE (S256), token exchange,
 * then the gateway until Ready. Tokens stay inside the client; only the outcome is printed.
 */
export async function linkAndConnect(client: Client, print: Print): Promise<void> {
  const pkce = client.createAuthorizationCodeVerifier();
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  await client.connect();
  const me = client.getCurrentUser();
  print(
    'link',
    `signed in as ${me?.displayName ?? '?'} (@${me?.username ?? '?'}) with OAuth2 + PKCE; connected`,
  );
}

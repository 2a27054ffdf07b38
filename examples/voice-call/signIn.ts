import { AuthorizationTokenType, Client } from 'sdkpp';

import { say } from './print.js';

/** Where the platform is: the emulator's addresses and the game's application id. */
export interface Platform {
  /** The HTTP API base, e.g. `http://127.0.0.1:5000/api/v10`. */
  readonly api: string;
  /** The web base (authorize page), e.g. `http://127.0.0.1:5000`. */
  readonly http: string;
  /** The game's application id. */
  readonly applicationId: string;
}

/** How the SDK shows the player the authorize page: a browser, or a script that plays the player. */
export type UrlOpener = (url: string) => Promise<void>;

/** The game's SDK client for one player, pointed at the emulator (no desktop client). */
export function gameClient(platform: Platform, openUrl: UrlOpener): Client {
  return new Client({
    apiBase: platform.api,
    webBase: platform.http,
    applicationId: platform.applicationId,
    openUrl,
    localClient: false,
  });
}

/** For a person at the terminal: shows the authorize URL to open in a browser. */
export function askInTerminal(who: string): UrlOpener {
  return (url) => {
    say(who, `open this address in a browser and choose who signs in:\n    ${url}`);
    return Promise.resolve();
  };
}

/**
 * Account linking (OAuth2 with PKCE) and connecting: resolves once the client is Ready. Tokens stay in
 * memory; nothing here prints them.
 */
export async function signIn(client: Client, who: string): Promise<void> {
  const pkce = client.createAuthorizationCodeVerifier();
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  await client.connect();
  const me = client.getCurrentUser();
  say(who, `signed in as ${me?.displayName ?? '?'} (@${me?.username ?? '?'}, id ${me?.id ?? '?'})`);
}

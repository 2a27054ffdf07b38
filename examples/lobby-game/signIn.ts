import { AuthorizationTokenType, Client, type ClientOptions } from 'sdkpp';

import type { Print } from './print.js';

/** Where the emulator is and which application the game is. */
export interface Platform {
  /** The emulator's HTTP origin, e.g. `http://127.0.0.1:53123`. */
  http: string;
  applicationId: string;
}

/**
 * Plays the player's browser against an emulator started with `--auto-consent`: the authorize page, asked
 * with a login hint, approves at once as that user and redirects to the SDK's loopback listener, which this
 * follows. Only loopback redirects are followed, so the code never leaves the machine.
 */
export function autoConsentAs(username: string): (url: string) => Promise<void> {
  return async (authorizeUrl) => {
    const url = new URL(authorizeUrl);
    url.searchParams.set('login_hint', username);
    const page = await fetch(url, { redirect: 'manual' }).catch(() => {
      throw new Error(`no emulator answers at ${url.origin}: is it running?`);
    });
    await page.arrayBuffer();
    const location = page.headers.get('location');
    if (page.status !== 302 || location === null) {
      throw new Error(
        page.status === 200
          ? 'the emulator shows its consent page: start it with --auto-consent, or leave out --user to sign in in your browser'
          : `the emulator refused the sign-in (HTTP ${page.status}): is --app-id the emulator's application id?`,
      );
    }
    const redirect = new URL(location);
    if (redirect.searchParams.has('error')) {
      throw new Error(`sign-in refused: ${redirect.searchParams.get('error_description') ?? 'unknown user'}`);
    }
    if (redirect.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(redirect.hostname)) {
      throw new Error('the emulator redirected off this machine; not following');
    }
    const landed = await fetch(redirect, { redirect: 'manual' });
    await landed.arrayBuffer();
  };
}

/**
 * A game client for the player, pointed at the emulator. With a username it signs in as that user (the
 * emulator's auto-consent); without one the SDK opens the system browser at the emulator's consent page.
 */
export function gameClient(platform: Platform, username: string | undefined): Client {
  const options: ClientOptions = {
    apiBase: `${platform.http}/api/v10`,
    webBase: platform.http,
    applicationId: platform.applicationId,
    // The game talks to the platform over the gateway only; the emulated desktop client is not involved.
    localClient: false,
  };
  if (username !== undefined) options.openUrl = autoConsentAs(username);
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

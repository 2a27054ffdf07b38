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
 * Plays the player at the emulator's authorize page: asks for `username` (`login_hint`); an emulator started
 * with `--auto-consent` redirects at once, otherwise the page's form is submitted with "Authorize". The
 * final redirect goes to the SDK's loopback listener, which completes `authorize()`.
 */
export function clickAuthorizeAs(username: string): UrlOpener {
  const visit = async (location: string | null): Promise<void> => {
    if (location === null) throw new Error('the authorize page redirected nowhere');
    const target = new URL(location);
    if (target.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname))
      throw new Error(`the authorize page redirected off this machine (${target.origin})`);
    const error = target.searchParams.get('error_description') ?? target.searchParams.get('error');
    await (await fetch(target, { redirect: 'manual' })).arrayBuffer();
    if (error !== null) throw new Error(`the emulator refused the sign-in as ${username}: ${error}`);
  };
  return async (authorizeUrl) => {
    const url = new URL(authorizeUrl);
    url.searchParams.set('login_hint', username);
    const page = await fetch(url, { redirect: 'manual' });
    if (page.status === 302) {
      await page.arrayBuffer();
      return visit(page.headers.get('location'));
    }
    const html = await page.text();
    const form = /<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/.exec(html);
    const chosen = /<option value="(\d+)" selected>/.exec(html);
    if (page.status !== 200 || !form) throw new Error(`the authorize page failed (HTTP ${page.status})`);
    if (!chosen) throw new Error(`the emulator has no user "${username}" to sign in as`);
    const fields = new URLSearchParams();
    for (const input of (form[2] ?? '').matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
      fields.set(decodeEntities(input[1] ?? ''), decodeEntities(input[2] ?? ''));
    fields.set('user_id', chosen[1] ?? '');
    fields.set('action', 'authorize');
    const submitted = await fetch(new URL(decodeEntities(form[1] ?? ''), url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    await submitted.arrayBuffer();
    if (submitted.status !== 302) throw new Error(`the consent form was refused (HTTP ${submitted.status})`);
    return visit(submitted.headers.get('location'));
  };
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { authorizeUrl, exchange, locationParams, loopbackListener, pkce } from './helpers.js';

describe('GET /oauth2/authorize validation', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ customSchemes: ['mygame'] });
  });
  afterAll(async () => {
    await emu.close();
  });

  const valid = (overrides: Record<string, string> = {}): string => {
    const url = new URL(
      authorizeUrl(emu, {
        redirectUri: 'http://127.0.0.1:5555/callback',
        challenge: pkce().challenge,
        state: 'xyz',
      }),
    );
    for (const [k, v] of Object.entries(overrides)) url.searchParams.set(k, v);
    return url.toString();
  };

  it('shows a 400 page and never redirects for an unregistered redirect_uri', async () => {
    const response = await fetch(valid({ redirect_uri: 'https://evil.example/callback' }), {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('is not registered');
  });

  it('shows a 400 page for an unknown client_id', async () => {
    const response = await fetch(valid({ client_id: '123' }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('Unknown application');
  });

  it('accepts loopback URIs on any port and path, and the registered custom schemes', async () => {
    for (const redirectUri of [
      'http://localhost:1234/x/y',
      'http://127.0.0.1/callback',
      `discord-${emu.applicationId}:/authorize/callback`,
      'mygame:/authorize/callback',
    ]) {
      const response = await fetch(valid({ redirect_uri: redirectUri }), { redirect: 'manual' });
      expect(response.status, redirectUri).toBe(200);
    }
    const other = await fetch(valid({ redirect_uri: 'othergame:/authorize/callback' }), {
      redirect: 'manual',
    });
    expect(other.status).toBe(400);
  });

  it('redirects with invalid_request for code_challenge_method=plain, keeping state', async () => {
    const response = await fetch(valid({ code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect(response.status).toBe(302);
    const params = locationParams(response);
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('error_description')).toMatch(/S256/);
    expect(params.get('state')).toBe('xyz');
    expect(params.get('code')).toBeNull();
  });

  it('redirects with invalid_request when the challenge is missing or malformed', async () => {
    const url = new URL(valid());
    url.searchParams.delete('code_challenge');
    expect(locationParams(await fetch(url, { redirect: 'manual' })).get('error')).toBe('invalid_request');
    const bad = await fetch(valid({ code_challenge: 'short' }), { redirect: 'manual' });
    expect(locationParams(bad).get('error')).toBe('invalid_request');
  });

  it('redirects with unsupported_response_type and invalid_scope', async () => {
    expect(
      locationParams(await fetch(valid({ response_type: 'token' }), { redirect: 'manual' })).get('error'),
    ).toBe('unsupported_response_type');
    const scope = await fetch(valid({ scope: 'openid email' }), { redirect: 'manual' });
    expect(locationParams(scope).get('error')).toBe('invalid_scope');
  });

  it('answers malformed percent-encoding with a 400 page', async () => {
    const response = await fetch(`${emu.http}/oauth2/authorize?client_id=%zz`, { redirect: 'manual' });
    expect(response.status).toBe(400);
  });

  it('renders a consent page with the app, scopes, users and escaped echoes', async () => {
    const response = await fetch(valid({ state: '"><script>alert(1)</script>', login_hint: 'bob' }), {
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('sdkpp Demo Game');
    expect(html).toContain('sdk.social_layer');
    expect(html).toContain('lobbies.write');
    expect(html).toMatch(/<option value="\d+">Alice \(@alice\)<\/option>/);
    expect(html).toMatch(/<option value="\d+" selected>Bob \(@bob\)<\/option>/);
    expect(html).toContain('name="csrf_token"');
    expect(html).toContain('value="authorize"');
    expect(html).toContain('value="cancel"');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
    expect(html).not.toMatch(/<link|<img|src=/);
  });
});

describe('consent form through browserAs', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ users: 3 });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('submits Authorize as the chosen user and follows the loopback redirect', async () => {
    const listener = await loopbackListener();
    try {
      const { verifier, challenge } = pkce();
      await emu.browserAs('carol')(
        authorizeUrl(emu, { redirectUri: listener.redirectUri, challenge, state: 's1' }),
      );
      expect(listener.hits).toHaveLength(1);
      const hit = listener.hits[0];
      expect(hit?.pathname).toBe('/callback');
      expect(hit?.searchParams.get('state')).toBe('s1');
      const code = hit?.searchParams.get('code') ?? '';
      const tokens = await exchange(emu, { code, verifier, redirectUri: listener.redirectUri });
      const me = await fetch(`${emu.api}/users/@me`, {
        headers: { Authorization: `Bearer ${tokens.access_token}` },
      });
      expect(((await me.json()) as { username: string }).username).toBe('carol');
    } finally {
      await listener.close();
    }
  });

  it('issues a code without PKCE that only the client secret redeems (the server-side exchange)', async () => {
    // The SDK's authorize() without codeChallenge: the game hands the code to its server, which exchanges it
    // as the confidential client. Without the secret, no verifier can stand in for it.
    const listener = await loopbackListener();
    try {
      await emu.browserAs('carol')(authorizeUrl(emu, { redirectUri: listener.redirectUri, state: 'np' }));
      const code = listener.hits[0]?.searchParams.get('code') ?? '';
      expect(code).not.toBe('');
      const token = (secret: string | null): Promise<Response> =>
        fetch(`${emu.api}/oauth2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: listener.redirectUri,
            client_id: emu.applicationId,
            ...(secret === null ? { code_verifier: pkce().verifier } : { client_secret: secret }),
          }),
        });
      const asGame = await token(null);
      expect(asGame.status).toBe(400);
      expect(await asGame.json()).toMatchObject({ error: 'invalid_grant' });
      const asServer = await token(emu.clientSecret);
      expect(asServer.status).toBe(200);
      const { access_token } = (await asServer.json()) as { access_token: string };
      const me = await fetch(`${emu.api}/users/@me`, {
        headers: { Authorization: `Bearer ${access_token}` },
      });
      expect(((await me.json()) as { username: string }).username).toBe('carol');
    } finally {
      await listener.close();
    }
  });

  it('Cancel redirects with access_denied and the state', async () => {
    const listener = await loopbackListener();
    try {
      await emu.browserAs('alice', { action: 'cancel' })(
        authorizeUrl(emu, { redirectUri: listener.redirectUri, challenge: pkce().challenge, state: 's2' }),
      );
      const hit = listener.hits[0];
      expect(hit?.searchParams.get('error')).toBe('access_denied');
      expect(hit?.searchParams.get('state')).toBe('s2');
      expect(hit?.searchParams.get('code')).toBeNull();
    } finally {
      await listener.close();
    }
  });

  it('hands a custom-scheme redirect to onCustomSchemeRedirect', async () => {
    const seen: string[] = [];
    const redirectUri = `discord-${emu.applicationId}:/authorize/callback`;
    await emu.browserAs('bob', { onCustomSchemeRedirect: (url) => seen.push(url) })(
      authorizeUrl(emu, { redirectUri, challenge: pkce().challenge, state: 's3' }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(
      new RegExp(`^discord-${emu.applicationId}:/authorize/callback\\?code=[A-Za-z0-9_-]{32,}&state=s3$`),
    );
  });

  it('rejects with the page message when the authorize page is an error', async () => {
    await expect(
      emu.browserAs('alice')(
        authorizeUrl(emu, { redirectUri: 'https://evil.example/', challenge: pkce().challenge }),
      ),
    ).rejects.toThrow(/not registered/);
  });

  it('refuses a form whose parameters were changed after rendering', async () => {
    const page = await fetch(
      authorizeUrl(emu, { redirectUri: 'http://127.0.0.1:9/cb', challenge: pkce().challenge, state: 'a' }),
    );
    const html = await page.text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const fields = new URLSearchParams({
      response_type: 'code',
      client_id: emu.applicationId,
      scope: 'openid sdk.social_layer',
      redirect_uri: 'http://127.0.0.1:9/cb',
      state: 'CHANGED',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      csrf_token: csrf,
      user_id: emu.users[0]?.id ?? '',
      action: 'authorize',
    });
    const response = await fetch(`${emu.http}/oauth2/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });
});

describe('autoConsent', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('redirects at once for the login_hint user (by username or id) and the first user by default', async () => {
    const check = async (hint: string | undefined, expected: string): Promise<void> => {
      const { verifier, challenge } = pkce();
      const redirectUri = 'http://127.0.0.1:7777/callback';
      const extra: Record<string, string> = hint === undefined ? {} : { login_hint: hint };
      const response = await fetch(authorizeUrl(emu, { redirectUri, challenge, state: 'q', extra }), {
        redirect: 'manual',
      });
      expect(response.status).toBe(302);
      const code = locationParams(response).get('code') ?? '';
      const tokens = await exchange(emu, { code, verifier, redirectUri });
      const me = await fetch(`${emu.api}/users/@me`, {
        headers: { Authorization: `Bearer ${tokens.access_token}` },
      });
      expect(((await me.json()) as { username: string }).username).toBe(expected);
    };
    await check('bob', 'bob');
    await check(emu.users[1]?.id, 'bob');
    await check(undefined, 'alice');
  });

  it('still shows the page with prompt=consent, so browserAs can cancel', async () => {
    const page = await fetch(
      authorizeUrl(emu, {
        redirectUri: 'http://127.0.0.1:1/c',
        challenge: pkce().challenge,
        extra: { prompt: 'consent' },
      }),
      { redirect: 'manual' },
    );
    expect(page.status).toBe(200);
    const listener = await loopbackListener();
    try {
      await emu.browserAs('bob', { action: 'cancel' })(
        authorizeUrl(emu, { redirectUri: listener.redirectUri, challenge: pkce().challenge }),
      );
      expect(listener.hits[0]?.searchParams.get('error')).toBe('access_denied');
    } finally {
      await listener.close();
    }
  });

  it('redirects with invalid_request when login_hint names nobody', async () => {
    const response = await fetch(
      authorizeUrl(emu, {
        redirectUri: 'http://127.0.0.1:1/c',
        challenge: pkce().challenge,
        extra: { login_hint: 'nobody' },
      }),
      { redirect: 'manual' },
    );
    expect(locationParams(response).get('error')).toBe('invalid_request');
  });
});

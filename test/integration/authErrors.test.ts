import { describe, expect, it } from 'vitest';

import {
  AbortedError,
  AuthenticationCodeChallengeMethod,
  AuthorizationError,
  AuthorizationTokenType,
  DeauthorizedError,
  ErrorType,
  HttpError,
  ValidationError,
  createAuthorizationCodeVerifier,
} from '../../packages/sdkpp/src/index.js';
import { allSecrets, clientFor, emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

async function authorizeAs(emulator: Awaited<ReturnType<typeof emulatorFor>>, username = 'alice') {
  const client = clientFor(emulator, { openUrl: emulator.browserAs(username) });
  const pkce = client.createAuthorizationCodeVerifier();
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  allSecrets.add(code);
  allSecrets.add(pkce.verifier);
  return { client, pkce, code, redirectUri };
}

describe('authorization and token errors', () => {
  it('a wrong PKCE verifier is invalid_grant', async () => {
    const emulator = await emulatorFor();
    const { client, code, redirectUri } = await authorizeAs(emulator);
    const other = createAuthorizationCodeVerifier();
    const error = await client
      .getToken({ code, codeVerifier: other.verifier, redirectUri })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ code: 'invalid_grant', status: 400, type: ErrorType.HTTPError });
  });

  it('a code works once; reusing it is invalid_grant and kills the tokens it issued', async () => {
    const emulator = await emulatorFor();
    const { client, pkce, code, redirectUri } = await authorizeAs(emulator);
    const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
    allSecrets.add(tokens.accessToken);
    await expect(client.getToken({ code, codeVerifier: pkce.verifier, redirectUri })).rejects.toMatchObject({
      code: 'invalid_grant',
    });
    await expect(client.fetchCurrentUser(tokens.accessToken)).rejects.toMatchObject({ status: 401 });
  });

  it('an expired code is invalid_grant', async () => {
    const emulator = await emulatorFor({ codeTtlMs: 50 });
    const { client, pkce, code, redirectUri } = await authorizeAs(emulator);
    await new Promise((r) => setTimeout(r, 150));
    await expect(client.getToken({ code, codeVerifier: pkce.verifier, redirectUri })).rejects.toMatchObject({
      code: 'invalid_grant',
    });
  });

  it('a redirect URI other than the authorize one is invalid_grant', async () => {
    const emulator = await emulatorFor();
    const { client, pkce, code } = await authorizeAs(emulator);
    await expect(
      client.getToken({ code, codeVerifier: pkce.verifier, redirectUri: 'http://127.0.0.1:1/other' }),
    ).rejects.toMatchObject({ code: 'invalid_grant' });
  });

  it('a malformed verifier is refused locally, before any request', async () => {
    const emulator = await emulatorFor();
    const client = clientFor(emulator);
    const before = emulator.requestCount('POST', '/oauth2/token');
    await expect(
      client.getToken({ code: 'x', codeVerifier: 'short', redirectUri: 'http://127.0.0.1:1/cb' }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(emulator.requestCount('POST', '/oauth2/token')).toBe(before);
  });

  it('the plain challenge method is refused by the SDK and by the platform', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const client = clientFor(emulator, { openUrl: emulator.browserAs('alice') });
    await expect(
      client.authorize({
        codeChallenge: {
          method: 1 as unknown as AuthenticationCodeChallengeMethod,
          challenge: 'x'.repeat(43),
        },
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    const url = new URL('/oauth2/authorize', emulator.http);
    const p = url.searchParams;
    p.set('response_type', 'code');
    p.set('client_id', emulator.applicationId);
    p.set('scope', 'openid sdk.social_layer');
    p.set('redirect_uri', 'http://127.0.0.1:9/callback');
    p.set('state', 'st');
    p.set('code_challenge', 'x'.repeat(43));
    p.set('code_challenge_method', 'plain');
    p.set('login_hint', 'alice');
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('a revoked refresh token is a DeauthorizedError and raises the deauthorized event', async () => {
    const emulator = await emulatorFor();
    const player = await linkAndConnect(emulator, userAt(emulator, 0));
    const events: unknown[] = [];
    player.client.on('deauthorized', (e) => events.push(e));
    await player.client.revokeToken({ token: player.accessToken });
    const error = await player.client
      .refreshToken({ refreshToken: player.refreshToken })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeauthorizedError);
    expect(error).toMatchObject({ code: 'invalid_grant', status: 400 });
    expect(events).toEqual([error]);
  });

  it('refresh rotates: the new pair works, the old refresh token does not', async () => {
    const emulator = await emulatorFor();
    const player = await linkAndConnect(emulator, userAt(emulator, 0));
    const fresh = await player.client.refreshToken({ refreshToken: player.refreshToken });
    allSecrets.add(fresh.accessToken);
    allSecrets.add(fresh.refreshToken);
    expect(fresh.accessToken).not.toBe(player.accessToken);
    expect(await player.client.fetchCurrentUser(fresh.accessToken)).toEqual({
      id: player.user.id,
      username: 'alice',
    });
    await expect(player.client.refreshToken({ refreshToken: player.refreshToken })).rejects.toBeInstanceOf(
      DeauthorizedError,
    );
  });

  it('a user who cancels on the consent page gives AuthorizationError access_denied', async () => {
    const emulator = await emulatorFor();
    const client = clientFor(emulator, { openUrl: emulator.browserAs('alice', { action: 'cancel' }) });
    const pkce = client.createAuthorizationCodeVerifier();
    const error = await client.authorize({ codeChallenge: pkce.challenge }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ code: 'access_denied', type: ErrorType.AuthorizationFailed });
  });

  it('a forged redirect with the wrong state is ignored and the real one still completes', async () => {
    const emulator = await emulatorFor();
    const browser = emulator.browserAs('alice');
    let forgedStatus = 0;
    const client = clientFor(emulator, {
      openUrl: async (url) => {
        const redirect = new URL(url).searchParams.get('redirect_uri') ?? '';
        forgedStatus = (await fetch(`${redirect}?code=evil&state=wrong`)).status;
        await browser(url);
      },
    });
    const result = await client.authorize({
      codeChallenge: client.createAuthorizationCodeVerifier().challenge,
    });
    allSecrets.add(result.code);
    expect(forgedStatus).toBe(400);
    expect(result.code).not.toBe('evil');
  });

  it('times out cleanly, and aborts cleanly, closing the loopback listener', async () => {
    const emulator = await emulatorFor();
    let redirect = '';
    const client = clientFor(emulator, {
      openUrl: (url) => {
        redirect = new URL(url).searchParams.get('redirect_uri') ?? '';
        return Promise.resolve();
      },
    });
    await expect(client.authorize({}, { timeoutMs: 100 })).rejects.toMatchObject({
      type: ErrorType.AuthorizationFailed,
      code: 'timeout',
    });
    await expect(fetch(redirect)).rejects.toThrow();

    const controller = new AbortController();
    const pending = client.authorize({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortedError);

    const viaClient = client.authorize({});
    setTimeout(() => client.abortAuthorize(), 50);
    await expect(viaClient).rejects.toBeInstanceOf(AbortedError);
  });

  it('a custom scheme redirect completes through completeAuthorize()', async () => {
    const emulator = await emulatorFor({ customSchemes: ['mygame'] });
    let callback = '';
    const client = clientFor(emulator, {
      openUrl: emulator.browserAs('bob', { onCustomSchemeRedirect: (url) => (callback = url) }),
    });
    const pkce = client.createAuthorizationCodeVerifier();
    const pending = client.authorize({ codeChallenge: pkce.challenge, customSchemeParam: 'mygame' });
    await eventually(() => callback !== '', 5_000, 'the custom-scheme redirect');
    expect(callback.startsWith('mygame:/authorize/callback?')).toBe(true);
    expect(client.completeAuthorize(callback.replace(/state=[^&]+/, 'state=forged'))).toBe(false);
    expect(client.completeAuthorize(callback)).toBe(true);
    const { code, redirectUri } = await pending;
    expect(redirectUri).toBe('mygame:/authorize/callback');
    const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
    allSecrets.add(tokens.accessToken);
    allSecrets.add(code);
    expect((await client.fetchCurrentUser(tokens.accessToken)).username).toBe('bob');
  });

  it('updateToken refuses a token the platform does not know, and non-Bearer tokens', async () => {
    const emulator = await emulatorFor();
    const client = clientFor(emulator);
    await expect(
      client.updateToken(AuthorizationTokenType.Bearer, 'not-a-real-token-value'),
    ).rejects.toMatchObject({ status: 401 });
    expect(client.isAuthenticated()).toBe(false);
    await expect(client.updateToken(AuthorizationTokenType.User, 'x')).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});

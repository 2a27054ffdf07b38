/**
 * GameBackend.exchangeCode and refreshToken: the confidential client's grants, with the client secret on the
 * server and only the code coming from the game, against the emulator's token endpoint over loopback. The
 * file's log lines (the backend's at Verbose, the clients', the emulator's) are scanned for every secret.
 */
import { describe, expect, it } from 'vitest';

import {
  ClientDestroyedError,
  createAuthorizationCodeVerifier,
  DeauthorizedError,
  GameBackend,
  HttpError,
  LoggingSeverity,
  ValidationError,
} from '../../packages/sdkpp/src/backend/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { HostSocket, voiceChannel } from '../emulator/activityHostHelpers.js';
import { allLogLines, allSecrets, clientFor, emulatorFor } from './helpers.js';

const CLIENT_SECRET = 'backend-tokens-test-client-secret';
allSecrets.add(CLIENT_SECRET);

function backendFor(emulator: Emulator, clientSecret = CLIENT_SECRET): GameBackend {
  return new GameBackend({
    applicationId: emulator.applicationId,
    clientSecret,
    apiBase: emulator.api,
    logCallback: (line) => allLogLines.push(line),
    logSeverity: LoggingSeverity.Verbose,
  });
}

/**
 * One sign-in as the guide lays it out: the server makes the PKCE pair and keeps the verifier, the game
 * authorizes as `username` with the challenge and sends back the code and its redirect URI.
 */
async function signInFromGame(
  emulator: Emulator,
  username: string,
): Promise<{ code: string; redirectUri: string; codeVerifier: string }> {
  const pkce = createAuthorizationCodeVerifier();
  allSecrets.add(pkce.verifier);
  const game = clientFor(emulator, { openUrl: emulator.browserAs(username) });
  const { code, redirectUri } = await game.authorize({ codeChallenge: pkce.challenge });
  allSecrets.add(code);
  return { code, redirectUri, codeVerifier: pkce.verifier };
}

function remember(tokens: { accessToken: string; refreshToken: string; idToken?: string }): void {
  for (const secret of [tokens.accessToken, tokens.refreshToken, tokens.idToken]) {
    if (secret) allSecrets.add(secret);
  }
}

describe('GameBackend tokens (client secret)', () => {
  it('exchanges the code the game sent with the verifier it kept, once; a second exchange is refused and kills the tokens', async () => {
    const emulator = await emulatorFor({ clientSecret: CLIENT_SECRET });
    const backend = backendFor(emulator);
    const sent = await signInFromGame(emulator, 'alice');

    const tokens = await backend.exchangeCode(sent);
    remember(tokens);
    expect(tokens).toMatchObject({ scopes: 'openid sdk.social_layer', expiresIn: 604_800 });
    expect(tokens.refreshToken).not.toBe('');
    const game = clientFor(emulator);
    expect((await game.fetchCurrentUser(tokens.accessToken)).username).toBe('alice');

    const again = await backend.exchangeCode(sent).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(HttpError);
    expect(again).toMatchObject({ status: 400, code: 'invalid_grant' });
    await expect(game.fetchCurrentUser(tokens.accessToken)).rejects.toMatchObject({ status: 401 });
    expect(emulator.requestCount('POST', '/oauth2/token')).toBe(2);
  });

  it("exchanges an Activity's code, which has no challenge and no redirect URI, with the secret alone", async () => {
    const emulator = await emulatorFor({ clientSecret: CLIENT_SECRET, autoConsent: true });
    const backend = backendFor(emulator);
    const frame = await HostSocket.open(
      emulator,
      emulator.launchActivity({ user: 'bob', channel: voiceChannel(emulator) }).url,
    );
    try {
      await frame.handshake(emulator);
      const reply = await frame.command('AUTHORIZE', {
        client_id: emulator.applicationId,
        response_type: 'code',
        scope: ['identify'],
      });
      const { code } = reply.data as { code: string };
      allSecrets.add(code);
      const tokens = await backend.exchangeCode({ code });
      remember(tokens);
      expect(tokens.scopes).toBe('identify');
      expect((await clientFor(emulator).fetchCurrentUser(tokens.accessToken)).username).toBe('bob');
    } finally {
      frame.close();
    }
  });

  it('refuses a PKCE code without its verifier, or with a redirect URI other than the one authorize() used', async () => {
    const emulator = await emulatorFor({ clientSecret: CLIENT_SECRET });
    const backend = backendFor(emulator);
    const sent = await signInFromGame(emulator, 'bob');
    await expect(
      backend.exchangeCode({ code: sent.code, redirectUri: sent.redirectUri }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'invalid_grant',
    });
    const other = await signInFromGame(emulator, 'bob');
    await expect(
      backend.exchangeCode({ ...other, redirectUri: 'http://127.0.0.1:1/callback' }),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_grant' });
  });

  it('refreshes with the secret: a new pair, the old one dead; after a revoke the refresh is a DeauthorizedError', async () => {
    const emulator = await emulatorFor({ clientSecret: CLIENT_SECRET });
    const backend = backendFor(emulator);
    const first = await backend.exchangeCode(await signInFromGame(emulator, 'alice'));
    remember(first);

    const second = await backend.refreshToken({ refreshToken: first.refreshToken });
    remember(second);
    expect(second.accessToken).not.toBe(first.accessToken);
    const game = clientFor(emulator);
    expect((await game.fetchCurrentUser(second.accessToken)).username).toBe('alice');
    await expect(game.fetchCurrentUser(first.accessToken)).rejects.toMatchObject({ status: 401 });
    await expect(backend.refreshToken({ refreshToken: first.refreshToken })).rejects.toBeInstanceOf(
      DeauthorizedError,
    );

    const alice = emulator.users.find((u) => u.username === 'alice');
    emulator.revokeUserTokens(alice?.id ?? '');
    const revoked = await backend
      .refreshToken({ refreshToken: second.refreshToken })
      .catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(DeauthorizedError);
    expect(revoked).toMatchObject({ status: 400, code: 'invalid_grant' });
  });

  it('a wrong client secret is 401 invalid_client, and the code still works with the right one', async () => {
    const emulator = await emulatorFor({ clientSecret: CLIENT_SECRET });
    const wrongSecret = 'not-the-client-secret-at-all';
    allSecrets.add(wrongSecret);
    const sent = await signInFromGame(emulator, 'alice');
    const refused = await backendFor(emulator, wrongSecret)
      .exchangeCode(sent)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 401, code: 'invalid_client' });
    remember(await backendFor(emulator).exchangeCode(sent));
  });

  it('refuses before any request what it can check, and a backend without a bot token only does tokens', async () => {
    const emulator = await emulatorFor({ clientSecret: CLIENT_SECRET });
    const backend = backendFor(emulator);
    await expect(backend.exchangeCode({ code: '' })).rejects.toBeInstanceOf(ValidationError);
    await expect(backend.exchangeCode({ code: 'abc', codeVerifier: 'short' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(backend.refreshToken({ refreshToken: '' })).rejects.toBeInstanceOf(ValidationError);
    const botOnly = new GameBackend({
      botToken: emulator.botToken,
      applicationId: emulator.applicationId,
      apiBase: emulator.api,
    });
    await expect(botOnly.exchangeCode({ code: 'abc' })).rejects.toThrow(
      'needs GameBackendOptions.clientSecret',
    );
    const noAppId = new GameBackend({ clientSecret: CLIENT_SECRET, apiBase: emulator.api });
    await expect(noAppId.refreshToken({ refreshToken: 'abc' })).rejects.toThrow(
      'needs GameBackendOptions.applicationId',
    );
    await expect(backend.createLobby()).rejects.toThrow('needs GameBackendOptions.botToken');
    expect(() => new GameBackend({})).toThrow(ValidationError);
    expect(() => new GameBackend({ clientSecret: ' ' })).toThrow(ValidationError);
    expect(emulator.requestCount('POST', '/oauth2/token')).toBe(0);
    expect(emulator.requestCount('POST', '/lobbies')).toBe(0);

    await backend.close();
    await expect(backend.refreshToken({ refreshToken: 'abc' })).rejects.toBeInstanceOf(ClientDestroyedError);
  });
});

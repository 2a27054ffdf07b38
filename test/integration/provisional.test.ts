import { describe, expect, it } from 'vitest';

import { GameBackend } from '../../packages/sdkpp/src/backend/index.js';
import {
  AuthenticationExternalAuthType,
  AuthorizationTokenType,
  ClientStatus,
  HttpError,
  ValidationError,
} from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { allLogLines, allSecrets, clientFor, emulatorFor } from './helpers.js';

const steam = (ticket: string) => ({
  externalAuthType: AuthenticationExternalAuthType.SteamSessionTicket,
  externalAuthToken: ticket,
});

async function provisionalUserId(emulator: Emulator, ticket: string): Promise<string> {
  const client = clientFor(emulator);
  const tokens = await client.getProvisionalToken(steam(ticket));
  allSecrets.add(tokens.accessToken);
  return (await client.fetchCurrentUser(tokens.accessToken)).id;
}

async function mergeAs(emulator: Emulator, username: string, ticket: string) {
  const client = clientFor(emulator, { openUrl: emulator.browserAs(username) });
  const pkce = client.createAuthorizationCodeVerifier();
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  allSecrets.add(code);
  return client.getTokenFromProvisionalMerge({
    code,
    codeVerifier: pkce.verifier,
    redirectUri,
    ...steam(ticket),
  });
}

describe('provisional accounts', () => {
  it('a provisional token connects as a provisional user; the same identity gets the same account', async () => {
    const emulator = await emulatorFor();
    const client = clientFor(emulator);
    const tokens = await client.getProvisionalToken(steam('steam-ticket-0001'));
    allSecrets.add(tokens.accessToken);
    expect(tokens.refreshToken).toBe('');
    expect(tokens.scopes).toBe('sdk.social_layer');
    await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    await client.connect();
    expect(client.getStatus()).toBe(ClientStatus.Ready);
    const me = client.getCurrentUser();
    expect(me?.isProvisional).toBe(true);
    expect(await provisionalUserId(emulator, 'steam-ticket-0001')).toBe(me?.id);
    expect(await provisionalUserId(emulator, 'steam-ticket-0002')).not.toBe(me?.id);
  });

  it('merge into a full account, then the identity answers 530010; unmerge gives a new provisional account', async () => {
    const emulator = await emulatorFor();
    const before = await provisionalUserId(emulator, 'ticket-merge');
    const merged = await mergeAs(emulator, 'alice', 'ticket-merge');
    allSecrets.add(merged.accessToken);
    const mergedClient = clientFor(emulator);
    expect((await mergedClient.fetchCurrentUser(merged.accessToken)).username).toBe('alice');

    const error = await clientFor(emulator)
      .getProvisionalToken(steam('ticket-merge'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ code: 530010, status: 400 });

    await clientFor(emulator).unmergeIntoProvisionalAccount(steam('ticket-merge'));
    const after = await provisionalUserId(emulator, 'ticket-merge');
    expect(after).not.toBe(before);
    await expect(mergedClient.fetchCurrentUser(merged.accessToken)).rejects.toMatchObject({ status: 401 });
  });

  it("the game's backend gets provisional accounts for its own player ids with the bot token, and unmerges them", async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const backend = new GameBackend({
      botToken: emulator.botToken,
      apiBase: emulator.api,
      logCallback: (line) => allLogLines.push(line),
    });
    const tokens = await backend.getProvisionalToken('player-7', 'Aria');
    allSecrets.add(tokens.accessToken);
    expect(tokens).toMatchObject({ refreshToken: '', scopes: 'sdk.social_layer' });
    expect(tokens.idToken).toEqual(expect.any(String));

    const game = clientFor(emulator);
    await game.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    await game.connect();
    const me = game.getCurrentUser();
    expect(me).toMatchObject({ isProvisional: true, displayName: 'Aria' });
    const again = await backend.getProvisionalToken('player-7');
    allSecrets.add(again.accessToken);
    expect((await clientFor(emulator).fetchCurrentUser(again.accessToken)).id).toBe(me?.id);
    const other = await backend.getProvisionalToken('player-8');
    allSecrets.add(other.accessToken);
    expect((await clientFor(emulator).fetchCurrentUser(other.accessToken)).id).not.toBe(me?.id);

    // The player links a full account: the game's id now belongs to it, until the backend unmerges it.
    const linker = clientFor(emulator, { openUrl: emulator.browserAs('alice') });
    const pkce = linker.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await linker.authorize({ codeChallenge: pkce.challenge });
    allSecrets.add(code);
    const merged = await linker.getTokenFromProvisionalMerge({
      code,
      codeVerifier: pkce.verifier,
      redirectUri,
      externalAuthType: AuthenticationExternalAuthType.DiscordBotIssuedAccessToken,
      externalAuthToken: again.accessToken,
    });
    allSecrets.add(merged.accessToken);
    await expect(backend.getProvisionalToken('player-7')).rejects.toMatchObject({
      status: 400,
      code: 530010,
    });
    await backend.unmergeProvisionalAccount('player-7');
    const fresh = await backend.getProvisionalToken('player-7');
    allSecrets.add(fresh.accessToken);
    const freshUser = await clientFor(emulator).fetchCurrentUser(fresh.accessToken);
    expect(freshUser.id).not.toBe(me?.id);
    await game.disconnect();

    // Checked before any request.
    await expect(backend.getProvisionalToken('')).rejects.toBeInstanceOf(ValidationError);
    await expect(backend.getProvisionalToken('player-9', 'x'.repeat(33))).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(backend.unmergeProvisionalAccount('y'.repeat(1025))).rejects.toBeInstanceOf(ValidationError);
    expect(emulator.requestCount('POST', '/partner-sdk/token/bot')).toBe(5);
    await expect(backend.unmergeProvisionalAccount('never-seen')).rejects.toBeInstanceOf(HttpError);
  });

  it("a banned user's identity lands on a restricted provisional account whose merge fails with 530017", async () => {
    const emulator = await emulatorFor({ users: 3 });
    const merged = await mergeAs(emulator, 'alice', 'ticket-ban');
    allSecrets.add(merged.accessToken);
    const alice = emulator.users.find((u) => u.username === 'alice');
    if (!alice) throw new Error('no alice');
    emulator.banUser(alice.id);
    await expect(clientFor(emulator).fetchCurrentUser(merged.accessToken)).rejects.toMatchObject({
      status: 401,
    });
    const restricted = await provisionalUserId(emulator, 'ticket-ban');
    expect(restricted).not.toBe(alice.id);
    await expect(mergeAs(emulator, 'bob', 'ticket-ban')).rejects.toMatchObject({ code: 530017, status: 400 });
  });
});

describe('token lifecycle', () => {
  it('tokenExpiring fires once before the token expires', async () => {
    const emulator = await emulatorFor({ accessTokenTtlSeconds: 2 });
    const client = clientFor(emulator, { openUrl: emulator.browserAs('alice'), tokenExpiryWarningMs: 1_000 });
    const fired: number[] = [];
    client.on('tokenExpiring', (at) => fired.push(at));
    const pkce = client.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
    const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
    allSecrets.add(code);
    allSecrets.add(tokens.accessToken);
    expect(tokens.expiresIn).toBe(2);
    const setAt = Date.now();
    await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    await new Promise((r) => setTimeout(r, 2_300));
    expect(fired).toHaveLength(1);
    const expiresAt = fired[0] ?? 0;
    expect(expiresAt).toBeGreaterThan(setAt);
    expect(expiresAt - setAt).toBeLessThanOrEqual(2_500);
  });

  it('a token set from storage learns its expiry from the platform', async () => {
    const emulator = await emulatorFor({ accessTokenTtlSeconds: 2 });
    const issuer = clientFor(emulator, { openUrl: emulator.browserAs('bob') });
    const pkce = issuer.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await issuer.authorize({ codeChallenge: pkce.challenge });
    const tokens = await issuer.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
    allSecrets.add(code);
    allSecrets.add(tokens.accessToken);
    const fresh = clientFor(emulator, { tokenExpiryWarningMs: 1_000 });
    let fired = 0;
    fresh.on('tokenExpiring', () => (fired += 1));
    await fresh.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    await new Promise((r) => setTimeout(r, 2_300));
    expect(fired).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';

import {
  AuthenticationExternalAuthType,
  AuthorizationArgs,
  AuthorizationTokenType,
  Client,
  ClientResult,
  ClientStatus,
  ErrorType,
  ResetCallbacks,
} from '../../packages/sdkpp/bindings/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { allSecrets, emulatorFor } from './helpers.js';
import { pumpUntil } from './bindingsHelpers.js';

const STEAM = AuthenticationExternalAuthType.SteamSessionTicket;

/** A bindings client of the emulator; destroyed by the test that made it. */
function clientOf(emulator: Emulator, username = 'alice', extra: object = {}): Client {
  return new Client({
    apiBase: emulator.api,
    webBase: emulator.http,
    openUrl: emulator.browserAs(username),
    localClient: false,
    ...extra,
  });
}

/** One callback's arguments, pumped for: the C++ pattern of "call, then RunCallbacks until it answered". */
async function answer<Args extends unknown[]>(
  call: (callback: (...args: Args) => void) => void,
): Promise<Args> {
  let received: Args | undefined;
  call((...args) => {
    received = args;
  });
  await pumpUntil(() => received !== undefined);
  if (!received) throw new Error('no answer');
  return received;
}

/** Authorize with PKCE through the bindings; resolves with what GetTokenFromProvisionalMerge or GetToken need. */
async function authorize(client: Client, emulator: Emulator): Promise<[string, string, string]> {
  const verifier = client.CreateAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.SetClientId(emulator.applicationId);
  args.SetScopes(Client.GetDefaultPresenceScopes());
  args.SetCodeChallenge(verifier.Challenge());
  const [result, code, redirectUri] = await answer<[ClientResult, string, string]>((cb) => {
    client.Authorize(args, cb);
  });
  expect(result.Successful()).toBe(true);
  allSecrets.add(code);
  return [code, verifier.Verifier(), redirectUri];
}

describe('bindings coverage: accounts and tokens', () => {
  it('provisional account: GetProvisionalToken, FetchCurrentUser, merge, unmerge, revoke', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor();
    const app = emulator.applicationId;
    const client = clientOf(emulator);
    expect(client.IsAuthenticated()).toBe(false);

    const [got, accessToken, refreshToken, tokenType, , scopes] = await answer<
      [ClientResult, string, string, AuthorizationTokenType, number, string]
    >((cb) => {
      client.GetProvisionalToken(app, STEAM, 'bindings-ticket-1', cb);
    });
    allSecrets.add(accessToken);
    expect(got.Successful()).toBe(true);
    expect([refreshToken, tokenType, scopes]).toEqual([
      '',
      AuthorizationTokenType.Bearer,
      'sdk.social_layer',
    ]);
    const [fetched, provisionalId] = await answer<[ClientResult, bigint, string]>((cb) => {
      client.FetchCurrentUser(AuthorizationTokenType.Bearer, accessToken, cb);
    });
    expect(fetched.Successful()).toBe(true);

    const [updated] = await answer<[ClientResult]>((cb) => {
      client.UpdateToken(AuthorizationTokenType.Bearer, accessToken, cb);
    });
    expect(updated.Successful()).toBe(true);
    expect(client.IsAuthenticated()).toBe(true);
    client.Connect();
    await pumpUntil(() => client.GetStatus() === ClientStatus.Ready);
    const me = client.GetCurrentUserV2();
    expect(me?.Id()).toBe(provisionalId);
    expect(me?.IsProvisional()).toBe(true);
    client.Disconnect();
    await pumpUntil(() => client.GetStatus() === ClientStatus.Disconnected);

    // Alice links her account: the provisional one merges into hers.
    const [code, verifier, redirectUri] = await authorize(client, emulator);
    const [merged, mergedToken] = await answer<[ClientResult, string]>((cb) => {
      client.GetTokenFromProvisionalMerge(app, code, verifier, redirectUri, STEAM, 'bindings-ticket-1', cb);
    });
    allSecrets.add(mergedToken);
    expect(merged.Successful()).toBe(true);
    const [, aliceId, aliceName] = await answer<[ClientResult, bigint, string]>((cb) => {
      client.FetchCurrentUser(AuthorizationTokenType.Bearer, mergedToken, cb);
    });
    expect(aliceName).toBe('alice');

    // Unmerge: the identity gets a new provisional account, neither Alice nor the first one.
    const [unmerged] = await answer<[ClientResult]>((cb) => {
      client.UnmergeIntoProvisionalAccount(app, STEAM, 'bindings-ticket-1', cb);
    });
    expect(unmerged.Successful()).toBe(true);
    const [, newToken] = await answer<[ClientResult, string]>((cb) => {
      client.GetProvisionalToken(app, STEAM, 'bindings-ticket-1', cb);
    });
    allSecrets.add(newToken);
    const [, newId] = await answer<[ClientResult, bigint, string]>((cb) => {
      client.FetchCurrentUser(AuthorizationTokenType.Bearer, newToken, cb);
    });
    expect(newId).not.toBe(aliceId);
    expect(newId).not.toBe(provisionalId);

    // RevokeToken: the token stops working.
    const [revoked] = await answer<[ClientResult]>((cb) => {
      client.RevokeToken(app, newToken, cb);
    });
    expect(revoked.Successful()).toBe(true);
    const [refused, noId] = await answer<[ClientResult, bigint, string]>((cb) => {
      client.FetchCurrentUser(AuthorizationTokenType.Bearer, newToken, cb);
    });
    expect(refused.Successful()).toBe(false);
    expect(refused.Status()).toBe(401);
    expect(noId).toBe(0n);
    await client.core.destroy();
  });

  it('SetTokenExpirationCallback fires once, through RunCallbacks, before the token expires', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ accessTokenTtlSeconds: 2 });
    const client = clientOf(emulator, 'alice', { tokenExpiryWarningMs: 1_000 });
    let expiring = 0;
    client.SetTokenExpirationCallback(() => {
      expiring += 1;
    });
    const [code, verifier, redirectUri] = await authorize(client, emulator);
    const [, accessToken] = await answer<[ClientResult, string]>((cb) => {
      client.GetToken(emulator.applicationId, code, verifier, redirectUri, cb);
    });
    allSecrets.add(accessToken);
    await answer<[ClientResult]>((cb) => {
      client.UpdateToken(AuthorizationTokenType.Bearer, accessToken, cb);
    });
    await pumpUntil(() => expiring > 0, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await pumpUntil(() => true);
    expect(expiring).toBe(1);
    await client.core.destroy();
  });

  it('AbortAuthorize ends a pending Authorize with Aborted; timeouts and versions', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor();
    // A player who never answers the consent page.
    const client = new Client({
      apiBase: emulator.api,
      webBase: emulator.http,
      openUrl: () => Promise.resolve(),
      localClient: false,
    });
    client.SetHttpRequestTimeout(12_000);
    expect(client.core.getHttpRequestTimeout()).toBe(12_000);
    const args = new AuthorizationArgs();
    args.SetClientId(emulator.applicationId);
    args.SetScopes(Client.GetDefaultPresenceScopes());
    args.SetCodeChallenge(client.CreateAuthorizationCodeVerifier().Challenge());
    let aborted: ClientResult | undefined;
    client.Authorize(args, (result, code) => {
      aborted = result;
      expect(code).toBe('');
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    client.AbortAuthorize();
    await pumpUntil(() => aborted !== undefined);
    expect(aborted?.Type()).toBe(ErrorType.Aborted);

    expect(Client.GetVersionMajor()).toBe(0);
    expect(Client.GetVersionMinor()).toBeGreaterThanOrEqual(1);
    expect(Client.GetVersionPatch()).toBeGreaterThanOrEqual(0);
    expect(Client.GetVersionHash()).not.toBe('');
    await client.core.destroy();
  });
});

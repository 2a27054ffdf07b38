import { expect } from 'vitest';

import {
  AuthorizationArgs,
  AuthorizationTokenType,
  Client,
  ClientStatus,
  type ClientResult,
  ResetCallbacks,
  RunCallbacks,
} from '../../packages/sdkpp/bindings/index.js';
import type { ClientOptions } from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { emulatorFor, eventually } from './helpers.js';

/** Pumps callbacks the way a game loop does, until `done` holds. */
export async function pumpUntil(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  await eventually(() => {
    RunCallbacks();
    return done();
  }, timeoutMs);
}

/**
 * A bindings client on a fresh emulator (not signed in), and the ClientResult it answered a refresh of a token
 * the platform never issued with.
 */
export async function failedRefresh(): Promise<{ emulator: Emulator; client: Client; result: ClientResult }> {
  ResetCallbacks();
  const emulator = await emulatorFor();
  const client = new Client(emulator.api, emulator.http);
  let result: ClientResult | undefined;
  client.RefreshToken(emulator.applicationId, 'no-such-refresh-token', (r) => {
    result = r;
  });
  await pumpUntil(() => result !== undefined);
  if (!result) throw new Error('no ClientResult');
  return { emulator, client, result };
}

/** A bindings client signed in as `username` and Ready, driven only through the C++-shaped API. */
export async function readyClient(
  emulator: Emulator,
  username: string,
  options: Pick<ClientOptions, 'localClient'> = {},
): Promise<Client> {
  const client = new Client({
    apiBase: emulator.api,
    webBase: emulator.http,
    openUrl: emulator.browserAs(username),
    // A desktop client on a developer's machine must not answer tests (those that want the emulator's say so).
    localClient: false,
    ...options,
  });
  client.SetApplicationId(emulator.applicationId);
  const verifier = client.CreateAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.SetClientId(emulator.applicationId);
  args.SetScopes(Client.GetDefaultCommunicationScopes());
  args.SetCodeChallenge(verifier.Challenge());
  let connected = false;
  client.Authorize(args, (result, code, redirectUri) => {
    expect(result.Successful()).toBe(true);
    client.GetToken(emulator.applicationId, code, verifier.Verifier(), redirectUri, (r, accessToken) => {
      expect(r.Successful()).toBe(true);
      client.UpdateToken(AuthorizationTokenType.Bearer, accessToken, () => {
        connected = true;
        client.Connect();
      });
    });
  });
  await pumpUntil(() => connected && client.GetStatus() === ClientStatus.Ready);
  return client;
}

/**
 * The usual start of a bindings test: callbacks reset, an emulator, and alice and bob signed in and Ready,
 * with their ids as the bindings' bigints.
 */
export async function aliceAndBob(): Promise<{
  emulator: Emulator;
  alice: Client;
  bob: Client;
  aliceId: bigint;
  bobId: bigint;
}> {
  ResetCallbacks();
  const emulator = await emulatorFor({ autoConsent: true });
  const alice = await readyClient(emulator, 'alice');
  const bob = await readyClient(emulator, 'bob');
  const aliceId = BigInt(emulator.users[0]?.id ?? '0');
  const bobId = BigInt(emulator.users[1]?.id ?? '0');
  return { emulator, alice, bob, aliceId, bobId };
}

/** Runs an operation that answers with a result only, and pumps until it answered successfully. */
export async function succeeds(call: (callback: (result: ClientResult) => void) => void): Promise<void> {
  let result: ClientResult | undefined;
  call((r) => {
    result = r;
  });
  await pumpUntil(() => result !== undefined);
  expect(result?.ToString()).toBe('');
}

import { afterAll, afterEach, expect } from 'vitest';

import {
  AuthorizationTokenType,
  Client,
  LoggingSeverity,
  type ClientOptions,
} from '../../packages/sdkpp/src/index.js';
import {
  startEmulator,
  type Emulator,
  type EmulatorOptions,
  type EmulatorUser,
} from '../../packages/emulator/src/index.js';

/** Every log line any client made in this test file; the secret scan reads it. */
export const allLogLines: string[] = [];

/** Every secret the tests handled in this file; no log line may contain one. */
export const allSecrets = new Set<string>();

const running: Array<{ close(): Promise<void> }> = [];
const clients: Client[] = [];

afterAll(() => {
  // The secret scan of the whole file's run: tokens, codes, verifiers, states never reach a log line.
  const leaks = allLogLines.filter((line) => [...allSecrets].some((secret) => line.includes(secret)));
  expect(leaks).toEqual([]);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.destroy()));
  await Promise.all(running.splice(0).map((e) => e.close()));
});

/** Starts an emulator on an ephemeral port; closed after the test. */
export async function emulatorFor(options: EmulatorOptions = {}): Promise<Emulator> {
  // The emulator's own request and event log is scanned for secrets too.
  const emulator = await startEmulator({
    port: 0,
    users: 2,
    log: (line) => allLogLines.push(line),
    ...options,
  });
  running.push(emulator);
  return emulator;
}

/** A client pointed at the emulator, logging in debug mode into {@link allLogLines}; destroyed after the test. */
export function clientFor(emulator: Emulator, options: ClientOptions = {}): Client {
  const client = new Client({
    apiBase: emulator.api,
    webBase: emulator.http,
    applicationId: emulator.applicationId,
    debug: true,
    logCallback: (line) => allLogLines.push(line),
    logSeverity: LoggingSeverity.Verbose,
    reconnectDelayMs: () => 50,
    invalidSessionDelayMs: () => 50,
    // A desktop client running on a developer's machine must not answer tests; tests that want one say so.
    localClient: false,
    ...options,
  });
  clients.push(client);
  return client;
}

/** Everything secret that one link-and-connect produced. */
export interface LinkedPlayer {
  client: Client;
  user: EmulatorUser;
  secrets: string[];
  accessToken: string;
  refreshToken: string;
}

/** Links `user`'s account through the real consent page and connects to Ready. */
export async function linkAndConnect(
  emulator: Emulator,
  user: EmulatorUser,
  options: ClientOptions = {},
): Promise<LinkedPlayer> {
  const client = clientFor(emulator, { openUrl: emulator.browserAs(user.username), ...options });
  const pkce = client.createAuthorizationCodeVerifier();
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  await client.connect();
  for (const secret of [code, pkce.verifier, tokens.accessToken, tokens.refreshToken, tokens.idToken]) {
    if (secret) allSecrets.add(secret);
  }
  return {
    client,
    user,
    secrets: [code, pkce.verifier, tokens.accessToken, tokens.refreshToken, tokens.idToken ?? ''].filter(
      Boolean,
    ),
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
  };
}

/** The first seeded user; fails loudly when the emulator seeded none. */
export function userAt(emulator: Emulator, index: number): EmulatorUser {
  const user = emulator.users[index];
  if (!user) throw new Error(`the emulator has no user #${index}`);
  return user;
}

/** Resolves once `predicate` holds, polling; rejects after `timeoutMs`. */
export async function eventually(
  predicate: () => boolean,
  timeoutMs = 5_000,
  what = 'condition',
): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { Client as BindingsClient, RunCallbacks } from '../../packages/sdkpp/bindings/index.js';
import {
  ActivityTypes,
  AuthorizationError,
  AuthorizationTokenType,
  RpcError,
  ValidationError,
  type Client,
  type ClientOptions,
} from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { RpcOpcode, encodeRpcFrame } from '../../packages/protocol/src/rpcFrame.js';
import { allLogLines, allSecrets, clientFor, emulatorFor, eventually, userAt } from './helpers.js';

/** The desktop client's socket behind paths that do not exist, as a scan meets them. */
function localClient(emulator: Emulator): NonNullable<ClientOptions['localClient']> {
  const missing = path.join(tmpdir(), 'sdkpp-no-such-dir');
  return {
    socketPaths: () => [
      path.join(missing, 'discord-ipc-0'),
      path.join(missing, 'discord-ipc-1'),
      emulator.rpcSocket ?? '',
    ],
    reconnectDelayMs: () => 50,
  };
}

function gameFor(emulator: Emulator, options: ClientOptions = {}): Client {
  return clientFor(emulator, {
    localClient: localClient(emulator),
    openUrl: () => Promise.reject(new Error('the browser must not open')),
    ...options,
  });
}

/** Authorizes, exchanges the code and connects; every secret joins the log scan. */
async function signIn(game: Client): Promise<{ code: string; redirectUri: string }> {
  const pkce = game.createAuthorizationCodeVerifier();
  allSecrets.add(pkce.verifier);
  const { code, redirectUri } = await game.authorize({ codeChallenge: pkce.challenge, state: 'rpc-state' });
  allSecrets.add(code);
  const tokens = await game.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
  allSecrets.add(tokens.accessToken);
  allSecrets.add(tokens.refreshToken);
  await game.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  await game.connect();
  return { code, redirectUri };
}

describe('authorize() through the desktop client', () => {
  it('gets a code over RPC, exchanges it without a redirect URI and connects as the desktop client’s user', async () => {
    const emulator = await emulatorFor({ autoConsent: true, rpc: { user: 'bob' } });
    const game = gameFor(emulator);
    const { redirectUri } = await signIn(game);
    expect(redirectUri).toBe('');
    expect(game.getCurrentUser()?.username).toBe('bob');
    expect(emulator.requestCount('POST', '/oauth2/token')).toBe(1);
    expect(emulator.requestCount('GET', '/oauth2/authorize')).toBe(0);
    expect(allLogLines.some((l) => l.includes('RPC AUTHORIZE'))).toBe(true);
  });

  it('falls back to the browser when no desktop client answers, and uses it when asked to', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = userAt(emulator, 0);
    const nobody = clientFor(emulator, {
      localClient: { socketPaths: () => [path.join(tmpdir(), 'sdkpp-no-such-dir', 'discord-ipc-0')] },
      openUrl: emulator.browserAs(alice.username),
    });
    const { redirectUri } = await signIn(nobody);
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    expect(emulator.rpcConnectionCount()).toBe(0);

    const browser = gameFor(emulator, { openUrl: emulator.browserAs(alice.username) });
    const pkce = browser.createAuthorizationCodeVerifier();
    allSecrets.add(pkce.verifier);
    const viaBrowser = await browser.authorize({ codeChallenge: pkce.challenge }, { via: 'browser' });
    allSecrets.add(viaBrowser.code);
    expect(viaBrowser.redirectUri).not.toBe('');
    expect(emulator.rpcConnectionCount()).toBe(0);

    // Insisting on the desktop client without one is an RpcError, before any browser opens.
    const insist = clientFor(emulator, { localClient: false });
    await expect(insist.authorize({}, { via: 'localClient' })).rejects.toBeInstanceOf(RpcError);
  });

  it('reports a desktop client that refuses the application id with its close code (4000)', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const stranger = gameFor(emulator, { applicationId: '123456789012345678' });
    await expect(stranger.authorize({}, { via: 'localClient' })).rejects.toMatchObject({
      constructor: RpcError,
      code: 4000,
    });
    // Rich presence hears the same refusal, not a bare "not ready".
    await expect(stranger.updateRichPresence({ type: ActivityTypes.Playing })).rejects.toMatchObject({
      constructor: RpcError,
      code: 4000,
    });
    expect(emulator.rpcConnectionCount()).toBe(0);
  });

  it('reports the desktop client’s refusal with its code', async () => {
    const emulator = await emulatorFor({ autoConsent: false });
    const game = gameFor(emulator);
    const pkce = game.createAuthorizationCodeVerifier();
    allSecrets.add(pkce.verifier);
    const refused = game.authorize({ codeChallenge: pkce.challenge });
    await expect(refused).rejects.toBeInstanceOf(AuthorizationError);
    await expect(refused).rejects.toMatchObject({ code: '5000' });

    // The player declines in the desktop client even though the browser would consent on its own.
    const consenting = await emulatorFor({ autoConsent: true });
    consenting.rpcConsent(false);
    const declined = gameFor(consenting);
    const again = declined.createAuthorizationCodeVerifier();
    allSecrets.add(again.verifier);
    await expect(declined.authorize({ codeChallenge: again.challenge })).rejects.toMatchObject({
      constructor: AuthorizationError,
      code: '5000',
    });
  });
});

describe('rich presence through the desktop client', () => {
  it('sets and clears the activity without a connection, and refuses a type the desktop client refuses', async () => {
    const emulator = await emulatorFor();
    const alice = userAt(emulator, 0);
    const game = gameFor(emulator);
    await expect(game.updateRichPresence({ type: ActivityTypes.Streaming })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(emulator.rpcConnectionCount()).toBe(0);
    await game.updateRichPresence({
      type: ActivityTypes.Competing,
      details: 'Finals',
      party: { id: 'party-1', currentSize: 2, maxSize: 4 },
    });
    expect(emulator.rpcActivity()).toMatchObject({ type: 5, details: 'Finals' });
    expect(emulator.presenceOf(alice.id)).toMatchObject({
      status: 'online',
      activities: [expect.objectContaining({ details: 'Finals', application_id: emulator.applicationId })],
    });
    await game.clearRichPresence();
    await eventually(() => emulator.rpcActivity() === null, 5000, 'the cleared activity');
    expect(emulator.presenceOf(alice.id).activities).toEqual([]);
  });
});

describe('desktop-client events', () => {
  it('calls the join callbacks and the authorize-request callback, also after the desktop client restarts', async () => {
    const emulator = await emulatorFor();
    const game = gameFor(emulator);
    const joins: string[] = [];
    const withApp: [string, string][] = [];
    const requests: unknown[] = [];
    await game.setActivityJoinCallback((secret) => joins.push(secret));
    await game.setActivityJoinWithApplicationCallback((applicationId, secret) =>
      withApp.push([applicationId, secret]),
    );
    await game.registerAuthorizeRequestCallback((data) => requests.push(data));
    expect(emulator.rpcConnectionCount()).toBe(1);

    emulator.rpcDispatch('ACTIVITY_JOIN', { secret: 'own-game' });
    emulator.rpcDispatch('ACTIVITY_JOIN', { secret: 'sibling', application_id: '222222222222222222' });
    emulator.rpcDispatch('ACTIVITY_JOIN', { nothing: 'here' }); // malformed: ignored
    emulator.rpcDispatch('AUTHORIZE_REQUEST', { reason: 'linking' });
    await eventually(() => joins.length === 2 && requests.length === 1, 5000, 'the first events');
    expect(joins).toEqual(['own-game', 'sibling']);
    expect(withApp).toEqual([
      [emulator.applicationId, 'own-game'],
      ['222222222222222222', 'sibling'],
    ]);
    expect(requests).toEqual([{ reason: 'linking' }]);
    expect(allLogLines.some((l) => l.includes('ACTIVITY_JOIN without a secret'))).toBe(true);

    // The desktop client crashes; the transport finds it again and renews every subscription.
    expect(emulator.dropRpcConnections()).toBe(1);
    await eventually(() => emulator.rpcConnectionCount() === 1, 5000, 'the reconnect');
    await eventually(
      () => emulator.rpcDispatch('ACTIVITY_JOIN', { secret: 'after-restart' }) === 1,
      5000,
      'the renewed subscription',
    );
    emulator.rpcDispatch('AUTHORIZE_REQUEST', {});
    await eventually(() => joins.length === 3 && requests.length === 2, 5000, 'the events after the restart');
    expect(joins[2]).toBe('after-restart');

    // A callback that throws is logged; the next event still arrives.
    await game.setActivityJoinCallback(() => {
      throw new Error('game bug');
    });
    emulator.rpcDispatch('ACTIVITY_JOIN', { secret: 'x1' });
    await eventually(() => withApp.length === 4, 5000, 'the join after a throwing callback');
    expect(allLogLines.some((l) => l.includes('activityJoinCallback') && l.includes('game bug'))).toBe(true);
    await game.setActivityJoinCallback(undefined);

    await game.removeAuthorizeRequestCallback();
    await eventually(() => emulator.rpcDispatch('AUTHORIZE_REQUEST', {}) === 0, 5000, 'unsubscribed');
    expect(requests).toHaveLength(2);
  });

  it('keeps an SDK connection while a hostile peer is cut off', async () => {
    const emulator = await emulatorFor();
    const game = gameFor(emulator);
    const joins: string[] = [];
    await game.setActivityJoinCallback((secret) => joins.push(secret));
    await game.updateRichPresence({ type: ActivityTypes.Playing, state: 'Lobby' });

    for (const bytes of [
      Buffer.from([0x01, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f]), // a 2 GiB frame
      encodeRpcFrame(RpcOpcode.Frame, { cmd: 'SET_ACTIVITY', args: {}, nonce: 'n' }), // before the handshake
      Buffer.concat([Buffer.from([0x09, 0, 0, 0, 0x02, 0, 0, 0]), Buffer.from('{}')]), // unknown opcode
    ]) {
      const hostile = connect(emulator.rpcSocket ?? '');
      hostile.on('error', () => undefined);
      hostile.resume();
      hostile.write(bytes);
      await new Promise((resolve) => hostile.once('close', resolve));
    }

    expect(emulator.rpcConnectionCount()).toBe(1);
    expect(emulator.rpcActivity()).toMatchObject({ state: 'Lobby' });
    expect(emulator.rpcDispatch('ACTIVITY_JOIN', { secret: 'still-here' })).toBe(1);
    await eventually(() => joins.includes('still-here'), 5000, 'the join after the hostile peers');
  });
});

describe('bindings for the desktop client', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('delivers join and authorize-request callbacks through RunCallbacks, and registers launch commands', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-launch-'));
    dirs.push(dir);
    const emulator = await emulatorFor({ launchRegistryDir: dir });
    const client = new BindingsClient({
      apiBase: emulator.api,
      webBase: emulator.http,
      applicationId: emulator.applicationId,
      // After the test the emulator is gone: no quick rescans of a socket that will not come back.
      localClient: { ...localClient(emulator), reconnectDelayMs: () => 3_600_000 },
      launchRegistryDir: dir,
    });
    const joins: [bigint, string][] = [];
    const secrets: string[] = [];
    let requests = 0;
    client.SetActivityJoinCallback((secret) => secrets.push(secret));
    client.SetActivityJoinWithApplicationCallback((applicationId, secret) =>
      joins.push([applicationId, secret]),
    );
    client.RegisterAuthorizeRequestCallback(() => {
      requests += 1;
    });
    await eventually(() => emulator.rpcDispatch('ACTIVITY_JOIN', { secret: 'b1' }) === 1, 5000, 'subscribed');
    await eventually(() => emulator.rpcDispatch('AUTHORIZE_REQUEST', {}) === 1, 5000, 'subscribed');
    await eventually(
      () => {
        RunCallbacks();
        return secrets.length === 1 && requests === 1;
      },
      5000,
      'the callbacks',
    );
    expect(joins).toEqual([[BigInt(emulator.applicationId), 'b1']]);
    client.RemoveAuthorizeRequestCallback();
    await eventually(() => emulator.rpcDispatch('AUTHORIZE_REQUEST', {}) === 0, 5000, 'unsubscribed');

    expect(
      client.RegisterLaunchCommand(BigInt(emulator.applicationId), '/opt/game/run --invite=%u 100%'),
    ).toBe(true);
    expect(client.RegisterLaunchSteamApplication('123456789012345678', 480)).toBe(true);
    expect(client.RegisterLaunchCommand(-1, 'x')).toBe(false);
    expect(client.RegisterLaunchSteamApplication(emulator.applicationId, 0)).toBe(false);
    expect(emulator.launchCommands()).toEqual({
      [emulator.applicationId]: '/opt/game/run --invite=%u 100%',
      '123456789012345678': 'xdg-open steam://rungameid/480',
    });
    client.Disconnect();
    emulator.dropRpcConnections();
  });
});

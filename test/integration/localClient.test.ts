import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  ActivityActionTypes,
  ActivityTypes,
  AuthorizationTokenType,
  ClientNotReadyError,
  ValidationError,
  type ActivityInvite,
  type GuildStatus,
} from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { IpcTransport, RpcError } from '../../packages/sdkpp/src/rpc/IpcTransport.js';
import { systemClock } from '../../packages/protocol/src/base/Clock.js';
import { Logger } from '../../packages/sdkpp/src/logging/index.js';
import { clientFor, emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

/** Socket paths as a scan would try them: a missing one first, then the emulator's. */
function paths(emulator: Emulator): () => string[] {
  return () => [path.join(tmpdir(), 'sdkpp-no-such-dir', 'discord-ipc-0'), emulator.rpcSocket ?? ''];
}

function localClientFor(
  emulator: Emulator,
  extra: Parameters<typeof clientFor>[1] = {},
): ReturnType<typeof clientFor> {
  return clientFor(emulator, {
    localClient: { socketPaths: paths(emulator), reconnectDelayMs: () => 50 },
    openUrl: () => Promise.reject(new Error('the browser must not open')),
    ...extra,
  });
}

describe('the desktop client over RPC', () => {
  it('carries rich presence without a connection; friends see it; it moves to the gateway once Ready', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const alice = userAt(emulator, 0);
    emulator.befriend(alice.id, bob.user.id);
    const game = localClientFor(emulator);

    await expect(game.updateRichPresence({ type: ActivityTypes.Streaming })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(emulator.rpcConnectionCount()).toBe(0); // refused before any I/O
    await game.updateRichPresence({ type: ActivityTypes.Playing, details: 'Main menu', state: 'Solo' });
    expect(emulator.rpcActivity()).toMatchObject({
      details: 'Main menu',
      application_id: emulator.applicationId,
    });
    await eventually(
      () => bob.client.getUser(alice.id)?.gameActivity?.details === 'Main menu',
      5000,
      'Bob sees it',
    );

    await game.clearRichPresence();
    expect(emulator.rpcActivity()).toBeNull();
    await game.updateRichPresence({ type: ActivityTypes.Playing, details: 'Main menu' });

    // The player signs in: the activity now goes through the gateway and the desktop client's copy is cleared.
    const pkce = game.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await game.authorize({ codeChallenge: pkce.challenge });
    expect(redirectUri).toBe('');
    const tokens = await game.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
    await game.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    await game.connect();
    expect(game.getCurrentUser()?.username).toBe('alice');
    expect((await game.getDiscordClientConnectedUser())?.username).toBe('alice');
    const authenticated = await game.authenticateLocalClient();
    expect(authenticated.user.username).toBe('alice');
    expect(authenticated.scopes).toEqual(['openid', 'sdk.social_layer']);
    expect(Date.parse(authenticated.expires)).toBeGreaterThan(Date.now());
    await eventually(() => emulator.rpcActivity() === null, 5000, 'the desktop client’s copy cleared');
    await eventually(() => emulator.presenceOf(alice.id).activities.length === 1, 5000, 'the gateway copy');
    expect(bob.client.getUser(alice.id)?.gameActivity?.details).toBe('Main menu');
  });

  it('refuses without a desktop client or with a wrong application id', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const none = clientFor(emulator, { localClient: false });
    await expect(none.updateRichPresence({ type: ActivityTypes.Playing })).rejects.toBeInstanceOf(
      ClientNotReadyError,
    );

    const transport = new IpcTransport({
      clientId: '123456789012345678',
      log: new Logger({ debug: false }).writer('rpc'),
      clock: systemClock,
      socketPaths: paths(emulator),
    });
    await expect(transport.connect()).rejects.toMatchObject({ constructor: RpcError, code: 4000 });
    transport.close();
    // A game with an application id the desktop client does not know hears why, not "not ready".
    const unknownApp = localClientFor(emulator, { applicationId: '123456789012345678' });
    await expect(unknownApp.updateRichPresence({ type: ActivityTypes.Playing })).rejects.toMatchObject({
      constructor: RpcError,
      code: 4000,
    });

    const strict = localClientFor(emulator);
    await expect(strict.authorize({}, { via: 'browser' })).rejects.toThrow(/browser must not open/);
    const nobody = clientFor(emulator, { localClient: false });
    await expect(nobody.authorize({}, { via: 'localClient' })).rejects.toBeInstanceOf(RpcError);
    expect(await nobody.getDiscordClientConnectedUser()).toBeUndefined();
    // Bob's token is not the desktop client's user (Alice): AUTHENTICATE refuses it.
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const bobsGame = localClientFor(emulator);
    await bobsGame.updateToken(AuthorizationTokenType.Bearer, bob.accessToken);
    await expect(bobsGame.authenticateLocalClient()).rejects.toMatchObject({
      constructor: RpcError,
      code: 4009,
    });
  });

  it('delivers authorize requests and activity events, also after the desktop client restarts', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const game = localClientFor(emulator);
    let requests = 0;
    await game.registerAuthorizeRequestCallback(() => {
      requests += 1;
    });
    await game.watchLocalClient();
    const joins: [string, string][] = [];
    game.on('activityJoin', (secret, applicationId) => joins.push([secret, applicationId]));
    const invites: ActivityInvite[] = [];
    game.on('activityInviteCreated', (invite) => invites.push(invite));

    expect(emulator.rpcDispatch('AUTHORIZE_REQUEST', {})).toBe(1);
    await eventually(() => requests === 1, 5000, 'the authorize request');
    emulator.rpcDispatch('ACTIVITY_JOIN', { secret: 'from-desktop' });
    await eventually(() => joins.length === 1, 5000, 'the join');
    expect(joins[0]).toEqual(['from-desktop', emulator.applicationId]);
    const sender = userAt(emulator, 1);
    emulator.rpcDispatch('ACTIVITY_INVITE', {
      type: 1,
      user: { id: sender.id, username: sender.username },
      activity: { application_id: '999999999999999999', party: { id: 'p9' }, session_id: 's1' },
      channel_id: sender.id,
      message_id: '1',
    });
    emulator.rpcDispatch('ACTIVITY_JOIN_REQUEST', { user: { id: sender.id, username: sender.username } });
    await eventually(() => invites.length === 2, 5000, 'two invites');
    expect(invites[0]).toMatchObject({
      type: ActivityActionTypes.Join,
      applicationId: '999999999999999999',
      partyId: 'p9',
    });
    expect(invites[1]).toMatchObject({ type: ActivityActionTypes.JoinRequest, senderId: sender.id });
    const other: [string, unknown][] = [];
    game.on('localClientEvent', (evt, data) => other.push([evt, data]));
    await game.subscribeLocalClientEvent('CURRENT_USER_UPDATE');
    emulator.rpcDispatch('CURRENT_USER_UPDATE', { id: '1', username: 'renamed' });
    await eventually(() => other.length === 1, 5000, 'CURRENT_USER_UPDATE');
    expect(other[0]).toEqual(['CURRENT_USER_UPDATE', { id: '1', username: 'renamed' }]);
    await expect(game.subscribeLocalClientEvent('bad name')).rejects.toBeInstanceOf(ValidationError);

    // The desktop client crashes and comes back: subscriptions are renewed by themselves.
    expect(emulator.dropRpcConnections()).toBe(1);
    await eventually(
      () => emulator.rpcDispatch('AUTHORIZE_REQUEST', {}) === 1,
      5000,
      'the renewed subscription',
    );
    await eventually(() => requests === 2, 5000, 'the second authorize request');

    await game.removeAuthorizeRequestCallback();
    await eventually(() => emulator.rpcDispatch('AUTHORIZE_REQUEST', {}) === 0, 5000, 'unsubscribed');
    expect(requests).toBe(2);
  });

  it('reports a watched guild changing through GUILD_STATUS, and refuses a guild the player is not in', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const [alice, bob] = [userAt(emulator, 0), userAt(emulator, 1)];
    const guild = emulator.createGuild({
      owner: bob.username,
      name: 'Raid night',
      members: [alice.username],
    });
    emulator.addBotToGuild(guild.id, { permissions: (1n << 5n) | (1n << 10n) }); // MANAGE_GUILD, VIEW_CHANNEL
    const elsewhere = emulator.createGuild({ owner: bob.username, name: 'Bob only' });
    const game = localClientFor(emulator);
    const statuses: GuildStatus[] = [];
    game.on('guildStatus', (status) => statuses.push(status));

    await game.subscribeGuildStatus(guild.id);
    const refused = await game.subscribeGuildStatus(elsewhere.id).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(RpcError);
    expect(refused).toMatchObject({ code: 4003 });
    await expect(game.subscribeGuildStatus('not-an-id')).rejects.toBeInstanceOf(ValidationError);

    // The guild's moderator renames it and sets an icon through the HTTP API, as a bot would.
    const modify = (body: unknown): Promise<Response> =>
      fetch(`${emulator.api}/guilds/${guild.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const pixel =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const renamed = await modify({ name: 'Raid night (EU)', icon: pixel });
    expect(renamed.status).toBe(200);
    const wire = (await renamed.json()) as { name: string; icon: string };
    expect(wire.name).toBe('Raid night (EU)');
    expect(wire.icon).toMatch(/^[0-9a-f]{32}$/);
    await eventually(() => statuses.length === 1, 5000, 'GUILD_STATUS');
    expect(statuses[0]).toEqual({
      guildId: guild.id,
      name: 'Raid night (EU)',
      iconUrl: `https://cdn.discordapp.com/icons/${guild.id}/${wire.icon}.png`,
      online: 0,
    });

    // A bad body changes nothing and sends nothing.
    expect((await modify({ name: 'x' })).status).toBe(400);
    // After unsubscribing, a change reaches no one.
    await game.unsubscribeGuildStatus(guild.id);
    expect((await modify({ icon: null })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(statuses).toHaveLength(1);
  });

  it('survives a hostile peer on the same socket', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const game = localClientFor(emulator);
    await game.watchLocalClient();
    const hostile = connect(emulator.rpcSocket ?? '');
    hostile.resume(); // read what the server answers, or its end never arrives
    hostile.on('error', () => undefined);
    hostile.write(Buffer.from('\u0001\u0000\u0000\u0000\u00ff\u00ff\u00ff\u00ffgarbage'));
    await new Promise((resolve) => hostile.once('close', resolve));
    const joins: string[] = [];
    game.on('activityJoin', (secret) => joins.push(secret));
    expect(emulator.rpcDispatch('ACTIVITY_JOIN', { secret: 'still-here' })).toBe(1);
    await eventually(() => joins.length === 1, 5000, 'the join after the hostile peer');
  });

  it('registers launch commands where the desktop client finds them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-launch-'));
    const emulator = await emulatorFor({ launchRegistryDir: dir });
    const game = clientFor(emulator, { launchRegistryDir: dir, localClient: false });
    expect(game.registerLaunchCommand(emulator.applicationId, '/opt/game/run --from-invite')).toBe(true);
    expect(game.registerLaunchSteamApplication('123456789012345678', 480)).toBe(true);
    expect(emulator.launchCommands()).toEqual({
      [emulator.applicationId]: '/opt/game/run --from-invite',
      '123456789012345678': 'xdg-open steam://rungameid/480',
    });
    expect(game.registerLaunchCommand('not-an-id', 'x')).toBe(false);
    expect(game.registerLaunchCommand(emulator.applicationId, 'two\nlines')).toBe(false);
    expect(game.registerLaunchSteamApplication(emulator.applicationId, -1)).toBe(false);
  });
});

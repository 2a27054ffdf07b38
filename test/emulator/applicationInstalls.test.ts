import { describe, expect, it } from 'vitest';

import { checkHookArgs, findHook } from '../../packages/emulator/src/hooks/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { authorizeUrl, exchange, getCode, locationParams, pkce, signIn } from './helpers.js';
import { call as apiCall, closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

type Json = Record<string, unknown> & Record<string, unknown>[];
const call = apiCall<Json>;
const { running } = closeAfterEach();

/** Authorizes as `user` through auto consent with `integration_type`; answers the redirect's parameters. */
async function install(
  emu: Emulator,
  user: string,
  integrationType: string,
  scope = 'identify applications.commands',
): Promise<URLSearchParams> {
  const { challenge } = pkce();
  const response = await fetch(
    authorizeUrl(emu, {
      redirectUri: 'http://127.0.0.1:53682/callback',
      challenge,
      scope,
      state: 'st',
      extra: { login_hint: user, integration_type: integrationType },
    }),
    { redirect: 'manual' },
  );
  return locationParams(response);
}

function app(emu: Emulator) {
  return call(emu, `Bot ${emu.botToken}`, 'GET', '/applications/@me');
}

describe('the application resource and the install flows', () => {
  it('counts user installs (integration_type 1) and guilds, and ends user installs with the portal’s context', async () => {
    const { emu } = await loggedEmulator(running, { users: 3 });
    const before = await app(emu);
    expect(before.json).toMatchObject({
      approximate_guild_count: 1,
      approximate_user_install_count: 0,
      integration_types_config: {
        0: { oauth2_install_params: { scopes: ['applications.commands'], permissions: '0' } },
        1: { oauth2_install_params: { scopes: ['applications.commands'], permissions: '0' } },
      },
    });

    // alice installs the app to her account: a code comes back, and the count follows.
    const installed = await install(emu, 'alice', '1');
    expect(installed.get('code')).toBeTruthy();
    expect((await app(emu)).json).toMatchObject({ approximate_user_install_count: 1 });
    // bob authorizes without the user install link: no install. carol installs, then revokes the app.
    expect((await install(emu, 'bob', '0')).get('code')).toBeTruthy();
    expect((await install(emu, 'carol', '1')).get('code')).toBeTruthy();
    expect((await app(emu)).json).toMatchObject({ approximate_user_install_count: 2 });
    emu.revokeUserTokens(emu.users[2]?.id ?? '');
    expect((await app(emu)).json).toMatchObject({ approximate_user_install_count: 1 });

    // The bot joins a second guild, then leaves it (Leave Guild): the guild count goes up and back down.
    const second = emu.createGuild({ name: 'Second', owner: 'bob' });
    emu.addBotToGuild(second.id);
    expect((await app(emu)).json).toMatchObject({ approximate_guild_count: 2 });
    const left = await call(emu, `Bot ${emu.botToken}`, 'DELETE', `/users/@me/guilds/${second.id}`);
    expect(left.status).toBe(204);
    expect((await app(emu)).json).toMatchObject({ approximate_guild_count: 1 });
    const again = await call(emu, `Bot ${emu.botToken}`, 'DELETE', `/users/@me/guilds/${second.id}`);
    expect([again.status, again.json.code]).toEqual([404, 10004]);

    // The portal's Installation page drops User Install: a user install now ends in an OAuth2 error.
    const guildOnly = await call(emu, `Bot ${emu.botToken}`, 'PATCH', '/applications/@me', {
      integration_types_config: { 0: { oauth2_install_params: { scopes: ['applications.commands'] } } },
    });
    expect(guildOnly.status).toBe(200);
    expect(guildOnly.json.integration_types_config).toEqual({
      0: { oauth2_install_params: { scopes: ['applications.commands'], permissions: '0' } },
    });
    expect(guildOnly.json).not.toHaveProperty('approximate_user_install_count');
    const refused = await install(emu, 'bob', '1');
    expect(refused.get('code')).toBeNull();
    expect(refused.get('error')).toBe('invalid_request');
    expect(refused.get('error_description')).toMatch(/does not support user installs/);
    expect(refused.get('state')).toBe('st');
    // A user command made now supports only what the app supports.
    const made = await call(
      emu,
      `Bot ${emu.botToken}`,
      'POST',
      `/applications/${emu.applicationId}/commands`,
      {
        name: 'later',
        description: 'Made after the change',
      },
    );
    expect(made.json.integration_types).toEqual([0]);
    // …and a user-installed invocation is refused.
    await expect(
      emu.invokeCommand({ user: 'alice', command: 'later', installation: 'user' }),
    ).rejects.toThrow(/does not support user installs/);

    // Guild installs stay, and a bad integration_type is a bad request.
    expect((await install(emu, 'carol', '0')).get('code')).toBeTruthy();
    expect((await install(emu, 'carol', '2')).get('error')).toBe('invalid_request');
  });
});

describe('GET /users/@me/connections', () => {
  it('answers the seeded connections to a token with the connections scope, and nothing to others', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    emu.setUserConnections('alice', [
      { type: 'github', id: '583231', name: 'alice-codes' },
      {
        type: 'steam',
        id: '76561198000000000',
        name: 'alice',
        verified: false,
        visibility: 0,
        friendSync: true,
      },
    ]);
    const withScope = await signIn(emu, 'alice', 'identify connections');
    const listed = await call(emu, `Bearer ${withScope.access_token}`, 'GET', '/users/@me/connections');
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([
      {
        id: '583231',
        name: 'alice-codes',
        type: 'github',
        verified: true,
        friend_sync: false,
        show_activity: true,
        two_way_link: false,
        visibility: 1,
        revoked: false,
        integrations: [],
      },
      {
        id: '76561198000000000',
        name: 'alice',
        type: 'steam',
        verified: false,
        friend_sync: true,
        show_activity: true,
        two_way_link: false,
        visibility: 0,
        revoked: false,
        integrations: [],
      },
    ]);
    // bob has none.
    const bob = await signIn(emu, 'bob', 'identify connections');
    expect((await call(emu, `Bearer ${bob.access_token}`, 'GET', '/users/@me/connections')).json).toEqual([]);
    // Without the scope 403 50001; without a token, or with the bot's, 401.
    const identifyOnly = await signIn(emu, 'alice', 'identify');
    const noScope = await call(emu, `Bearer ${identifyOnly.access_token}`, 'GET', '/users/@me/connections');
    expect([noScope.status, noScope.json.code]).toEqual([403, 50001]);
    expect((await call(emu, null, 'GET', '/users/@me/connections')).status).toBe(401);
    expect((await call(emu, `Bot ${emu.botToken}`, 'GET', '/users/@me/connections')).status).toBe(401);

    // Bad seeds are refused whole; an empty list clears them.
    expect(() => emu.setUserConnections('alice', [{ type: 'Git Hub', id: '1', name: 'a' }])).toThrow(
      /not a service name/,
    );
    expect(() =>
      emu.setUserConnections('alice', [
        { type: 'github', id: '1', name: 'a' },
        { type: 'github', id: '1', name: 'b' },
      ]),
    ).toThrow(/twice/);
    expect(() => emu.setUserConnections('nobody', [])).toThrow(/no user/);
    expect(
      (await call(emu, `Bearer ${withScope.access_token}`, 'GET', '/users/@me/connections')).json,
    ).toHaveLength(2);
    // The admin hook takes the same, checked by its schema first.
    const hook = findHook('setUserConnections');
    if (!hook) throw new Error('no setUserConnections hook');
    expect(
      checkHookArgs(hook, { user: 'bob', connections: [{ type: 'github', id: '', name: 'b' }] }),
    ).toMatchObject({
      ok: false,
    });
    const args = checkHookArgs(hook, {
      user: 'bob',
      connections: [{ type: 'xbox', id: 'x1', name: 'bobx' }],
    });
    if (!args.ok) throw new Error(args.problems.join('; '));
    await hook.run(emu, args.args);
    expect(
      (await call(emu, `Bearer ${bob.access_token}`, 'GET', '/users/@me/connections')).json,
    ).toMatchObject([{ type: 'xbox', id: 'x1', name: 'bobx', verified: true, visibility: 1 }]);
    emu.setUserConnections('alice', []);
    expect(
      (await call(emu, `Bearer ${withScope.access_token}`, 'GET', '/users/@me/connections')).json,
    ).toEqual([]);
  });

  it('keeps connections in the saved state', async () => {
    const { emu } = await loggedEmulator(running, { users: 1 });
    emu.setUserConnections('alice', [{ type: 'twitch', id: 't1', name: 'alicelive', twoWayLink: true }]);
    const { emu: restored } = await loggedEmulator(running, { state: emu.exportState() });
    const tokens = await signIn(restored, 'alice', 'identify connections');
    const listed = await call(restored, `Bearer ${tokens.access_token}`, 'GET', '/users/@me/connections');
    expect(listed.json).toMatchObject([{ type: 'twitch', id: 't1', name: 'alicelive', two_way_link: true }]);
  });
});

describe('the bot and guilds', () => {
  it('refuses POST /guilds to a bot with 20001, and lists the bot’s guilds page by page', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    const bot = `Bot ${emu.botToken}`;
    const created = await call(emu, bot, 'POST', '/guilds', { name: 'Mine' });
    expect([created.status, created.json.code, created.json.message]).toEqual([
      403,
      20001,
      'Bots cannot use this endpoint',
    ]);
    const tokens = await signIn(emu, 'alice', 'identify guilds');
    const asUser = await call(emu, `Bearer ${tokens.access_token}`, 'POST', '/guilds', { name: 'Mine' });
    expect(asUser.status).toBe(403);
    expect(emu.guilds()).toHaveLength(1);

    for (let i = 0; i < 4; i++) emu.addBotToGuild(emu.createGuild({ name: `G${i}`, owner: 'bob' }).id);
    emu.createGuild({ name: 'Botless', owner: 'bob' });
    const all = await call(emu, bot, 'GET', '/users/@me/guilds');
    expect(all.status).toBe(200);
    const ids = all.json.map((g) => g.id as string);
    expect(ids).toHaveLength(5);
    expect([...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))).toEqual(ids);
    expect(all.json[0]).toMatchObject({ owner: false, icon: null, features: [] });
    expect(all.json.map((g) => g.name)).not.toContain('Botless');
    const page = await call(emu, bot, 'GET', `/users/@me/guilds?after=${ids[0]}&limit=2`);
    expect(page.json.map((g) => g.id)).toEqual(ids.slice(1, 3));
    const back = await call(emu, bot, 'GET', `/users/@me/guilds?before=${ids[4]}&limit=2`);
    expect(back.json.map((g) => g.id)).toEqual(ids.slice(2, 4));
    const counted = await call(emu, bot, 'GET', '/users/@me/guilds?with_counts=true&limit=1');
    expect(counted.json[0]).toMatchObject({ approximate_member_count: 3 });
    for (const bad of ['limit=0', 'limit=201', 'limit=x', 'before=abc']) {
      const refused = await call(emu, bot, 'GET', `/users/@me/guilds?${bad}`);
      expect([refused.status, refused.json.code]).toEqual([400, 50035]);
    }
    // A user's token still needs the guilds scope.
    const identify = await exchange(emu, await getCode(emu, { scope: 'identify' }));
    expect((await call(emu, `Bearer ${identify.access_token}`, 'GET', '/users/@me/guilds')).status).toBe(403);
    const mine = await call(emu, `Bearer ${tokens.access_token}`, 'GET', '/users/@me/guilds');
    expect(mine.json).toMatchObject([{ owner: true }]);
  });
});

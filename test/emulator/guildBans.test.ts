import { DiscordAPIError, Events, GatewayIntentBits, type GuildBan } from 'discord.js';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { botSession as openBotSession } from './botHelpers.js';
import { discordjsBotAfterEach } from './discordjsHelpers.js';
import { getCode, postCodeExchange, postJson, type TestGateway } from './helpers.js';
import { call as apiCall, closeAfterEach, data, loggedEmulator, player } from './lobbyHelpers.js';
import {
  BAN,
  GUILDS,
  GUILD_MEMBERS,
  GUILD_MESSAGES,
  GUILD_MODERATION,
  INVITE,
  MANAGE_GUILD,
  READ_HISTORY,
  SEND,
  VIEW,
} from './permissionBits.js';

type Json = Record<string, unknown> & Record<string, unknown>[];
const call = apiCall<Json>;

const HOUR = 3_600_000;

const { running, cleanups } = closeAfterEach();

interface Setup {
  emu: Emulator;
  bot: string;
  guildId: string;
  general: string;
  lfg: string;
  /** alice (the owner), bob, carol and dave, members of the seeded guild. */
  alice: string;
  bob: string;
  carol: string;
  dave: string;
}

/** An emulator whose seeded guild the bot is in with `permissions`, above the members' role. */
async function setUp(
  permissions: bigint,
  options: Parameters<typeof loggedEmulator>[1] = {},
): Promise<Setup> {
  const { emu } = await loggedEmulator(running, { users: 4, ...options });
  const guild = emu.guilds()[0];
  if (!guild) throw new Error('no seeded guild');
  emu.addBotToGuild(guild.id, { permissions });
  const channel = (name: string): string => guild.channels.find((c) => c.name === name)?.id ?? '';
  const [alice = '', bob = '', carol = '', dave = ''] = emu.users.map((u) => u.id);
  return {
    emu,
    bot: `Bot ${emu.botToken}`,
    guildId: guild.id,
    general: channel('general'),
    lfg: channel('lfg'),
    alice,
    bob,
    carol,
    dave,
  };
}

/** A bot API call with extra headers (the audit log reason). */
async function callWith(
  s: Setup,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${s.emu.api}${path}`, {
    method,
    headers: { Authorization: s.bot, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as Json };
}

const memberIds = (s: Setup): string[] => Object.keys(s.emu.guilds()[0]?.members ?? {});

async function botSession(emu: Emulator, intents: number): Promise<TestGateway> {
  const { gw } = await openBotSession(emu, intents);
  cleanups.push(() => gw.ws.close());
  await gw.dispatch('GUILD_CREATE');
  return gw;
}

describe('guild bans over HTTP (bot)', () => {
  it('bans a member below the bot and a user who never joined, keeps the reason, and lifts bans', async () => {
    const s = await setUp(VIEW | BAN);
    const { emu, bot, guildId, bob } = s;
    const reason = 'spam & abuse, 100% ✓';
    const banned = await callWith(s, 'PUT', `/guilds/${guildId}/bans/${bob}`, {
      'X-Audit-Log-Reason': encodeURIComponent(reason),
    });
    expect(banned.status).toBe(204);
    expect(memberIds(s)).not.toContain(bob);
    const one = await call(emu, bot, 'GET', `/guilds/${guildId}/bans/${bob}`);
    expect(one.json).toMatchObject({ reason, user: { id: bob, username: 'bob' } });
    // A user who is not a member may be banned ahead of joining; with no header the reason is null.
    const stranger = emu.createUser({ username: 'stranger' }).id;
    const empty = await fetch(`${emu.api}/guilds/${guildId}/bans/${stranger}`, {
      method: 'PUT',
      headers: { Authorization: bot },
    });
    expect(empty.status).toBe(204);
    const list = await call(emu, bot, 'GET', `/guilds/${guildId}/bans`);
    expect(list.json.map((b) => [(b.user as Json).id, b.reason])).toEqual([
      [bob, reason],
      [stranger, null],
    ]);
    // Banning again answers 204 and keeps the first ban.
    expect(
      (await callWith(s, 'PUT', `/guilds/${guildId}/bans/${bob}`, { 'X-Audit-Log-Reason': 'again' })).status,
    ).toBe(204);
    expect((await call(emu, bot, 'GET', `/guilds/${guildId}/bans/${bob}`)).json.reason).toBe(reason);
    expect((await call(emu, bot, 'DELETE', `/guilds/${guildId}/bans/${bob}`)).status).toBe(204);
    const gone = [
      await call(emu, bot, 'DELETE', `/guilds/${guildId}/bans/${bob}`),
      await call(emu, bot, 'GET', `/guilds/${guildId}/bans/${bob}`),
      await call(emu, bot, 'GET', `/guilds/${guildId}/bans/123`),
    ];
    expect(gone.map((r) => [r.status, r.json.code, r.json.message])).toEqual(
      Array(3).fill([404, 10026, 'Unknown Ban']),
    );
    expect((await call(emu, bot, 'GET', `/guilds/${guildId}/bans`)).json).toHaveLength(1);
    // The ban is saved with the state and holds after a restart: the stranger still cannot join.
    const { emu: again } = await loggedEmulator(running, { state: emu.exportState() });
    const kept = await call(again, `Bot ${again.botToken}`, 'GET', `/guilds/${guildId}/bans/${stranger}`);
    expect([kept.status, (kept.json.user as Json).id]).toEqual([200, stranger]);
  });

  it('pages the ban list by user id (limit, before, after) and answers a bad parameter with 50035', async () => {
    const s = await setUp(VIEW | BAN);
    const { emu, bot, guildId } = s;
    const ids = ['u1', 'u2', 'u3', 'u4', 'u5'].map((name) => emu.createUser({ username: name }).id);
    for (const id of ids) {
      expect((await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${id}`, {})).status).toBe(204);
    }
    const page = async (query: string): Promise<unknown[]> =>
      (await call(emu, bot, 'GET', `/guilds/${guildId}/bans${query}`)).json.map((b) => (b.user as Json).id);
    expect(await page('')).toEqual(ids);
    expect(await page('?limit=2')).toEqual(ids.slice(0, 2));
    expect(await page(`?limit=2&after=${ids[1]}`)).toEqual(ids.slice(2, 4));
    expect(await page(`?limit=2&before=${ids[4]}`)).toEqual(ids.slice(2, 4));
    expect(await page(`?after=${ids[0]}&before=${ids[3]}`)).toEqual(ids.slice(1, 3));
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?before=abc', 'before'],
      ['?after=-1', 'after'],
    ] as const) {
      const bad = await call(emu, bot, 'GET', `/guilds/${guildId}/bans${query}`);
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ code: 50035, errors: { [field]: { _errors: [{}] } } });
    }
  });

  it('refuses without BAN_MEMBERS, at or above the bot, the owner, the bot itself and unknown users, changing nothing', async () => {
    const without = await setUp(VIEW);
    const paths = [
      ['PUT', `/guilds/${without.guildId}/bans/${without.bob}`],
      ['GET', `/guilds/${without.guildId}/bans`],
      ['GET', `/guilds/${without.guildId}/bans/${without.bob}`],
      ['DELETE', `/guilds/${without.guildId}/bans/${without.bob}`],
    ] as const;
    for (const [method, path] of paths) {
      const refused = await call(without.emu, without.bot, method, path);
      expect([refused.status, refused.json.code, refused.json.message]).toEqual([
        403,
        50013,
        'Missing Permissions: BAN_MEMBERS',
      ]);
    }
    expect(memberIds(without)).toContain(without.bob);

    const s = await setUp(VIEW | BAN);
    const { emu, bot, guildId, alice, bob } = s;
    // A role made by the admin hook lands above the bot's own.
    const mods = emu.createRole(guildId, { name: 'Mods' });
    emu.setMemberRoles(guildId, 'bob', [mods.id]);
    const above = await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${bob}`, {});
    expect([above.status, above.json.code]).toEqual([403, 50013]);
    expect(above.json.message).toContain(bob);
    const owner = await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${alice}`, {});
    expect([owner.status, owner.json.code, owner.json.message]).toEqual([
      403,
      50013,
      'Missing Permissions: the owner is above every member',
    ]);
    const itself = await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${emu.applicationId}`, {});
    expect([itself.status, itself.json.code]).toEqual([403, 50013]);
    const nobody = await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/123`, {});
    expect([nobody.status, nobody.json.code, nobody.json.message]).toEqual([404, 10013, 'Unknown User']);
    const badWindow = await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${s.carol}`, {
      delete_message_seconds: 604_801,
    });
    expect(badWindow.status).toBe(400);
    expect(badWindow.json).toMatchObject({
      code: 50035,
      errors: { delete_message_seconds: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] } },
    });
    const notInt = await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${s.carol}`, {
      delete_message_seconds: 'lots',
    });
    expect(notInt.json).toMatchObject({ code: 50035, errors: { delete_message_seconds: {} } });
    expect((await call(emu, bot, 'GET', `/guilds/${guildId}/bans`)).json).toEqual([]);
    expect(memberIds(s)).toEqual(expect.arrayContaining([alice, bob, s.carol, emu.applicationId]));
  });

  it('bulk-bans with BAN_MEMBERS and MANAGE_GUILD, listing each user it could not ban', async () => {
    const banOnly = await setUp(VIEW | BAN);
    const refused = await call(banOnly.emu, banOnly.bot, 'POST', `/guilds/${banOnly.guildId}/bulk-ban`, {
      user_ids: [banOnly.carol],
    });
    expect([refused.status, refused.json.code, refused.json.message]).toEqual([
      403,
      50013,
      'Missing Permissions: MANAGE_GUILD',
    ]);

    const s = await setUp(VIEW | BAN | MANAGE_GUILD);
    const { emu, bot, guildId, alice, bob, carol, dave } = s;
    const mods = emu.createRole(guildId, { name: 'Mods' });
    emu.setMemberRoles(guildId, 'bob', [mods.id]);
    expect((await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${dave}`, {})).status).toBe(204);
    const stranger = emu.createUser({ username: 'stranger' }).id;
    // bob ranks above the bot, alice owns the guild, dave is banned already and 123 is nobody.
    const bulk = await callWith(
      s,
      'POST',
      `/guilds/${guildId}/bulk-ban`,
      { 'X-Audit-Log-Reason': 'raid' },
      { user_ids: [bob, carol, dave, alice, '123', carol, stranger] },
    );
    expect(bulk.status).toBe(200);
    expect(bulk.json).toEqual({ banned_users: [carol, stranger], failed_users: [bob, dave, alice, '123'] });
    expect(memberIds(s)).not.toContain(carol);
    expect(memberIds(s)).toContain(bob);
    const list = await call(emu, bot, 'GET', `/guilds/${guildId}/bans`);
    expect(list.json.map((b) => [(b.user as Json).id, b.reason])).toEqual([
      [carol, 'raid'],
      [dave, null],
      [stranger, 'raid'],
    ]);
    const none = await call(emu, bot, 'POST', `/guilds/${guildId}/bulk-ban`, {
      user_ids: [alice, bob, dave],
    });
    expect([none.status, none.json.code, none.json.message]).toEqual([400, 500000, 'Failed to ban users']);
    const bodies: [unknown, Record<string, unknown>][] = [
      [{}, { user_ids: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] } }],
      [{ user_ids: [] }, { user_ids: { _errors: [{ code: 'BASE_TYPE_MIN_LENGTH' }] } }],
      [{ user_ids: Array(201).fill(bob) }, { user_ids: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } }],
      [{ user_ids: [bob, 'x'] }, { user_ids: { 1: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } } }],
      [{ user_ids: [bob], delete_message_seconds: -1 }, { delete_message_seconds: {} }],
    ];
    for (const [body, errors] of bodies) {
      const bad = await call(emu, bot, 'POST', `/guilds/${guildId}/bulk-ban`, body);
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ code: 50035, errors });
    }
    expect(memberIds(s)).toContain(bob);
  });

  it("deletes only the banned user's messages inside the delete_message_seconds window, each with MESSAGE_DELETE", async () => {
    const s = await setUp(VIEW | SEND | READ_HISTORY | BAN | MANAGE_GUILD);
    const { emu, bot, guildId, general, lfg } = s;
    const gw = await botSession(emu, GUILDS | GUILD_MESSAGES);
    emu.postChannelMessage(general, 'carol', 'old');
    emu.postChannelMessage(general, 'dave', 'old dave');
    emu.advanceTime(2 * HOUR);
    const recent = [
      emu.postChannelMessage(general, 'carol', 'recent'),
      emu.postChannelMessage(lfg, 'carol', 'recent in lfg'),
    ];
    emu.postChannelMessage(general, 'bob', 'bystander');
    emu.postChannelMessage(general, 'dave', 'recent dave');
    const deleted: string[] = [];
    const deletes = (async () => {
      for (let i = 0; i < 3; i += 1) deleted.push(String(data(await gw.dispatch('MESSAGE_DELETE')).id));
    })();
    const put = await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${s.carol}`, {
      delete_message_seconds: 3600,
    });
    expect(put.status).toBe(204);
    const contents = (channelId: string): string[] => emu.channelMessages(channelId).map((m) => m.content);
    expect(contents(general)).toEqual(['old', 'old dave', 'bystander', 'recent dave']);
    expect(contents(lfg)).toEqual([]);
    // A bulk ban deletes from the same window for each user it bans; without the field nothing goes.
    const bulk = await call(emu, bot, 'POST', `/guilds/${guildId}/bulk-ban`, {
      user_ids: [s.dave],
      delete_message_seconds: 60,
    });
    expect(bulk.json).toEqual({ banned_users: [s.dave], failed_users: [] });
    expect(contents(general)).toEqual(['old', 'old dave', 'bystander']);
    await deletes;
    expect(deleted.slice(0, 2).sort()).toEqual(recent.map((m) => m.id).sort());
    expect((await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${s.bob}`)).status).toBe(204);
    expect(contents(general)).toEqual(['old', 'old dave', 'bystander']);
  });
});

describe('the ban list and deleted users', () => {
  it('drops the ban of a provisional account once it is merged away, so the list names only users that exist', async () => {
    const s = await setUp(VIEW | BAN, { clientSecret: 'shh' });
    const { emu, bot, guildId } = s;
    const issued = await postJson(
      `${emu.api}/partner-sdk/token/bot`,
      { external_user_id: 'cheater' },
      { Authorization: bot },
    );
    const provisional = (await issued.json()) as { access_token: string };
    const me = await call(emu, `Bearer ${provisional.access_token}`, 'GET', '/users/@me');
    const provisionalId = String(me.json.id);
    expect((await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${provisionalId}`, {})).status).toBe(204);
    const grant = await getCode(emu, { user: 'dave' });
    const merged = await postCodeExchange(emu, grant, {
      external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
      external_auth_token: provisional.access_token,
    });
    expect(merged.status).toBe(200);
    expect(emu.users.map((u) => u.id)).not.toContain(provisionalId);
    expect((await call(emu, bot, 'GET', `/guilds/${guildId}/bans`)).json).toEqual([]);
    const gone = await call(emu, bot, 'GET', `/guilds/${guildId}/bans/${provisionalId}`);
    expect([gone.status, gone.json.code]).toEqual([404, 10026]);
  });
});

describe('guild bans on the bot gateway', () => {
  it('sends GUILD_BAN_ADD and GUILD_BAN_REMOVE only under GUILD_MODERATION, with the GUILD_MEMBER_REMOVE a kick sends', async () => {
    const s = await setUp(VIEW | BAN, { privilegedIntents: ['members'], botIdentifyWindowMs: 1 });
    const { emu, bot, guildId, bob } = s;
    const moderation = await botSession(emu, GUILDS | GUILD_MEMBERS | GUILD_MODERATION);
    const plain = await botSession(emu, GUILDS | GUILD_MEMBERS);
    expect((await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${bob}`, {})).status).toBe(204);
    const removed = data(await moderation.dispatch('GUILD_MEMBER_REMOVE'));
    expect(removed).toMatchObject({ guild_id: guildId, user: { id: bob } });
    const added = data(await moderation.dispatch('GUILD_BAN_ADD'));
    expect(added).toMatchObject({ guild_id: guildId, user: { id: bob, username: 'bob' } });
    expect(data(await plain.dispatch('GUILD_MEMBER_REMOVE'))).toMatchObject({ user: { id: bob } });
    expect((await call(emu, bot, 'DELETE', `/guilds/${guildId}/bans/${bob}`)).status).toBe(204);
    expect(data(await moderation.dispatch('GUILD_BAN_REMOVE'))).toEqual({
      guild_id: guildId,
      user: expect.objectContaining({ id: bob, username: 'bob' }) as unknown,
    });
    // A later event both sessions get: by then the plain one would have had any ban event.
    emu.setMemberRoles(guildId, 'carol', []);
    await plain.dispatch('GUILD_MEMBER_UPDATE');
    const names = plain.pending().map((p) => p.t);
    expect(names.filter((t) => t?.startsWith('GUILD_BAN'))).toEqual([]);
  });
});

describe('joining a guild one is banned from', () => {
  it('refuses an invite with 40007 (not using it up) and the admin hook, and lets the user back after unban', async () => {
    const s = await setUp(VIEW | SEND | BAN | INVITE);
    const { emu, bot, guildId, general, carol } = s;
    const invite = await call(emu, bot, 'POST', `/channels/${general}/invites`, { max_uses: 1 });
    const code = String(invite.json.code);
    expect((await call(emu, bot, 'PUT', `/guilds/${guildId}/bans/${carol}`, {})).status).toBe(204);
    const carolPlayer = await player(emu, 'carol');
    const refused = await call(emu, carolPlayer.auth, 'POST', `/invites/${code}`);
    expect([refused.status, refused.json.code, refused.json.message]).toEqual([
      403,
      40007,
      'The user is banned from this guild.',
    ]);
    expect(memberIds(s)).not.toContain(carol);
    expect(() => emu.addGuildMember(guildId, carol)).toThrow(/banned/);
    expect((await call(emu, bot, 'DELETE', `/guilds/${guildId}/bans/${carol}`)).status).toBe(204);
    // The single-use invite was not spent by the refusal.
    const joined = await call(emu, carolPlayer.auth, 'POST', `/invites/${code}`);
    expect([joined.status, joined.json.guild]).toEqual([200, expect.objectContaining({ id: guildId })]);
    expect(memberIds(s)).toContain(carol);
  });
});

describe('a discord.js v14 bot banning', () => {
  let emu: Emulator | undefined;
  const bot = discordjsBotAfterEach([GatewayIntentBits.Guilds, GatewayIntentBits.GuildModeration]);

  it('bans with deleteMessageSeconds, receives guildBanAdd, fetches and removes bans', async () => {
    emu = await bot.start({ users: 3 });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | READ_HISTORY | BAN });
    const general = seeded.channels.find((c) => c.name === 'general')?.id ?? '';
    const [alice = '', , carol = ''] = emu.users.map((u) => u.id);
    const client = await bot.connect(emu);
    const guild = client.guilds.cache.get(seeded.id);
    if (!guild) throw new Error('the bot does not see its guild');

    emu.postChannelMessage(general, 'carol', 'buy gold');
    emu.postChannelMessage(general, 'bob', 'hello');
    const banAdd = new Promise<GuildBan>((resolve) => client.once(Events.GuildBanAdd, resolve));
    await guild.members.ban(carol, { deleteMessageSeconds: 60, reason: 'gold seller' });
    expect((await banAdd).user.id).toBe(carol);
    expect(emu.channelMessages(general).map((m) => m.content)).toEqual(['hello']);

    const bans = await guild.bans.fetch();
    expect([...bans.keys()]).toEqual([carol]);
    expect(bans.get(carol)?.reason).toBe('gold seller');
    const refused = await guild.members.ban(alice).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DiscordAPIError);
    expect((refused as DiscordAPIError).code).toBe(50013);

    const banRemove = new Promise<GuildBan>((resolve) => client.once(Events.GuildBanRemove, resolve));
    await guild.bans.remove(carol);
    expect((await banRemove).user.id).toBe(carol);
    expect((await guild.bans.fetch()).size).toBe(0);
  });
});

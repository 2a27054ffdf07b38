import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { botSession } from './botHelpers.js';
import { signIn } from './helpers.js';
import { call as apiCall } from './lobbyHelpers.js';

type Json = Record<string, unknown> & Record<string, unknown>[];

const call = apiCall<Json>;

const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const MANAGE = 1n << 4n;
/** Every permission bit: what the owner holds. */
// Every bit through 52 (BYPASS_SLOWMODE) but 47, which the platform leaves unassigned.
const ALL = (((1n << 53n) - 1n) & ~(1n << 47n)).toString();

describe('guilds and channels (emulator)', () => {
  let emu: Emulator;
  let alice: string;
  let bob: string;
  let bot: string;
  let guildId: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true, users: 3 });
    alice = `Bearer ${(await signIn(emu, 'alice')).access_token}`;
    bob = `Bearer ${(await signIn(emu, 'bob')).access_token}`;
    bot = `Bot ${emu.botToken}`;
    const seeded = emu.guilds()[0];
    guildId = seeded?.id ?? '';
    ids = Object.fromEntries((seeded?.channels ?? []).map((c) => [c.name, c.id]));
  });
  afterAll(async () => {
    await emu.close();
  });

  it('seeds the contract guild: owned by the first user, every seeded user a member, and the bot', () => {
    const guilds = emu.guilds();
    expect(guilds).toHaveLength(1);
    const [alice, bob, carol] = emu.users.map((u) => u.id);
    expect(guilds[0]).toMatchObject({ name: 'Emulator Guild', ownerId: alice });
    const BOT = VIEW | SEND | (1n << 16n) | (1n << 14n) | (1n << 15n) | (1n << 6n) | MANAGE | (1n << 51n);
    expect(guilds[0]?.members).toEqual({
      [alice ?? '']: ALL,
      [bob ?? '']: (VIEW | SEND).toString(),
      [carol ?? '']: (VIEW | SEND).toString(),
      [emu.applicationId]: BOT.toString(),
    });
    // Roles, the platform's way: @everyone holds nothing, members hold the Member role, the bot its own.
    expect(guilds[0]?.roles.map((r) => [r.name, r.permissions, r.managed, r.members.length])).toEqual([
      ['@everyone', '0', false, 4],
      ['Member', (VIEW | SEND).toString(), false, 2],
      ['sdkpp Demo Game', BOT.toString(), true, 1],
    ]);
    const channels = guilds[0]?.channels ?? [];
    expect(channels.map((c) => [c.name, c.type, c.position])).toEqual([
      ['Text Channels', 4, 0],
      ['general', 0, 0],
      ['welcome', 0, 0],
      ['General', 2, 0],
      ['lfg', 0, 1],
      ['Voice Channels', 4, 1],
      ['staff', 0, 2],
    ]);
    expect(channels.find((c) => c.name === 'general')?.parentId).toBe(ids['Text Channels']);
    expect(channels.find((c) => c.name === 'General')?.parentId).toBe(ids['Voice Channels']);
    expect(channels.find((c) => c.name === 'welcome')?.parentId).toBeNull();
  });

  it('lists each user their guilds with ownership and permissions', async () => {
    const mine = await call(emu, alice, 'GET', '/users/@me/guilds');
    expect(mine.status).toBe(200);
    expect(mine.json).toEqual([
      {
        id: guildId,
        name: 'Emulator Guild',
        icon: null,
        banner: null,
        owner: true,
        permissions: ALL,
        features: [],
      },
    ]);
    const bobs = await call(emu, bob, 'GET', '/users/@me/guilds');
    expect(bobs.json).toEqual([
      {
        id: guildId,
        name: 'Emulator Guild',
        icon: null,
        banner: null,
        owner: false,
        permissions: (VIEW | SEND).toString(),
        features: [],
      },
    ]);
    expect((await call(emu, null, 'GET', '/users/@me/guilds')).status).toBe(401);
    // The bot token lists the bot's guilds (applicationInstalls.test.ts pages through them).
    const bots = await call(emu, bot, 'GET', '/users/@me/guilds');
    expect([bots.status, bots.json[0]?.id]).toEqual([200, guildId]);
  });

  it('shows the owner every channel, linkable where text, with who may write', async () => {
    const list = await call(emu, alice, 'GET', `/guilds/${guildId}/channels`);
    expect(list.status).toBe(200);
    expect(list.json.map((c) => c.name)).toEqual([
      'Text Channels',
      'general',
      'welcome',
      'General',
      'lfg',
      'Voice Channels',
      'staff',
    ]);
    const positions = list.json.map((c) => c.position as number);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const byName = new Map(list.json.map((c) => [c.name, c]));
    expect(byName.get('general')).toMatchObject({
      id: ids.general,
      type: 0,
      position: 0,
      parent_id: ids['Text Channels'],
      guild_id: guildId,
      linkable: true,
      viewable_and_writeable_by_all_members: true,
      linked_lobby: null,
    });
    expect(byName.get('welcome')).toMatchObject({ parent_id: null, linkable: true });
    expect(byName.get('staff')).toMatchObject({
      linkable: true,
      viewable_and_writeable_by_all_members: false,
    });
    // Only text channels link.
    expect(byName.get('Text Channels')?.linkable).toBe(false);
    expect(byName.get('General')).toMatchObject({ type: 2, linkable: false });
  });

  it('hides #staff from members and lets them link nothing', async () => {
    const list = await call(emu, bob, 'GET', `/guilds/${guildId}/channels`);
    expect(list.status).toBe(200);
    expect(list.json.map((c) => c.name)).not.toContain('staff');
    expect(list.json).toHaveLength(6);
    expect(list.json.filter((c) => c.linkable === true)).toEqual([]);
    expect(list.json.find((c) => c.name === 'general')?.viewable_and_writeable_by_all_members).toBe(true);
  });

  it('shows the bot the channels it may view (the 2026-11-16 rule), and refuses guilds it is not in', async () => {
    const list = await call(emu, bot, 'GET', `/guilds/${guildId}/channels`);
    expect(list.status).toBe(200);
    expect(list.json.map((c) => c.name)).not.toContain('staff');
    expect(list.json).toHaveLength(6);
    expect(list.json.find((c) => c.name === 'general')).toMatchObject({ linkable: true });
    const closed = emu.createGuild({ name: 'Botless', owner: 'carol' });
    const outside = await call(emu, bot, 'GET', `/guilds/${closed.id}/channels`);
    expect([outside.status, outside.json.code]).toEqual([403, 50001]);
  });

  it('refuses unknown guilds, non-members, missing scopes and missing credentials', async () => {
    const unknown = await call(emu, alice, 'GET', '/guilds/123/channels');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 10004, message: 'Unknown Guild' });
    expect((await call(emu, bot, 'GET', '/guilds/123/channels')).json).toMatchObject({ code: 10004 });

    const closed = emu.createGuild({ name: 'Closed', owner: 'carol' });
    const outsider = await call(emu, bob, 'GET', `/guilds/${closed.id}/channels`);
    expect(outsider.status).toBe(403);
    expect(outsider.json).toMatchObject({ code: 50001 });
    expect((await call(emu, bob, 'GET', '/users/@me/guilds')).json).toHaveLength(1);

    const noChannels = `Bearer ${(await signIn(emu, 'alice', 'identify guilds')).access_token}`;
    const refused = await call(emu, noChannels, 'GET', `/guilds/${guildId}/channels`);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 50001 });
    expect((await call(emu, noChannels, 'GET', '/users/@me/guilds')).status).toBe(200);
    const noGuilds = `Bearer ${(await signIn(emu, 'alice', 'identify guilds.channels.read')).access_token}`;
    expect((await call(emu, noGuilds, 'GET', '/users/@me/guilds')).json).toMatchObject({ code: 50001 });
    expect((await call(emu, null, 'GET', `/guilds/${guildId}/channels`)).status).toBe(401);
  });

  it('creates guilds whose overwrites decide what each member sees, writes and links', async () => {
    const guild = emu.createGuild({
      name: 'Overwrites',
      owner: 'carol',
      members: ['alice', { user: 'bob', permissions: VIEW | SEND | MANAGE }],
      channels: [
        { name: 'Lobby Links', type: 4 },
        { name: 'open', parent: 'Lobby Links' },
        // Bob may not write here: linking needs VIEW, SEND and MANAGE_CHANNELS.
        { name: 'quiet', parent: 'Lobby Links', overwrites: [{ target: 'bob', deny: SEND }] },
        // Hidden from @everyone, shown to Alice by her own overwrite.
        {
          name: 'secret',
          overwrites: [
            { target: '@everyone', deny: VIEW },
            { target: 'alice', allow: VIEW },
          ],
        },
      ],
    });
    expect(guild.channels.map((c) => c.name)).toEqual(['Lobby Links', 'open', 'quiet', 'secret']);
    expect(guild.channels.find((c) => c.name === 'secret')?.overwrites).toEqual([
      { id: guild.id, type: 0, allow: '0', deny: VIEW.toString() },
      { id: emu.users[0]?.id, type: 1, allow: VIEW.toString(), deny: '0' },
    ]);

    const asBob = await call(emu, bob, 'GET', `/guilds/${guild.id}/channels`);
    const bobSees = new Map(asBob.json.map((c) => [c.name, c]));
    expect([...bobSees.keys()]).toEqual(['Lobby Links', 'open', 'quiet']);
    expect(bobSees.get('open')).toMatchObject({
      linkable: true,
      viewable_and_writeable_by_all_members: true,
    });
    expect(bobSees.get('quiet')).toMatchObject({
      linkable: false,
      viewable_and_writeable_by_all_members: false,
    });

    const asAlice = await call(emu, alice, 'GET', `/guilds/${guild.id}/channels`);
    expect(asAlice.json.map((c) => c.name)).toEqual(['Lobby Links', 'open', 'quiet', 'secret']);
    expect(asAlice.json.every((c) => c.linkable === false)).toBe(true);

    // ADMINISTRATOR holds everything, overwrites or not.
    emu.addGuildMember(guild.id, 'alice', { permissions: (1n << 3n).toString() });
    const admin = await call(emu, alice, 'GET', '/users/@me/guilds');
    expect(admin.json.find((g) => g.id === guild.id)).toMatchObject({ owner: false, permissions: ALL });
    const asAdmin = await call(emu, alice, 'GET', `/guilds/${guild.id}/channels`);
    expect(asAdmin.json.filter((c) => c.linkable === true).map((c) => c.name)).toEqual([
      'open',
      'quiet',
      'secret',
    ]);
  });

  it('refuses bad guild specs without leaving a half-made guild', () => {
    const before = emu.guilds().length;
    expect(() =>
      emu.createGuild({ name: 'Bad', owner: 'alice', channels: [{ name: 'x', parent: 'nope' }] }),
    ).toThrow(RangeError);
    expect(() =>
      emu.createGuild({ name: 'Bad', owner: 'alice', channels: [{ name: 'x', type: 3 }] }),
    ).toThrow(/type/);
    expect(() => emu.createGuild({ name: '', owner: 'alice' })).toThrow(RangeError);
    expect(() => emu.createGuild({ name: 'Bad', owner: 'nobody' })).toThrow(/no user/);
    expect(() =>
      emu.createGuild({ name: 'Bad', owner: 'alice', members: [{ user: 'bob', permissions: '-1' }] }),
    ).toThrow(RangeError);
    expect(emu.guilds()).toHaveLength(before);
    expect(() => emu.addGuildMember('123', 'bob')).toThrow(/no guild/);
  });

  it('posts channel messages for users who may write, and refuses the others', () => {
    const general = ids.general ?? '';
    const posted = emu.postChannelMessage(general, 'bob', 'hello from the chat app');
    expect(posted).toMatchObject({
      channelId: general,
      authorId: emu.users[1]?.id,
      content: 'hello from the chat app',
      fromLobbyId: null,
    });
    expect(Number.isNaN(Date.parse(posted.timestamp))).toBe(false);
    expect(emu.channelMessages(general).map((m) => m.content)).toEqual(['hello from the chat app']);

    expect(() => emu.postChannelMessage(ids.staff ?? '', 'bob', 'let me in')).toThrow(RangeError);
    expect(() => emu.postChannelMessage(ids.General ?? '', 'alice', 'voice')).toThrow(/not a text channel/);
    expect(() => emu.postChannelMessage(general, 'alice', '')).toThrow(RangeError);
    expect(() => emu.postChannelMessage(general, 'alice', 'x'.repeat(2001))).toThrow(RangeError);
    expect(() => emu.postChannelMessage('123', 'alice', 'where')).toThrow(/no channel/);
    // Carol loses SEND_MESSAGES: she can read #general but no longer write there.
    emu.addGuildMember(guildId, 'carol', { permissions: VIEW });
    expect(() => emu.postChannelMessage(general, 'carol', 'hi')).toThrow(/may not send/);
    expect(emu.channelMessages(general)).toHaveLength(1);
    emu.addGuildMember(guildId, 'carol');
    expect(emu.postChannelMessage(general, 'carol', 'back').content).toBe('back');
  });

  it('modifies a guild with MANAGE_GUILD, tells the bot gateway, and refuses without it or with a bad body', async () => {
    const { gw } = await botSession(emu, 1 /* GUILDS */);
    try {
      // The seeded bot holds no MANAGE_GUILD.
      const refused = await call(emu, bot, 'PATCH', `/guilds/${guildId}`, { name: 'Renamed' });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ code: 50013 });
      const guild = emu.createGuild({ owner: 'alice', name: 'Editable', members: ['bob'] });
      emu.addBotToGuild(guild.id, { permissions: (1n << 5n) | VIEW });
      const edited = await call(emu, bot, 'PATCH', `/guilds/${guild.id}`, {
        name: 'Edited',
        description: 'Weekly raids',
        afk_timeout: 60, // accepted, not modelled
      });
      expect(edited.status).toBe(200);
      expect(edited.json).toMatchObject({
        id: guild.id,
        name: 'Edited',
        description: 'Weekly raids',
        icon: null,
      });
      const update = await gw.dispatch('GUILD_UPDATE');
      expect(update.d).toMatchObject({ id: guild.id, name: 'Edited', description: 'Weekly raids' });
      const mine = await call(emu, bob, 'GET', '/users/@me/guilds');
      expect(mine.json.find((g) => g.id === guild.id)).toMatchObject({ name: 'Edited' });
      for (const body of [
        { name: 'x' },
        { icon: 'data:text/plain;base64,AA==' },
        { description: 'd'.repeat(121) },
      ]) {
        const bad = await call(emu, bot, 'PATCH', `/guilds/${guild.id}`, body);
        expect(bad.status, JSON.stringify(body)).toBe(400);
        expect(bad.json).toMatchObject({ code: 50035 });
      }
      expect(emu.guilds().find((g) => g.id === guild.id)?.name).toBe('Edited');
    } finally {
      gw.ws.close();
    }
  });

  it('starts without a guild when seedGuild is false', async () => {
    const bare = await startEmulator({ autoConsent: true, seedGuild: false, rpc: false });
    try {
      expect(bare.guilds()).toEqual([]);
      const token = `Bearer ${(await signIn(bare, 'alice')).access_token}`;
      expect((await call(bare, token, 'GET', '/users/@me/guilds')).json).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe('lobby channel invites (emulator)', () => {
  let emu: Emulator;
  let alice: string;
  let bob: string;
  let dave: string;
  let daveId: string;
  let bot: string;
  let guildId: string;
  let generalId: string;
  let lobbyId: string;
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true, users: 2 });
    // Dave signs up after the guild was seeded: he is in the lobby but not in the guild.
    daveId = emu.createUser({ username: 'dave' }).id;
    alice = `Bearer ${(await signIn(emu, 'alice')).access_token}`;
    bob = `Bearer ${(await signIn(emu, 'bob')).access_token}`;
    dave = `Bearer ${(await signIn(emu, 'dave')).access_token}`;
    bot = `Bot ${emu.botToken}`;
    const guild = emu.guilds()[0];
    guildId = guild?.id ?? '';
    generalId = guild?.channels.find((c) => c.name === 'general')?.id ?? '';
    const lobby = await call(emu, bot, 'POST', '/lobbies', {
      members: [{ id: emu.users[0]?.id, flags: 1 }, { id: daveId }],
    });
    expect(lobby.status).toBe(201);
    lobbyId = String(lobby.json.id);
  });
  afterAll(async () => {
    await emu.close();
  });

  const invitePath = (): string => `/lobbies/${lobbyId}/members/@me/invites`;
  const link = async (channelId: string | null): Promise<void> => {
    const linked = await call(emu, bot, 'PATCH', `/lobbies/${lobbyId}/channel-linking`, {
      channel_id: channelId,
    });
    expect(linked.status).toBe(200);
  };

  it('refuses invites while the lobby has no linked channel, to non-members and for unknown lobbies', async () => {
    const unlinked = await call(emu, dave, 'POST', invitePath());
    expect(unlinked.status).toBe(400);
    expect(unlinked.json.code).toBe(0);
    expect(unlinked.json.message).toMatch(/no linked channel/);
    expect((await call(emu, bot, 'POST', `/lobbies/${lobbyId}/members/${daveId}/invites`)).status).toBe(400);
    await link(generalId);
    const outsider = await call(emu, bob, 'POST', invitePath());
    expect(outsider.status).toBe(403);
    expect(outsider.json).toMatchObject({ code: 50001 });
    const unknown = await call(emu, dave, 'POST', '/lobbies/123/members/@me/invites');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 10031 });
    expect((await call(emu, null, 'POST', invitePath())).status).toBe(401);
    // The bot route is the bot's alone, and names a lobby member.
    expect((await call(emu, alice, 'POST', `/lobbies/${lobbyId}/members/${daveId}/invites`)).status).toBe(
      401,
    );
    const bobId = emu.users[1]?.id ?? '';
    expect((await call(emu, bot, 'POST', `/lobbies/${lobbyId}/members/${bobId}/invites`)).json).toMatchObject(
      {
        code: 50001,
      },
    );
    expect((await call(emu, bot, 'POST', `/lobbies/${lobbyId}/members/123/invites`)).json).toMatchObject({
      code: 10013,
    });
    const narrow = `Bearer ${(await signIn(emu, 'dave', 'identify guilds')).access_token}`;
    expect((await call(emu, narrow, 'POST', invitePath())).json).toMatchObject({ code: 50001 });
  });

  it('makes a single-use invite that only its user may redeem, and makes them a guild member', async () => {
    await link(generalId);
    const made = await call(emu, dave, 'POST', invitePath());
    expect(made.status).toBe(200);
    expect(Object.keys(made.json)).toEqual(['code']);
    const code = String(made.json.code);
    expect(code).toMatch(/^[A-Za-z0-9_-]{8,10}$/);

    const shown = await call(emu, null, 'GET', `/invites/${code}`);
    expect(shown.json).toMatchObject({
      code,
      guild: { id: guildId, name: 'Emulator Guild' },
      channel: { id: generalId, name: 'general', type: 0 },
    });

    const stolen = await call(emu, alice, 'POST', `/invites/${code}`);
    expect(stolen.status).toBe(403);
    expect(stolen.json).toMatchObject({ code: 50001 });

    expect((await call(emu, dave, 'GET', '/users/@me/guilds')).json).toEqual([]);
    const redeemed = await call(emu, dave, 'POST', `/invites/${code}`);
    expect(redeemed.status).toBe(200);
    expect(redeemed.json).toEqual({
      type: 0,
      code,
      guild: { id: guildId, name: 'Emulator Guild' },
      channel: { id: generalId, name: 'general', type: 0 },
    });
    const guilds = await call(emu, dave, 'GET', '/users/@me/guilds');
    expect(guilds.json).toMatchObject([{ id: guildId, owner: false, permissions: (VIEW | SEND).toString() }]);
    const channels = await call(emu, dave, 'GET', `/guilds/${guildId}/channels`);
    expect(channels.status).toBe(200);
    expect(channels.json.map((c) => c.name)).not.toContain('staff');
    expect(channels.json.find((c) => c.id === generalId)).toMatchObject({
      linkable: false,
      linked_lobby: { application_id: emu.applicationId, lobby_id: lobbyId },
    });

    const reused = await call(emu, dave, 'POST', `/invites/${code}`);
    expect(reused.status).toBe(404);
    expect(reused.json).toMatchObject({ code: 10006, message: 'Unknown Invite' });
    expect((await call(emu, null, 'GET', `/invites/${code}`)).json).toMatchObject({ code: 10006 });
    expect((await call(emu, dave, 'POST', '/invites/not*a*code')).json).toMatchObject({ code: 10006 });
    expect((await call(emu, dave, 'POST', '/invites/__proto__')).json).toMatchObject({ code: 10006 });
    expect((await call(emu, null, 'POST', `/invites/${code}`)).status).toBe(401);
  });

  it('lets the bot invite a member, and expires invites after an hour', async () => {
    await link(generalId);
    const made = await call(emu, bot, 'POST', `/lobbies/${lobbyId}/members/${daveId}/invites`);
    expect(made.status).toBe(200);
    const code = String(made.json.code);
    expect(code).toMatch(/^[A-Za-z0-9_-]{8,10}$/);
    const later = await call(emu, bot, 'POST', `/lobbies/${lobbyId}/members/${daveId}/invites`);
    expect(later.json.code).not.toBe(code);

    emu.advanceTime(59 * 60_000);
    expect((await call(emu, null, 'GET', `/invites/${code}`)).status).toBe(200);
    emu.advanceTime(2 * 60_000);
    const expired = await call(emu, dave, 'POST', `/invites/${code}`);
    expect(expired.status).toBe(404);
    expect(expired.json).toMatchObject({ code: 10006 });
    expect((await call(emu, dave, 'POST', `/invites/${String(later.json.code)}`)).status).toBe(404);
  });
});

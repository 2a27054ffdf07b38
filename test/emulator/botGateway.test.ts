import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { botSession as openBotSession } from './botHelpers.js';
import { TestGateway } from './helpers.js';
import { call, closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

const GUILDS = 1 << 0;
const GUILD_MEMBERS = 1 << 1;
const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;
const OBFUSCATION = 1 << 15;
const VIEW = 1n << 10n;

const { running, cleanups } = closeAfterEach();

async function botSession(emu: Emulator, intents: number, capabilities = 0) {
  const opened = await openBotSession(emu, intents, capabilities);
  cleanups.push(() => opened.gw.ws.close());
  return opened;
}

type Channel = { id: string; name: string; flags: number; permission_overwrites: unknown[] };

describe('the bot gateway', () => {
  it('refuses privileged intents that are not enabled for the app with 4014', async () => {
    const { emu, logs } = await loggedEmulator(running, { botIdentifyWindowMs: 1, users: 2 });
    const gw = await TestGateway.connect(emu);
    await gw.next((p) => p.op === 10);
    gw.send(2, { token: `Bot ${emu.botToken}`, intents: GUILDS | MESSAGE_CONTENT, properties: {} });
    expect(await gw.closed).toMatchObject({ code: 4014 });
    expect(logs.some((l) => l.includes('privileged intents 32768 are not enabled'))).toBe(true);
    const enabled = await loggedEmulator(running, {
      botIdentifyWindowMs: 1,
      users: 2,
      privilegedIntents: ['message_content'],
    });
    const { ready } = await botSession(enabled.emu, GUILDS | MESSAGE_CONTENT);
    expect(ready.d).toMatchObject({ guilds: [{ unavailable: true }] });
  });

  it('sends each guild as GUILD_CREATE, with members only under GUILD_MEMBERS', async () => {
    const { emu } = await loggedEmulator(running, {
      botIdentifyWindowMs: 1,
      users: 3,
      privilegedIntents: ['members'],
    });
    const plain = await botSession(emu, GUILDS);
    const guild = (await plain.gw.dispatch('GUILD_CREATE')).d as Record<string, unknown>;
    expect(guild).toMatchObject({
      name: 'Emulator Guild',
      unavailable: false,
      member_count: 4,
      large: false,
    });
    expect((guild.members as { user: { id: string } }[]).map((m) => m.user.id)).toEqual([emu.applicationId]);
    expect((guild.roles as { name: string }[]).map((r) => r.name)).toEqual([
      '@everyone',
      'Member',
      'sdkpp Demo Game',
    ]);
    const withMembers = await botSession(emu, GUILDS | GUILD_MEMBERS);
    const full = (await withMembers.gw.dispatch('GUILD_CREATE')).d as { members: unknown[] };
    expect(full.members).toHaveLength(4);
    // Member events reach only the GUILD_MEMBERS session.
    const guildId = String(guild.id);
    emu.setMemberRoles(guildId, 'bob', []);
    const update = await withMembers.gw.dispatch('GUILD_MEMBER_UPDATE');
    expect(update.d).toMatchObject({ guild_id: guildId, roles: [], user: { username: 'bob' } });
    expect(plain.gw.pending().some((p) => p.t === 'GUILD_MEMBER_UPDATE')).toBe(false);
  });

  it('obfuscates channels the bot cannot view (capability 1 << 15), then sends them whole when it can', async () => {
    const { emu } = await loggedEmulator(running, { botIdentifyWindowMs: 1, users: 2 });
    const plain = await botSession(emu, GUILDS);
    const obfuscated = await botSession(emu, GUILDS, OBFUSCATION);
    const channelsOf = async (gw: TestGateway): Promise<Channel[]> =>
      ((await gw.dispatch('GUILD_CREATE')).d as { channels: Channel[] }).channels;
    const seen = await channelsOf(obfuscated.gw);
    const guildId = emu.guilds()[0]?.id ?? '';
    const staffId = emu.guilds()[0]?.channels.find((c) => c.name === 'staff')?.id ?? '';
    const staff = seen.find((c) => c.id === staffId);
    expect(staff).toMatchObject({
      name: '___hidden___',
      flags: 1 << 17,
      permission_overwrites: [{ id: guildId, type: 0, allow: '0', deny: VIEW.toString() }],
    });
    expect(seen.filter((c) => c.name === '___hidden___')).toHaveLength(1);
    expect((await channelsOf(plain.gw)).find((c) => c.id === staffId)?.name).toBe('staff');
    // Gaining VIEW_CHANNEL through a role: CHANNEL_UPDATE with full data, to the obfuscating session.
    const scouts = emu.createRole(guildId, { name: 'Scouts' });
    emu.setChannelOverwrite(staffId, scouts.id, { allow: VIEW });
    const early = await obfuscated.gw.dispatch('CHANNEL_UPDATE');
    expect((early.d as Channel).name).toBe('___hidden___'); // the overwrite alone changes nothing yet
    emu.setMemberRoles(guildId, '@bot', [scouts.id]);
    const gained = (await obfuscated.gw.dispatch('CHANNEL_UPDATE')).d as Channel;
    expect(gained).toMatchObject({ id: staffId, name: 'staff', flags: 0 });
    // …and the HTTP list now carries it.
    const list = await call<Channel[]>(emu, `Bot ${emu.botToken}`, 'GET', `/guilds/${guildId}/channels`);
    expect(list.json.map((c) => c.name)).toContain('staff');
  });

  it('dispatches MESSAGE_CREATE, with content only under MESSAGE_CONTENT or a mention', async () => {
    const { emu } = await loggedEmulator(running, {
      botIdentifyWindowMs: 1,
      users: 2,
      privilegedIntents: ['message_content'],
    });
    const reader = await botSession(emu, GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT);
    const blind = await botSession(emu, GUILDS | GUILD_MESSAGES);
    const general = emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
    emu.postChannelMessage(general, 'alice', 'secret plans');
    expect((await reader.gw.dispatch('MESSAGE_CREATE')).d).toMatchObject({
      content: 'secret plans',
      channel_id: general,
    });
    const hidden = (await blind.gw.dispatch('MESSAGE_CREATE')).d as Record<string, unknown>;
    expect(Array.isArray((hidden.member as { roles?: unknown } | undefined)?.roles)).toBe(true);
    expect(hidden).toMatchObject({
      content: '',
      author: { username: 'alice' },
    });
    emu.postChannelMessage(general, 'alice', `hey <@${emu.applicationId}>`);
    expect((await blind.gw.dispatch('MESSAGE_CREATE')).d).toMatchObject({
      content: `hey <@${emu.applicationId}>`,
    });
    expect((await reader.gw.dispatch('MESSAGE_CREATE')).d).toMatchObject({
      mentions: [{ id: emu.applicationId }],
    });
    // A channel the bot cannot view sends nothing.
    const staff = emu.guilds()[0]?.channels.find((c) => c.name === 'staff')?.id ?? '';
    emu.postChannelMessage(staff, 'alice', 'owners only');
    await expect(reader.gw.dispatch('MESSAGE_CREATE', 300)).rejects.toThrow();
  });
});

describe('the bot gateway: requests', () => {
  it('limits all-member requests to one per guild per 30 s, answering RATE_LIMITED, and counts guilds apart', async () => {
    const { emu, logs } = await loggedEmulator(running, {
      botIdentifyWindowMs: 1,
      users: 3,
      privilegedIntents: ['members'],
    });
    const guildId = emu.guilds()[0]?.id ?? '';
    const other = emu.createGuild({ name: 'Second', owner: 'bob', members: ['carol'] });
    emu.addBotToGuild(other.id);
    const { gw } = await botSession(emu, GUILDS | GUILD_MEMBERS);
    gw.send(8, { guild_id: guildId, query: '', limit: 0, nonce: 'a' });
    const chunk = (await gw.dispatch('GUILD_MEMBERS_CHUNK')).d as Record<string, unknown>;
    expect(chunk).toMatchObject({ guild_id: guildId, chunk_index: 0, chunk_count: 1, nonce: 'a' });
    expect(chunk.members).toHaveLength(4);
    gw.send(8, { guild_id: guildId, query: '', limit: 0, nonce: 'b' });
    const limited = (await gw.dispatch('RATE_LIMITED')).d as Record<string, unknown>;
    expect(limited).toMatchObject({ opcode: 8, meta: { guild_id: guildId, nonce: 'b' } });
    expect(limited.retry_after).toBeGreaterThan(29);
    expect(logs.some((l) => l.includes('RATE_LIMITED'))).toBe(true);
    // Another guild is counted separately; queries and user_ids are not limited.
    gw.send(8, { guild_id: other.id, query: '', limit: 0 });
    expect(((await gw.dispatch('GUILD_MEMBERS_CHUNK')).d as { members: unknown[] }).members).toHaveLength(3);
    gw.send(8, { guild_id: guildId, query: 'bo', limit: 10 });
    const byName = (await gw.dispatch('GUILD_MEMBERS_CHUNK')).d as {
      members: { user: { username: string } }[];
    };
    expect(byName.members.map((m) => m.user.username)).toEqual(['bob']);
    gw.send(8, { guild_id: guildId, user_ids: [emu.users[0]?.id, '42'] });
    expect((await gw.dispatch('GUILD_MEMBERS_CHUNK')).d).toMatchObject({ not_found: ['42'] });
    emu.advanceTime(30_000);
    gw.send(8, { guild_id: guildId, query: '', limit: 0 });
    expect((await gw.dispatch('GUILD_MEMBERS_CHUNK')).d).toMatchObject({ chunk_count: 1 });
    // A malformed request closes the socket with 4002.
    gw.send(8, { guild_id: guildId });
    expect(await gw.closed).toMatchObject({ code: 4002 });
  });

  it('answers Request Channel Info (op 43) with status and voice start time; voice-status follows its rules', async () => {
    const { emu } = await loggedEmulator(running, { botIdentifyWindowMs: 1, users: 2 });
    const guild = emu.guilds()[0];
    const guildId = guild?.id ?? '';
    const voice = guild?.channels.find((c) => c.type === 2)?.id ?? '';
    const bot = `Bot ${emu.botToken}`;
    const SET_STATUS = 1n << 48n;
    emu.addBotToGuild(guildId, { permissions: VIEW | SET_STATUS | (1n << 7n) });
    const { gw } = await botSession(emu, GUILDS | (1 << 7));
    const put = (status: string | null) =>
      call<Record<string, unknown>>(emu, bot, 'PUT', `/channels/${voice}/voice-status`, { status });
    // Not in the channel: MANAGE_CHANNELS is needed too.
    const refused = await put('raid night');
    expect([refused.status, refused.json.message]).toEqual([
      403,
      'Missing Permissions: MANAGE_CHANNELS (the bot is not in the channel)',
    ]);
    emu.setGuildVoiceState(guildId, '@bot', voice);
    expect((await gw.dispatch('VOICE_STATE_UPDATE')).d).toMatchObject({
      channel_id: voice,
      user_id: emu.applicationId,
    });
    const started = (await gw.dispatch('VOICE_CHANNEL_START_TIME_UPDATE')).d as { voice_start_time: number };
    expect((await put('raid night')).status).toBe(204);
    expect((await gw.dispatch('VOICE_CHANNEL_STATUS_UPDATE')).d).toMatchObject({
      id: voice,
      status: 'raid night',
    });
    expect((await put('x'.repeat(501))).json).toMatchObject({ code: 50035, errors: { status: {} } });
    gw.send(43, { guild_id: guildId, fields: ['status', 'voice_start_time'] });
    const info = (await gw.dispatch('CHANNEL_INFO')).d as { channels: Record<string, unknown>[] };
    expect(info.channels).toEqual([
      { id: voice, status: 'raid night', voice_start_time: started.voice_start_time },
    ]);
    expect((await put(null)).status).toBe(204);
    const audit = await call<{ audit_log_entries: Record<string, unknown>[] }>(
      emu,
      bot,
      'GET',
      `/guilds/${guildId}/audit-logs`,
    );
    expect(audit.json.audit_log_entries.map((e) => [e.action_type, e.options])).toEqual([
      [193, { channel_id: voice }],
      [192, { channel_id: voice, status: 'raid night' }],
    ]);
    // The voice state endpoints, without a gateway connection.
    const mine = await call<Record<string, unknown>>(emu, bot, 'GET', `/guilds/${guildId}/voice-states/@me`);
    expect(mine.json).toMatchObject({ channel_id: voice, user_id: emu.applicationId });
    const bob = await call<Record<string, unknown>>(
      emu,
      bot,
      'GET',
      `/guilds/${guildId}/voice-states/${emu.users[1]?.id ?? ''}`,
    );
    expect([bob.status, bob.json.code]).toEqual([404, 10065]);
  });
});

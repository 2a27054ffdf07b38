import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../src/emulator/index.js';
import { TestGateway, type Payload } from './helpers.js';
import { call, closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

const GUILDS = 1 << 0;
const GUILD_MEMBERS = 1 << 1;
const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;
const OBFUSCATION = 1 << 15;
const VIEW = 1n << 10n;

const { running, cleanups } = closeAfterEach();

/** A bot session with these intents and capabilities; resolves with it and its READY. */
async function botSession(
  emu: Emulator,
  intents: number,
  capabilities = 0,
): Promise<{ gw: TestGateway; ready: Payload }> {
  const gw = await TestGateway.connect(emu);
  cleanups.push(() => gw.ws.close());
  await gw.next((p) => p.op === 10);
  gw.send(2, {
    token: `Bot ${emu.botToken}`,
    intents,
    capabilities,
    properties: { os: 'linux', browser: 't', device: 't' },
  });
  return { gw, ready: await gw.dispatch('READY') };
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

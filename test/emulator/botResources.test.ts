import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { signIn as signInAs } from './helpers.js';
import { call as apiCall, closeAfterEach, loggedEmulator } from './lobbyHelpers.js';
import {
  ATTACH,
  KICK,
  MANAGE_CHANNELS,
  MANAGE_GUILD,
  MANAGE_MESSAGES,
  MANAGE_NICKNAMES,
  MANAGE_ROLES,
  PIN,
  READ_HISTORY,
  SEND,
  VIEW,
} from './permissionBits.js';

type Json = Record<string, unknown> & Record<string, unknown>[];
const call = apiCall<Json>;

const { running } = closeAfterEach();

/** An emulator whose seeded guild the bot is in with `permissions`; with the ids of its channels. */
async function setUp(
  permissions: bigint,
  options: Parameters<typeof loggedEmulator>[1] = {},
): Promise<{ emu: Emulator; bot: string; guildId: string; ch: Record<string, string>; logs: string[] }> {
  const { emu, logs } = await loggedEmulator(running, { users: 3, ...options });
  const guild = emu.guilds()[0];
  if (!guild) throw new Error('no seeded guild');
  emu.addBotToGuild(guild.id, { permissions });
  const ch = Object.fromEntries(guild.channels.map((c) => [c.name, c.id]));
  return { emu, bot: `Bot ${emu.botToken}`, guildId: guild.id, ch, logs };
}

/** Sends a multipart message with `files` (name → size in bytes) and a payload. */
async function sendFiles(
  emu: Emulator,
  channelId: string,
  files: [string, number][],
  payload: Record<string, unknown> = {},
): Promise<{ status: number; json: Json }> {
  const form = new FormData();
  form.set('payload_json', JSON.stringify(payload));
  files.forEach(([name, size], i) => {
    form.set(`files[${i}]`, new Blob([Buffer.alloc(size, 7)], { type: 'text/plain' }), name);
  });
  const response = await fetch(`${emu.api}/channels/${channelId}/messages`, {
    method: 'POST',
    headers: { Authorization: `Bot ${emu.botToken}` },
    body: form,
  });
  return { status: response.status, json: (await response.json()) as Json };
}

describe('guild roles and members over HTTP (bot)', () => {
  it('computes permissions from @everyone, roles and overwrites, the platform way', async () => {
    const { emu, bot, guildId, ch } = await setUp(VIEW | SEND | MANAGE_ROLES);
    const raider = emu.createRole(guildId, { name: 'Raider', permissions: READ_HISTORY });
    emu.setMemberRoles(guildId, '@bot', [raider.id]);
    // The role overwrite denies SEND; the bot's own allows it back: member overwrites come last.
    emu.setChannelOverwrite(ch.lfg ?? '', raider.id, { deny: SEND });
    const general = await call(emu, bot, 'POST', `/channels/${ch.lfg}/messages`, { content: 'x' });
    expect([general.status, general.json.code]).toEqual([403, 50013]);
    expect(general.json.message).toContain('SEND_MESSAGES');
    emu.setChannelOverwrite(ch.lfg ?? '', '@bot', { allow: SEND });
    expect((await call(emu, bot, 'POST', `/channels/${ch.lfg}/messages`, { content: 'x' })).status).toBe(200);
    // Get Guild Role and the member counts.
    const role = await call(emu, bot, 'GET', `/guilds/${guildId}/roles/${raider.id}`);
    expect(role.json).toMatchObject({ id: raider.id, name: 'Raider', permissions: READ_HISTORY.toString() });
    expect((await call(emu, bot, 'GET', `/guilds/${guildId}/roles/123`)).json).toMatchObject({ code: 10011 });
    const counts = await call(emu, bot, 'GET', `/guilds/${guildId}/roles/member-counts`);
    expect(counts.json[raider.id]).toBe(1);
  });

  it('lets the bot manage roles only below its own, granting only what it holds', async () => {
    const { emu, bot, guildId } = await setUp(VIEW | SEND | MANAGE_ROLES);
    const made = await call(emu, bot, 'POST', `/guilds/${guildId}/roles`, {
      name: 'Guest',
      permissions: VIEW.toString(),
    });
    expect(made.status).toBe(200);
    const above = await call(emu, bot, 'POST', `/guilds/${guildId}/roles`, {
      name: 'Boss',
      permissions: KICK.toString(),
    });
    expect([above.status, above.json.code, above.json.message]).toEqual([
      403,
      50013,
      'Missing Permissions: KICK_MEMBERS',
    ]);
    const bob = emu.users[1]?.id ?? '';
    expect(
      (await call(emu, bot, 'PUT', `/guilds/${guildId}/members/${bob}/roles/${String(made.json.id)}`)).status,
    ).toBe(204);
    expect((await call(emu, bot, 'GET', `/guilds/${guildId}/members/${bob}`)).json.roles).toContain(
      made.json.id,
    );
    // The role made by an admin hook sits above the bot's: out of reach.
    const top = emu.createRole(guildId, { name: 'Admins' });
    const refused = await call(emu, bot, 'PUT', `/guilds/${guildId}/members/${bob}/roles/${top.id}`);
    expect([refused.status, refused.json.code]).toEqual([403, 50013]);
    const badBody = await call(emu, bot, 'POST', `/guilds/${guildId}/roles`, {
      name: '',
      permissions: 'lots',
    });
    expect(badBody.json).toMatchObject({ code: 50035, errors: { name: {}, permissions: {} } });
  });

  it('lists members only with the GUILD_MEMBERS intent enabled, and sets the bot profile', async () => {
    const off = await setUp(VIEW);
    const refused = await call(off.emu, off.bot, 'GET', `/guilds/${off.guildId}/members?limit=10`);
    expect([refused.status, refused.json.code]).toEqual([403, 50001]);
    const on = await setUp(VIEW, { privilegedIntents: ['members'] });
    const list = await call(on.emu, on.bot, 'GET', `/guilds/${on.guildId}/members?limit=2`);
    expect(list.json).toHaveLength(2);
    const rest = await call(
      on.emu,
      on.bot,
      'GET',
      `/guilds/${on.guildId}/members?limit=10&after=${String((list.json[1]?.user as Json).id)}`,
    );
    expect(rest.json).toHaveLength(2);
    const me = await call(on.emu, on.bot, 'PATCH', `/guilds/${on.guildId}/members/@me`, {
      bio: 'I keep score',
      banner: 'data:image/png;base64,AA==',
    });
    expect(me.json).toMatchObject({ bio: 'I keep score' });
    expect(typeof me.json.banner).toBe('string');
  });

  it('prunes with KICK_MEMBERS and MANAGE_GUILD, counting role-less members past the days', async () => {
    const kickOnly = await setUp(VIEW | KICK);
    const refused = await call(kickOnly.emu, kickOnly.bot, 'GET', `/guilds/${kickOnly.guildId}/prune`);
    expect([refused.status, refused.json.message]).toEqual([403, 'Missing Permissions: MANAGE_GUILD']);
    const { emu, bot, guildId } = await setUp(VIEW | KICK | MANAGE_GUILD);
    emu.setMemberRoles(guildId, 'carol', []);
    expect((await call(emu, bot, 'GET', `/guilds/${guildId}/prune?days=1`)).json).toEqual({ pruned: 0 });
    emu.advanceTime(2 * 86_400_000);
    expect((await call(emu, bot, 'GET', `/guilds/${guildId}/prune?days=1`)).json).toEqual({ pruned: 1 });
    expect((await call(emu, bot, 'GET', `/guilds/${guildId}/prune?days=31`)).json).toMatchObject({
      code: 50035,
    });
    expect((await call(emu, bot, 'POST', `/guilds/${guildId}/prune`, { days: 1 })).json).toEqual({
      pruned: 1,
    });
    expect(Object.keys(emu.guilds()[0]?.members ?? {})).not.toContain(emu.users[2]?.id);
  });

  it('acts only on members ranked below its highest role: kick, nick, role add and remove, prune', async () => {
    const { emu, bot, guildId } = await setUp(VIEW | KICK | MANAGE_ROLES | MANAGE_NICKNAMES | MANAGE_GUILD);
    const [alice, bob, carol] = emu.users.map((u) => u.id);
    const low = await call(emu, bot, 'POST', `/guilds/${guildId}/roles`, { name: 'Helper' });
    const lowId = String(low.json.id);
    // An admin hook's role lands above the bot's; bob holds it (and the bot's own Helper), carol stays below.
    const high = emu.createRole(guildId, { name: 'Mods' });
    emu.setMemberRoles(guildId, 'bob', [high.id, lowId]);
    const member = (id = '') =>
      emu
        .guilds()[0]
        ?.roles.filter((r) => r.id !== guildId && r.members.includes(id))
        .map((r) => r.id);
    const bobBefore = member(bob);
    const refusals = [
      await call(emu, bot, 'DELETE', `/guilds/${guildId}/members/${bob}`),
      await call(emu, bot, 'PATCH', `/guilds/${guildId}/members/${bob}`, { nick: 'demoted' }),
      await call(emu, bot, 'PATCH', `/guilds/${guildId}/members/${bob}`, { roles: [high.id] }),
      await call(emu, bot, 'DELETE', `/guilds/${guildId}/members/${bob}/roles/${lowId}`),
      // The owner is above every role, whatever it holds.
      await call(emu, bot, 'DELETE', `/guilds/${guildId}/members/${alice}`),
      await call(emu, bot, 'PATCH', `/guilds/${guildId}/members/${alice}`, { nick: 'demoted' }),
      await call(emu, bot, 'PUT', `/guilds/${guildId}/members/${alice}/roles/${lowId}`),
    ];
    expect(refusals.map((r) => [r.status, r.json.code])).toEqual(Array(7).fill([403, 50013]));
    emu.setMemberRoles(guildId, 'bob', [high.id]);
    const put = await call(emu, bot, 'PUT', `/guilds/${guildId}/members/${bob}/roles/${lowId}`);
    expect([put.status, put.json.code]).toEqual([403, 50013]);
    expect(member(bob)).toEqual([high.id]);
    emu.setMemberRoles(guildId, 'bob', [high.id, lowId]);
    expect(member(bob)).toEqual(bobBefore);
    const guild = emu.guilds()[0];
    expect(Object.keys(guild?.members ?? {})).toEqual(expect.arrayContaining([alice, bob]));
    const bobView = await call(emu, bot, 'GET', `/guilds/${guildId}/members/${bob}`);
    expect(bobView.json.nick).toBeNull();
    expect(member(alice)).toEqual([]);
    // Prune is a bulk kick: naming the role above the bot reaches none of its holders.
    emu.advanceTime(2 * 86_400_000);
    const pruned = await call(emu, bot, 'POST', `/guilds/${guildId}/prune`, {
      days: 1,
      include_roles: [high.id, lowId],
    });
    expect(pruned.json).toEqual({ pruned: 0 });
    expect(Object.keys(emu.guilds()[0]?.members ?? {})).toContain(bob);
    // carol ranks below the bot: everything goes through.
    const ok = [
      await call(emu, bot, 'PUT', `/guilds/${guildId}/members/${carol}/roles/${lowId}`),
      await call(emu, bot, 'DELETE', `/guilds/${guildId}/members/${carol}/roles/${lowId}`),
      await call(emu, bot, 'PATCH', `/guilds/${guildId}/members/${carol}`, { nick: 'cj', roles: [lowId] }),
    ];
    expect(ok.map((r) => r.status)).toEqual([204, 204, 200]);
    expect(ok[2]?.json).toMatchObject({ nick: 'cj', roles: [lowId] });
    expect((await call(emu, bot, 'DELETE', `/guilds/${guildId}/members/${carol}`)).status).toBe(204);
    expect(Object.keys(emu.guilds()[0]?.members ?? {})).not.toContain(carol);
  });

  it('edits overwrites only with MANAGE_ROLES in that channel, moving only bits it holds there', async () => {
    const { emu, bot, ch } = await setUp(VIEW | SEND | READ_HISTORY | MANAGE_ROLES | MANAGE_CHANNELS);
    const lfg = ch.lfg ?? '';
    const secret = emu.postChannelMessage(lfg, 'alice', 'the raid is at nine');
    // The channel takes from the bot both the history and the right to edit its permissions.
    emu.setChannelOverwrite(lfg, '@bot', { deny: READ_HISTORY | MANAGE_ROLES });
    const attempts = [
      await call(emu, bot, 'DELETE', `/channels/${lfg}/permissions/${emu.applicationId}`),
      await call(emu, bot, 'PUT', `/channels/${lfg}/permissions/${emu.applicationId}`, {
        type: 1,
        allow: '0',
        deny: '0',
      }),
      await call(emu, bot, 'PATCH', `/channels/${lfg}`, { permission_overwrites: [] }),
    ];
    expect(attempts.map((r) => [r.status, r.json.code, r.json.message])).toEqual(
      Array(3).fill([403, 50013, 'Missing Permissions: MANAGE_ROLES']),
    );
    expect((await call(emu, bot, 'GET', `/channels/${lfg}/messages`)).json).toEqual([]);
    const one = await call(emu, bot, 'GET', `/channels/${lfg}/messages/${secret.id}`);
    expect([one.status, one.json.code]).toEqual([403, 50013]);
    // With MANAGE_ROLES left in the channel, lifting a deny of a bit the bot lacks there is still granting it.
    emu.setChannelOverwrite(lfg, '@bot', { deny: READ_HISTORY });
    const lifted = await call(emu, bot, 'DELETE', `/channels/${lfg}/permissions/${emu.applicationId}`);
    expect([lifted.status, lifted.json.message]).toEqual([403, 'Missing Permissions: READ_MESSAGE_HISTORY']);
    expect((await call(emu, bot, 'GET', `/channels/${lfg}/messages`)).json).toEqual([]);
    // Bits it holds there it moves freely: bob's SEND, denied and given back.
    const bob = emu.users[1]?.id ?? '';
    const deny = await call(emu, bot, 'PUT', `/channels/${lfg}/permissions/${bob}`, {
      type: 1,
      deny: SEND.toString(),
    });
    expect(deny.status).toBe(204);
    expect((await call(emu, bot, 'DELETE', `/channels/${lfg}/permissions/${bob}`)).status).toBe(204);
  });

  it('answers a blank role or channel name with 400 50035 naming the field, on create and on edit', async () => {
    const { emu, bot, guildId, ch } = await setUp(VIEW | MANAGE_ROLES | MANAGE_CHANNELS);
    const made = await call(emu, bot, 'POST', `/guilds/${guildId}/roles`, { name: 'Crew' });
    const blank = {
      code: 50035,
      errors: { name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH' }] } },
    };
    const answers = [
      await call(emu, bot, 'POST', `/guilds/${guildId}/roles`, { name: '   ' }),
      await call(emu, bot, 'PATCH', `/guilds/${guildId}/roles/${String(made.json.id)}`, { name: '  \t ' }),
      await call(emu, bot, 'POST', `/guilds/${guildId}/channels`, { name: '   ' }),
      await call(emu, bot, 'PATCH', `/channels/${ch.lfg}`, { name: ' \n ' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject(blank);
    }
    const guild = emu.guilds()[0];
    expect(guild?.roles.find((r) => r.id === made.json.id)?.name).toBe('Crew');
    expect(guild?.roles.filter((r) => r.name.trim() === '')).toEqual([]);
    expect(guild?.channels.find((c) => c.id === ch.lfg)?.name).toBe('lfg');
    expect(guild?.channels.filter((c) => c.name.trim() === '')).toEqual([]);
  });
});

describe('channel messages over HTTP (bot)', () => {
  it('refuses a 26th embed field, naming it, and 6 action rows, and content on a V2 message', async () => {
    const { emu, bot, ch } = await setUp(VIEW | SEND | (1n << 14n));
    const fields = Array.from({ length: 26 }, (_, i) => ({ name: `f${i}`, value: 'v' }));
    const tooMany = await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
      embeds: [{ fields }],
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toMatchObject({
      code: 50035,
      errors: { embeds: { 0: { fields: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } } },
    });
    expect(
      (
        await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
          embeds: [{ fields: fields.slice(1) }],
        })
      ).status,
    ).toBe(200);
    const row = { type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] };
    const rows = Array.from({ length: 6 }, (_, i) => ({
      ...row,
      components: [{ ...row.components[0], custom_id: `go${i}` }],
    }));
    const sixRows = await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
      content: 'x',
      components: rows,
    });
    expect(sixRows.json).toMatchObject({
      code: 50035,
      errors: { components: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } },
    });
    const duplicate = await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
      components: [row, row],
    });
    expect(duplicate.json).toMatchObject({
      errors: { components: { 1: { components: { 0: { custom_id: {} } } } } },
    });
    const v2Content = await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
      flags: 1 << 15,
      content: 'no',
      components: [{ type: 10, content: 'yes' }],
    });
    expect(v2Content.json).toMatchObject({ code: 50035, errors: { content: {} } });
    const texts = Array.from({ length: 41 }, (_, i) => ({ type: 10, content: `line ${i}` }));
    const v2Big = await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
      flags: 1 << 15,
      components: texts,
    });
    expect(v2Big.json).toMatchObject({ code: 50035, errors: { components: {} } });
    const v2Ok = await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
      flags: 1 << 15,
      components: [{ type: 17, components: texts.slice(0, 39) }],
    });
    expect(v2Ok.status).toBe(200);
    expect((await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {})).json).toMatchObject({
      code: 50006,
    });
  });

  it('checks the 10 MiB upload limit per attachment, and edits description and is_spoiler', async () => {
    const { emu, bot, ch } = await setUp(VIEW | SEND | ATTACH | READ_HISTORY);
    const tenMiB = 10 * 1024 * 1024;
    const over = await sendFiles(emu, ch.general ?? '', [['big.bin', tenMiB + 1]]);
    expect([over.status, over.json.code]).toEqual([413, 40005]);
    expect(String(over.json.message)).toContain('big.bin');
    // Two files of 6 MiB: 12 MiB in the message, each within the limit.
    const two = await sendFiles(
      emu,
      ch.general ?? '',
      [
        ['SPOILER_a.txt', 6 * 1024 * 1024],
        ['b.txt', 6 * 1024 * 1024],
      ],
      {
        content: 'maps',
        attachments: [{ id: 0 }, { id: 1, description: 'the second map', is_spoiler: true }],
      },
    );
    expect(two.status).toBe(200);
    const [a, b] = two.json.attachments as Json[];
    expect(a).toMatchObject({ filename: 'SPOILER_a.txt', size: 6 * 1024 * 1024, flags: 8 });
    expect(b).toMatchObject({ filename: 'b.txt', description: 'the second map', flags: 8 });
    const download = await fetch(String(a?.url));
    expect((await download.arrayBuffer()).byteLength).toBe(6 * 1024 * 1024);
    const edited = await call(emu, bot, 'PATCH', `/channels/${ch.general}/messages/${String(two.json.id)}`, {
      attachments: [
        { id: a?.id, is_spoiler: false },
        { id: b?.id, description: 'renamed' },
      ],
    });
    expect((edited.json.attachments as Json[]).map((x) => [x.flags, x.description])).toEqual([
      [0, undefined],
      [8, 'renamed'],
    ]);
    const noAttach = await setUp(VIEW | SEND);
    const refused = await sendFiles(noAttach.emu, noAttach.ch.general ?? '', [['a.txt', 3]]);
    expect([refused.status, refused.json.message]).toEqual([403, 'Missing Permissions: ATTACH_FILES']);
  });

  it('dedupes with enforce_nonce, and keeps two messages without it', async () => {
    const { emu, bot, ch } = await setUp(VIEW | SEND);
    const send = (enforce: boolean) =>
      call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
        content: 'once',
        nonce: 'n-1',
        enforce_nonce: enforce,
      });
    const first = await send(true);
    const again = await send(true);
    expect(again.json.id).toBe(first.json.id);
    expect(emu.channelMessages(ch.general ?? '')).toHaveLength(1);
    await send(false);
    expect(emu.channelMessages(ch.general ?? '')).toHaveLength(2);
    emu.advanceTime(6 * 60_000);
    expect((await send(true)).json.id).not.toBe(first.json.id);
  });

  it('forwards only what the app can read (160014), with a snapshot without a guild', async () => {
    const { emu, bot, ch, logs } = await setUp(VIEW | SEND | READ_HISTORY);
    const theirs = emu.postChannelMessage(ch.general ?? '', 'alice', 'gg all');
    const forward = (id: string) =>
      call(emu, bot, 'POST', `/channels/${ch.lfg}/messages`, {
        message_reference: { type: 1, message_id: id, channel_id: ch.general },
      });
    // Without MESSAGE_CONTENT the app cannot read alice's message.
    const refused = await forward(theirs.id);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      code: 160014,
      message: 'You cannot forward a message whose content you cannot read.',
    });
    expect(logs.some((l) => l.includes('cannot read its content'))).toBe(true);
    const mine = await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
      content: 'my own words',
    });
    const ok = await forward(String(mine.json.id));
    expect(ok.status).toBe(200);
    expect(ok.json.message_reference).toMatchObject({
      type: 1,
      message_id: mine.json.id,
      channel_id: ch.general,
    });
    const snapshot = (ok.json.message_snapshots as { message: Json }[])[0]?.message;
    expect(snapshot?.content).toBe('my own words');
    expect(snapshot).not.toHaveProperty('guild_id');
    // Over HTTP the app sees alice's content only with the intent enabled.
    const listed = await call(emu, bot, 'GET', `/channels/${ch.general}/messages`);
    expect(listed.json.find((m) => m.id === theirs.id)?.content).toBe('');
  });

  it('answers a reference into a channel it cannot read as one to a missing message, and keeps guilds apart', async () => {
    const { emu, bot, guildId, ch } = await setUp(VIEW | SEND | READ_HISTORY);
    const hidden = emu.postChannelMessage(ch.staff ?? '', 'alice', 'the password is hunter2');
    const post = (reference: Record<string, unknown>) =>
      call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
        content: 'see above',
        message_reference: reference,
      });
    // A reply: the id that exists in #staff and one that exists nowhere get the same answer.
    const existing = await post({ message_id: hidden.id, channel_id: ch.staff });
    const missing = await post({ message_id: '1234567890123', channel_id: ch.staff });
    expect([existing.status, existing.json]).toEqual([missing.status, missing.json]);
    expect(existing.json).toMatchObject({
      code: 50035,
      errors: { message_reference: { _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE' }] } },
    });
    const lenient = await post({ message_id: hidden.id, channel_id: ch.staff, fail_if_not_exists: false });
    expect(lenient.status).toBe(200);
    expect(lenient.json).not.toHaveProperty('message_reference');
    // A forward: the same, whatever #staff holds.
    const forward = (id: string) =>
      call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
        message_reference: { type: 1, message_id: id, channel_id: ch.staff },
      });
    const forwarded = await forward(hidden.id);
    const nothing = await forward('1234567890123');
    expect([forwarded.status, forwarded.json]).toEqual([nothing.status, nothing.json]);
    expect([forwarded.status, forwarded.json.code]).toEqual([404, 10008]);
    expect(emu.channelMessages(ch.general ?? '').map((m) => m.content)).toEqual(['see above']);
    // Another guild the bot is in: a reply cannot point there; a forward from there carries that guild.
    const other = emu.createGuild({ name: 'Elsewhere', owner: 'bob', channels: [{ name: 'yard' }] });
    emu.addBotToGuild(other.id, { permissions: VIEW | SEND | READ_HISTORY });
    const yard = other.channels[0]?.id ?? '';
    const there = await call(emu, bot, 'POST', `/channels/${yard}/messages`, { content: 'from the yard' });
    const reply = await post({ message_id: String(there.json.id), channel_id: yard });
    expect([reply.status, reply.json]).toEqual([missing.status, missing.json]);
    const brought = await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, {
      message_reference: { type: 1, message_id: there.json.id, channel_id: yard },
    });
    expect(brought.status).toBe(200);
    expect(brought.json).toMatchObject({
      guild_id: guildId,
      message_reference: { type: 1, message_id: there.json.id, channel_id: yard, guild_id: other.id },
    });
    // A reply in its own channel still works.
    const first = await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, { content: 'first' });
    const answer = await post({ message_id: String(first.json.id) });
    expect(answer.json.message_reference).toEqual({
      type: 0,
      message_id: first.json.id,
      channel_id: ch.general,
      guild_id: guildId,
    });
  });

  it('pins with PIN_MESSAGES only (MANAGE_MESSAGES no longer does), with paginated Get Channel Pins', async () => {
    const old = await setUp(VIEW | SEND | MANAGE_MESSAGES | READ_HISTORY);
    const msg = await call(old.emu, old.bot, 'POST', `/channels/${old.ch.general}/messages`, {
      content: 'pin me',
    });
    const refused = await call(
      old.emu,
      old.bot,
      'PUT',
      `/channels/${old.ch.general}/messages/pins/${String(msg.json.id)}`,
    );
    expect([refused.status, refused.json.message]).toEqual([403, 'Missing Permissions: PIN_MESSAGES']);
    const { emu, bot, ch } = await setUp(VIEW | SEND | PIN | READ_HISTORY);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const m = await call(emu, bot, 'POST', `/channels/${ch.general}/messages`, { content: `m${i}` });
      ids.push(String(m.json.id));
      expect(
        (await call(emu, bot, 'PUT', `/channels/${ch.general}/messages/pins/${String(m.json.id)}`)).status,
      ).toBe(204);
      emu.advanceTime(1000);
    }
    const page = await call(emu, bot, 'GET', `/channels/${ch.general}/messages/pins?limit=2`);
    expect((page.json.items as { message: Json }[]).map((p) => p.message.id)).toEqual([ids[2], ids[1]]);
    expect(page.json.has_more).toBe(true);
    const before = String((page.json.items as { pinned_at: string }[])[1]?.pinned_at);
    const next = await call(
      emu,
      bot,
      'GET',
      `/channels/${ch.general}/messages/pins?limit=2&before=${encodeURIComponent(before)}`,
    );
    expect((next.json.items as { message: Json }[]).map((p) => p.message.id)).toEqual([ids[0]]);
    expect(next.json.has_more).toBe(false);
    expect((await call(emu, bot, 'GET', `/channels/${ch.general}/pins`)).json).toHaveLength(3);
  });
});

describe('guild invites (bot)', () => {
  it('limits who accepts with target_users_file, gives role_ids, and lists target users as CSV', async () => {
    const { emu, bot, guildId, ch } = await setUp(VIEW | SEND | (1n << 0n) | MANAGE_ROLES | (1n << 4n));
    const guest = emu.createRole(guildId, { name: 'Guest', permissions: VIEW });
    // Guest, made by the admin hook, sits above the bot's role; Visitor, made by the bot, below it.
    const made = await call(emu, bot, 'POST', `/guilds/${guildId}/roles`, {
      name: 'Visitor',
      permissions: VIEW.toString(),
    });
    const bob = emu.users[1];
    const form = new FormData();
    form.set('payload_json', JSON.stringify({ max_uses: 5, role_ids: [made.json.id] }));
    form.set(
      'target_users_file',
      new Blob([`user_id\n${bob?.id ?? ''}\n`], { type: 'text/csv' }),
      'targets.csv',
    );
    const created = await fetch(`${emu.api}/channels/${ch.general}/invites`, {
      method: 'POST',
      headers: { Authorization: bot },
      body: form,
    });
    const invite = (await created.json()) as Json;
    expect(created.status).toBe(200);
    expect(invite).toMatchObject({ max_uses: 5, uses: 0, roles: [{ id: made.json.id, name: 'Visitor' }] });
    expect(Object.keys((invite.roles as Json[])[0] ?? {}).sort()).toEqual([
      'color',
      'colors',
      'icon',
      'id',
      'name',
      'position',
      'unicode_emoji',
    ]);
    const code = String(invite.code);
    const csv = await fetch(`${emu.api}/invites/${code}/target-users`, { headers: { Authorization: bot } });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(await csv.text()).toBe(`user_id\n${bob?.id ?? ''}\n`);
    const carolToken = `Bearer ${(await signInAs(emu, 'carol')).access_token}`;
    const refused = await call(emu, carolToken, 'POST', `/invites/${code}`);
    expect([refused.status, refused.json.code]).toEqual([403, 50001]);
    // bob is already a member: he keeps his roles and gains Visitor.
    const bobToken = `Bearer ${(await signInAs(emu, 'bob')).access_token}`;
    expect((await call(emu, bobToken, 'POST', `/invites/${code}`)).status).toBe(200);
    const bobMember = await call(emu, bot, 'GET', `/guilds/${guildId}/members/${bob?.id ?? ''}`);
    expect(bobMember.json.roles).toContain(made.json.id);
    const listed = await call(emu, bot, 'GET', `/channels/${ch.general}/invites`);
    expect(listed.json.map((i) => [i.code, i.uses])).toEqual([[code, 1]]);
    // A role above the bot's own cannot be handed out by an invite.
    const high = await call(emu, bot, 'POST', `/channels/${ch.general}/invites`, { role_ids: [guest.id] });
    expect([high.status, high.json.code]).toEqual([403, 50013]);
    const badCsv = new FormData();
    badCsv.set('target_users_file', new Blob(['user_id\nnot-an-id\n']), 't.csv');
    const bad = await fetch(`${emu.api}/channels/${ch.general}/invites`, {
      method: 'POST',
      headers: { Authorization: bot },
      body: badCsv,
    });
    expect(await bad.json()).toMatchObject({ code: 50035, errors: { target_users_file: {} } });
  });
});

describe('application emoji and message search (bot)', () => {
  it('manages application emoji: unique names, 256 KiB images, and the 2000 limit', async () => {
    // The global rate limit would pace 2000 creations; the limit under test is the count.
    const { emu, bot } = await setUp(VIEW, { rateLimits: 'off' });
    const base = `/applications/${emu.applicationId}/emojis`;
    const png = `data:image/png;base64,${Buffer.alloc(64, 1).toString('base64')}`;
    const made = await call(emu, bot, 'POST', base, { name: 'gg_wp', image: png });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ name: 'gg_wp', animated: false, user: { id: emu.applicationId } });
    const taken = await call(emu, bot, 'POST', base, { name: 'gg_wp', image: png });
    expect(taken.json).toMatchObject({
      code: 50035,
      errors: { name: { _errors: [{ code: 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN' }] } },
    });
    const big = `data:image/gif;base64,${Buffer.alloc(256 * 1024 + 1).toString('base64')}`;
    expect((await call(emu, bot, 'POST', base, { name: 'big', image: big })).json).toMatchObject({
      errors: { image: {} },
    });
    for (let i = 1; i < 2000; i += 1) {
      const r = await call(emu, bot, 'POST', base, { name: `e${i}`, image: png });
      if (r.status !== 201) throw new Error(`emoji ${i}: ${JSON.stringify(r.json)}`);
    }
    const over = await call(emu, bot, 'POST', base, { name: 'one_more', image: png });
    expect([over.status, over.json.code]).toEqual([400, 30008]);
    expect(((await call(emu, bot, 'GET', base)).json as unknown as { items: unknown[] }).items).toHaveLength(
      2000,
    );
  }, 60_000);

  it('answers 110000 until the guild is indexed, then searches what the bot may read', async () => {
    const off = await setUp(VIEW | READ_HISTORY);
    const refused = await call(off.emu, off.bot, 'GET', `/guilds/${off.guildId}/messages/search?content=gg`);
    expect([refused.status, refused.json.code]).toEqual([403, 50001]);
    const { emu, bot, guildId, ch } = await setUp(VIEW | READ_HISTORY, {
      privilegedIntents: ['message_content'],
    });
    emu.postChannelMessage(ch.general ?? '', 'alice', 'gg well played');
    emu.postChannelMessage(ch.lfg ?? '', 'bob', 'gg gg rematch?');
    emu.postChannelMessage(ch.staff ?? '', 'alice', 'gg from the staff room');
    const first = await call(emu, bot, 'GET', `/guilds/${guildId}/messages/search?content=gg`);
    expect([first.status, first.json.code]).toEqual([202, 110000]);
    expect(first.json.retry_after).toBeGreaterThan(0);
    emu.advanceTime(2000);
    const found = await call(
      emu,
      bot,
      'GET',
      `/guilds/${guildId}/messages/search?content=gg&sort_by=relevance`,
    );
    expect(found.status).toBe(200);
    const contents = (found.json.messages as Json[][]).map((group) => group[0]?.content);
    // #staff is not readable by the bot; relevance puts the message with two hits first.
    expect(contents).toEqual(['gg gg rematch?', 'gg well played']);
    const bob = emu.users[1]?.id ?? '';
    const byAuthor = await call(emu, bot, 'GET', `/guilds/${guildId}/messages/search?author_id=${bob}`);
    expect(byAuthor.json.total_results).toBe(1);
  });
});

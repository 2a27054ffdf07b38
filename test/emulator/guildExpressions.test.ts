import { Events, GatewayIntentBits, type GuildEmoji, type Sticker } from 'discord.js';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { discordjsBotAfterEach } from './discordjsHelpers.js';

// Bits written out from the document, not imported from the emulator (see permissionBits.ts).
const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const MANAGE_GUILD_EXPRESSIONS = 1n << 30n;
const CREATE_GUILD_EXPRESSIONS = 1n << 43n;

/** The first bytes of a PNG file: enough for the emulator, which keeps no picture. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(64, 2)]);

describe('guild emoji and stickers (expressions) through discord.js', () => {
  let emu: Emulator | undefined;
  const bot = discordjsBotAfterEach([GatewayIntentBits.Guilds, GatewayIntentBits.GuildExpressions]);

  it('needs CREATE_GUILD_EXPRESSIONS to create, MANAGE_GUILD_EXPRESSIONS for others’ emoji, and sends the events', async () => {
    emu = await bot.start({ users: 2 });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    const guild = await bot.login(emu);

    // The seeded bot holds neither bit: 403 50013.
    await expect(guild.emojis.create({ attachment: PNG, name: 'nope' })).rejects.toMatchObject({
      status: 403,
      code: 50013,
    });
    // MANAGE_GUILD_EXPRESSIONS alone no longer lets a bot create (the document, from 2026-02-23).
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | MANAGE_GUILD_EXPRESSIONS });
    await expect(guild.emojis.create({ attachment: PNG, name: 'nope' })).rejects.toMatchObject({
      code: 50013,
      message: expect.stringContaining('CREATE_GUILD_EXPRESSIONS') as unknown,
    });

    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | CREATE_GUILD_EXPRESSIONS });
    const created = new Promise<GuildEmoji>((resolve) => bot.client?.once(Events.GuildEmojiCreate, resolve));
    const emoji = await guild.emojis.create({ attachment: PNG, name: 'trophy' });
    expect(emoji.name).toBe('trophy');
    expect(emoji.animated).toBe(false);
    expect((await created).id).toBe(emoji.id);
    const animated = await guild.emojis.create({ attachment: GIF, name: 'spinner' });
    expect(animated.animated).toBe(true);
    const fetched = await guild.emojis.fetch();
    expect(fetched.map((e) => e.name).sort()).toEqual(['spinner', 'trophy']);
    expect((await guild.emojis.fetch(emoji.id)).author?.id).toBe(emu.applicationId);

    // Its own: CREATE_GUILD_EXPRESSIONS suffices to rename and delete.
    const renamed = new Promise<GuildEmoji>((resolve) =>
      bot.client?.once(Events.GuildEmojiUpdate, (_old, now) => resolve(now)),
    );
    await emoji.edit({ name: 'cup' });
    expect((await renamed).name).toBe('cup');
    const deleted = new Promise<GuildEmoji>((resolve) => bot.client?.once(Events.GuildEmojiDelete, resolve));
    await animated.delete();
    expect((await deleted).id).toBe(animated.id);

    // alice's emoji: the bot needs MANAGE_GUILD_EXPRESSIONS to touch it.
    const hers = emu.addGuildResource({ guildId: seeded.id, user: 'alice', kind: 'emoji', name: 'alices' });
    const bad = await fetch(`${emu.api}/guilds/${seeded.id}/emojis/${hers}`, {
      method: 'PATCH',
      headers: { Authorization: `Bot ${emu.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'mine_now' }),
    });
    expect(bad.status).toBe(403);
    expect(((await bad.json()) as { code: number }).code).toBe(50013);
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | MANAGE_GUILD_EXPRESSIONS });
    await guild.emojis.delete(hers);
    await expect(guild.emojis.fetch(hers)).rejects.toMatchObject({ status: 404, code: 10014 });

    // Bad input is a 50035 naming each field, never a crash.
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | CREATE_GUILD_EXPRESSIONS });
    const invalid = await fetch(`${emu.api}/guilds/${seeded.id}/emojis`, {
      method: 'POST',
      headers: { Authorization: `Bot ${emu.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'a b', image: 'data:text/plain;base64,AAAA', roles: ['1', seeded.id] }),
    });
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { code: number; errors: Record<string, unknown> };
    expect(body.code).toBe(50035);
    expect(Object.keys(body.errors).sort()).toEqual(['image', 'name', 'roles']);

    // A new session's GUILD_CREATE carries the emoji list.
    await bot.logout();
    const again = await bot.login(emu);
    expect(again.emojis.cache.map((e) => e.name)).toEqual(['cup']);
  });

  it('creates stickers from a multipart file, edits and deletes them, and saves them with the state', async () => {
    emu = await bot.start({ users: 2 });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | CREATE_GUILD_EXPRESSIONS });
    const guild = await bot.login(emu);

    const created = new Promise<Sticker>((resolve) => bot.client?.once(Events.GuildStickerCreate, resolve));
    const sticker = await guild.stickers.create({
      file: { attachment: PNG, name: 'win.png' },
      name: 'victory',
      tags: 'trophy',
      description: 'A win',
    });
    expect(sticker).toMatchObject({ name: 'victory', tags: 'trophy', description: 'A win', format: 1 });
    expect((await created).id).toBe(sticker.id);
    const edited = await sticker.edit({ description: 'A great win' });
    expect(edited.description).toBe('A great win');

    // Not an image: a field error on `file`; a missing file too.
    const form = new FormData();
    form.set('name', 'text');
    form.set('tags', 'x');
    form.set('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    const refused = await fetch(`${emu.api}/guilds/${seeded.id}/stickers`, {
      method: 'POST',
      headers: { Authorization: `Bot ${emu.botToken}` },
      body: form,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('"file"');

    // Limit: five stickers in a guild without boosts, then 30039.
    for (const n of [2, 3, 4, 5]) {
      await guild.stickers.create({
        file: { attachment: PNG, name: 's.png' },
        name: `sticker ${n}`,
        tags: 'x',
      });
    }
    await expect(
      guild.stickers.create({ file: { attachment: PNG, name: 's.png' }, name: 'sixth', tags: 'x' }),
    ).rejects.toMatchObject({ code: 30039 });

    const saved = emu.exportState();
    await bot.logout();
    await emu.close();
    emu = await bot.start({ state: saved, rpc: false });
    const restored = await bot.login(emu);
    expect(restored.stickers.cache.get(sticker.id)?.description).toBe('A great win');
    const deleted = new Promise<Sticker>((resolve) => bot.client?.once(Events.GuildStickerDelete, resolve));
    await restored.stickers.delete(sticker.id);
    expect((await deleted).id).toBe(sticker.id);
    expect((await restored.stickers.fetch()).size).toBe(4);
  });
  it('bounds the emoji: 50 static (30008) and 50 animated (30018) over HTTP, 1000 kept whoever adds them', async () => {
    emu = await bot.start({ users: 2, rateLimits: 'off' });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | CREATE_GUILD_EXPRESSIONS });
    const e = emu;
    const create = async (name: string, image: Buffer, type: string) => {
      const res = await fetch(`${e.api}/guilds/${seeded.id}/emojis`, {
        method: 'POST',
        headers: { Authorization: `Bot ${e.botToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, image: `data:image/${type};base64,${image.toString('base64')}` }),
      });
      return { status: res.status, code: ((await res.json()) as { code?: number }).code };
    };
    for (let n = 0; n < 50; n += 1) expect((await create(`s${n}`, PNG, 'png')).status).toBe(201);
    expect(await create('s50', PNG, 'png')).toEqual({ status: 400, code: 30008 });
    for (let n = 0; n < 50; n += 1) expect((await create(`a${n}`, GIF, 'gif')).status).toBe(201);
    expect(await create('a50', GIF, 'gif')).toEqual({ status: 400, code: 30018 });
    // The admin hook skips the platform's limits, not the store's bound.
    for (let n = 100; n < 1000; n += 1) {
      e.addGuildResource({ guildId: seeded.id, user: 'alice', kind: 'emoji', name: `u${n}` });
    }
    expect(() =>
      e.addGuildResource({ guildId: seeded.id, user: 'alice', kind: 'emoji', name: 'one_more' }),
    ).toThrow(/1000 emojis already/);
  });
});

import {
  Events,
  GatewayIntentBits,
  type GuildSoundboardSound,
  type VoiceChannel,
  type VoiceChannelEffect,
} from 'discord.js';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { discordjsBotAfterEach } from './discordjsHelpers.js';

// Bits written out from the document, not imported from the emulator (see permissionBits.ts).
const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const CONNECT = 1n << 20n;
const SPEAK = 1n << 21n;
const MANAGE_GUILD_EXPRESSIONS = 1n << 30n;
const USE_SOUNDBOARD = 1n << 42n;
const CREATE_GUILD_EXPRESSIONS = 1n << 43n;
const USE_EXTERNAL_SOUNDS = 1n << 45n;

/** An MP3's first bytes (an ID3 header): the emulator checks the data URI, it keeps no audio. */
const MP3 = Buffer.concat([
  Buffer.from('ID3', 'latin1'),
  Buffer.from([3, 0, 0, 0, 0, 0, 0]),
  Buffer.alloc(256, 0xff),
]);

describe('the soundboard over HTTP and the gateway', () => {
  let emu: Emulator | undefined;
  const bot = discordjsBotAfterEach([
    GatewayIntentBits.Guilds,
    GatewayIntentBits.GuildExpressions,
    GatewayIntentBits.GuildVoiceStates,
  ]);

  it('manages guild sounds with the expression bits and sends the sound events', async () => {
    emu = await bot.start({ users: 2 });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    const guild = await bot.login(emu);

    const defaults = await fetch(`${emu.api}/soundboard-default-sounds`, {
      headers: { Authorization: `Bot ${emu.botToken}` },
    });
    const names = ((await defaults.json()) as { name: string; sound_id: string }[]).map((s) => s.name);
    expect(names).toContain('airhorn');

    await expect(
      guild.soundboardSounds.create({ file: MP3, contentType: 'audio/mpeg', name: 'goal' }),
    ).rejects.toMatchObject({ status: 403, code: 50013 });
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | CREATE_GUILD_EXPRESSIONS });
    const created = new Promise<GuildSoundboardSound>((resolve) =>
      bot.client?.once(Events.GuildSoundboardSoundCreate, resolve),
    );
    const sound = await guild.soundboardSounds.create({
      file: MP3,
      contentType: 'audio/mpeg',
      name: 'goal',
      volume: 0.5,
      emojiName: '⚽',
    });
    expect(sound).toMatchObject({ name: 'goal', volume: 0.5, guildId: seeded.id });
    expect((await created).soundId).toBe(sound.soundId);

    // Not audio, too loud, too large: 50035 naming each field.
    const bad = await fetch(`${emu.api}/guilds/${seeded.id}/soundboard-sounds`, {
      method: 'POST',
      headers: { Authorization: `Bot ${emu.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x', sound: 'data:image/png;base64,AAAA', volume: 2 }),
    });
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as { code: number; errors: Record<string, unknown> };
    expect(Object.keys(badBody.errors).sort()).toEqual(['name', 'sound', 'volume']);
    const big = await fetch(`${emu.api}/guilds/${seeded.id}/soundboard-sounds`, {
      method: 'POST',
      headers: { Authorization: `Bot ${emu.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'big',
        sound: `data:audio/ogg;base64,${Buffer.alloc(512 * 1024 + 1).toString('base64')}`,
      }),
    });
    expect(big.status).toBe(400);
    expect(JSON.stringify(await big.json())).toContain('BINARY_TYPE_MAX_SIZE');

    const updated = new Promise<GuildSoundboardSound | null>((resolve) =>
      bot.client?.once(Events.GuildSoundboardSoundUpdate, (_old, now) => resolve(now)),
    );
    await guild.soundboardSounds.edit(sound, { name: 'goooal', volume: 1 });
    expect((await updated)?.name).toBe('goooal');
    const listed = await guild.soundboardSounds.fetch();
    expect(listed.map((s) => s.name)).toEqual(['goooal']);

    // alice's sound needs MANAGE_GUILD_EXPRESSIONS.
    const hers = emu.addGuildResource({ guildId: seeded.id, user: 'alice', kind: 'sound', name: 'boo' });
    await expect(guild.soundboardSounds.delete(hers)).rejects.toMatchObject({ code: 50013 });
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | MANAGE_GUILD_EXPRESSIONS });
    const deleted = new Promise<{ soundId: string }>((resolve) =>
      bot.client?.once(Events.GuildSoundboardSoundDelete, (s) => resolve({ soundId: s.soundId })),
    );
    await guild.soundboardSounds.delete(hers);
    expect((await deleted).soundId).toBe(hers);
    await expect(guild.soundboardSounds.fetch(hers)).rejects.toMatchObject({ status: 404, code: 10097 });

    // Sounds are in GUILD_CREATE and the saved state.
    const saved = emu.exportState();
    await bot.logout();
    await emu.close();
    emu = await bot.start({ state: saved, rpc: false });
    const restored = await bot.login(emu);
    expect(restored.soundboardSounds.cache.map((s) => s.name)).toEqual(['goooal']);
  });

  it('sends a sound in the voice channel the bot is in, with SPEAK and USE_SOUNDBOARD', async () => {
    emu = await bot.start({ users: 2 });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    const voiceId = seeded.channels.find((c) => c.type === 2)?.id ?? '';
    // The seeded voice channel opens CONNECT and SPEAK to everyone; here the bot's role alone decides.
    emu.setChannelOverwrite(voiceId, '@everyone', null);
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | CONNECT | CREATE_GUILD_EXPRESSIONS });
    const guild = await bot.login(emu);
    const sound = await guild.soundboardSounds.create({ file: MP3, contentType: 'audio/mpeg', name: 'horn' });
    const voice = (await guild.channels.fetch(voiceId)) as VoiceChannel;

    // Without SPEAK and USE_SOUNDBOARD: 403 50013 naming both.
    await expect(voice.sendSoundboardSound(sound)).rejects.toMatchObject({
      code: 50013,
      message: expect.stringMatching(/SPEAK.*USE_SOUNDBOARD/) as unknown,
    });
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | CONNECT | SPEAK | USE_SOUNDBOARD });
    // Not in the channel: refused.
    await expect(voice.sendSoundboardSound(sound)).rejects.toMatchObject({ status: 403, code: 50001 });

    emu.setGuildVoiceState(seeded.id, '@bot', voiceId);
    const effect = new Promise<VoiceChannelEffect>((resolve) =>
      bot.client?.once(Events.VoiceChannelEffectSend, resolve),
    );
    await voice.sendSoundboardSound(sound);
    const got = await effect;
    expect(got).toMatchObject({
      channelId: voiceId,
      userId: emu.applicationId,
      soundId: sound.soundId,
      soundVolume: 1,
    });

    // A default sound plays anywhere; an unknown id is 10097.
    await voice.sendSoundboardSound({ soundId: '2' });
    await expect(voice.sendSoundboardSound({ soundId: '999' })).rejects.toMatchObject({ code: 10097 });

    // Another guild's sound needs USE_EXTERNAL_SOUNDS.
    const other = emu.createGuild({ name: 'Other', owner: 'bob' });
    emu.addBotToGuild(other.id, { permissions: VIEW });
    const foreign = emu.addGuildResource({ guildId: other.id, user: 'bob', kind: 'sound', name: 'far' });
    await expect(voice.sendSoundboardSound({ soundId: foreign, guildId: other.id })).rejects.toMatchObject({
      code: 50013,
      message: expect.stringContaining('USE_EXTERNAL_SOUNDS') as unknown,
    });
    emu.addBotToGuild(seeded.id, {
      permissions: VIEW | SEND | CONNECT | SPEAK | USE_SOUNDBOARD | USE_EXTERNAL_SOUNDS,
    });
    await voice.sendSoundboardSound({ soundId: foreign, guildId: other.id });

    // A text channel is no place for sounds.
    const textId = seeded.channels.find((c) => c.name === 'general')?.id ?? '';
    const res = await fetch(`${emu.api}/channels/${textId}/send-soundboard-sound`, {
      method: 'POST',
      headers: { Authorization: `Bot ${emu.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ sound_id: sound.soundId }),
    });
    expect(res.status).toBe(400);
  });
});

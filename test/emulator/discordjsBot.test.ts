import { ChannelType, Events, GatewayIntentBits, type Message, type TextChannel } from 'discord.js';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { discordjsBotAfterEach } from './discordjsHelpers.js';

describe('a discord.js v14 bot against the emulator', () => {
  let emu: Emulator | undefined;
  const bot = discordjsBotAfterEach([
    GatewayIntentBits.Guilds,
    GatewayIntentBits.GuildMessages,
    GatewayIntentBits.MessageContent,
    GatewayIntentBits.GuildMembers,
  ]);

  it('logs in, sees its guild and channels, sends and receives messages', async () => {
    emu = await bot.start({ users: 2, privilegedIntents: ['message_content', 'members'] });
    const client = await bot.connect(emu);
    const guild = client.guilds.cache.first();
    expect(guild?.name).toBe('Emulator Guild');
    expect(guild?.members.cache.size).toBe(3);
    const names = guild?.channels.cache.map((c) => c.name).sort();
    expect(names).toEqual([
      'General',
      'Text Channels',
      'Voice Channels',
      'general',
      'lfg',
      'staff',
      'welcome',
    ]);
    const general = guild?.channels.cache.find((c) => c.name === 'general') as TextChannel;
    expect(general.type).toBe(ChannelType.GuildText);
    const me = client.user;
    if (!me) throw new Error('no client user');
    expect(general.permissionsFor(me)?.has('SendMessages')).toBe(true);

    const sent = await general.send({
      content: 'hello from discord.js',
      embeds: [{ title: 'Score', fields: [{ name: 'alice', value: '3' }] }],
    });
    expect(sent.id).toMatch(/^[0-9]+$/);
    const stored = emu.channelMessages(general.id);
    expect(stored.at(-1)).toMatchObject({ content: 'hello from discord.js', authorId: emu.applicationId });

    const received = new Promise<Message>((resolve) => {
      client.on(Events.MessageCreate, (m) => {
        if (m.author.id !== me.id) resolve(m);
      });
    });
    emu.postChannelMessage(general.id, 'alice', 'hi bot');
    const message = await received;
    expect(message.content).toBe('hi bot');
    expect(message.author.username).toBe('alice');
    expect(message.member?.guild.id).toBe(guild?.id);

    const edited = await sent.edit({ content: 'edited' });
    expect(edited.editedTimestamp).not.toBeNull();
    const fetched = await general.messages.fetch({ limit: 10 });
    expect(fetched.map((m) => m.content)).toEqual(['hi bot', 'edited']);
    await edited.pin();
    const pins = await general.messages.fetchPins();
    expect(pins.items.map((p) => p.message.id)).toEqual([edited.id]);
    await edited.delete();
    expect(emu.channelMessages(general.id).map((m) => m.content)).toEqual(['hi bot']);
  });
});

describe('a discord.js v14 bot and channel obfuscation', () => {
  let emu: Emulator | undefined;
  const bot = discordjsBotAfterEach([GatewayIntentBits.Guilds]);

  it('sees the channel it cannot view obfuscated, then whole once it may view it', async () => {
    emu = await bot.start({ users: 2, channelObfuscation: true });
    const client = await bot.connect(emu);
    const guild = client.guilds.cache.first();
    const staffId = emu.guilds()[0]?.channels.find((c) => c.name === 'staff')?.id ?? '';
    expect(guild?.channels.cache.get(staffId)?.name).toBe('___hidden___');
    const updated = new Promise<string>((resolve) => {
      client.on(Events.ChannelUpdate, (_old, now) => {
        if (now.id === staffId && 'name' in now) resolve(now.name);
      });
    });
    emu.setChannelOverwrite(staffId, '@bot', { allow: 1n << 10n });
    expect(await updated).toBe('staff');
    expect(guild?.channels.cache.get(staffId)?.name).toBe('staff');
  });
});

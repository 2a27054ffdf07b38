import { ChannelType, Client, Events, GatewayIntentBits, type Message, type TextChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';

/** A discord.js v14 client pointed at the emulator (REST and, through GET /gateway/bot, the gateway). */
function botClient(emu: Emulator, intents: GatewayIntentBits[]): Client {
  return new Client({ intents, rest: { api: `${emu.http}/api` } });
}

async function login(client: Client, token: string): Promise<void> {
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(token);
  await ready;
}

describe('a discord.js v14 bot against the emulator', () => {
  let emu: Emulator | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.destroy();
    await emu?.close();
    client = undefined;
    emu = undefined;
  });

  it('logs in, sees its guild and channels, sends and receives messages', async () => {
    emu = await startEmulator({ users: 2, privilegedIntents: ['message_content', 'members'] });
    client = botClient(emu, [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.MessageContent,
      GatewayIntentBits.GuildMembers,
    ]);
    await login(client, emu.botToken);
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
      client?.on(Events.MessageCreate, (m) => {
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
  let client: Client | undefined;
  afterEach(async () => {
    await client?.destroy();
    await emu?.close();
  });

  it('sees the channel it cannot view obfuscated, then whole once it may view it', async () => {
    emu = await startEmulator({ users: 2, channelObfuscation: true });
    client = botClient(emu, [GatewayIntentBits.Guilds]);
    await login(client, emu.botToken);
    const guild = client.guilds.cache.first();
    const staffId = emu.guilds()[0]?.channels.find((c) => c.name === 'staff')?.id ?? '';
    expect(guild?.channels.cache.get(staffId)?.name).toBe('___hidden___');
    const updated = new Promise<string>((resolve) => {
      client?.on(Events.ChannelUpdate, (_old, now) => {
        if (now.id === staffId && 'name' in now) resolve(now.name);
      });
    });
    emu.setChannelOverwrite(staffId, '@bot', { allow: 1n << 10n });
    expect(await updated).toBe('staff');
    expect(guild?.channels.cache.get(staffId)?.name).toBe('staff');
  });
});

import {
  ActionRowBuilder,
  ApplicationIntegrationType,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  type Interaction,
} from 'discord.js';
import { describe, expect, it } from 'vitest';

import { findHook } from '../../packages/emulator/src/hooks/index.js';
import { checkHookArgs } from '../../packages/emulator/src/hooks/hook.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { call, closeAfterEach, loggedEmulator, until, withCommand } from './lobbyHelpers.js';
import { ATTACH, EMBED_LINKS, READ_HISTORY, SEND, VIEW } from './permissionBits.js';
import { verifyingEndpoint } from './verifyingEndpoint.js';

const { running, cleanups } = closeAfterEach();

// The document's app_permissions in DMs, written out: with other users ATTACH_FILES, EMBED_LINKS and
// MENTION_EVERYONE besides seeing and writing; in the DM with the app's bot also USE_EXTERNAL_EMOJIS.
const MENTION_EVERYONE = 1n << 17n;
const USE_EXTERNAL_EMOJIS = 1n << 18n;
const DM_SET = VIEW | SEND | READ_HISTORY | ATTACH | EMBED_LINKS | MENTION_EVERYONE;
const BOT_DM_SET = DM_SET | USE_EXTERNAL_EMOJIS;

function idOf(emu: Emulator, name: string): string {
  return emu.users.find((u) => u.username === name)?.id ?? '';
}

function general(emu: Emulator): string {
  return emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
}

/** An emulator with alice, bob, carol and dave, and an interactions endpoint that records what it gets. */
async function withEndpoint(body: Record<string, unknown> = {}) {
  const { emu } = await loggedEmulator(running, { users: 4 });
  await withCommand(emu, body);
  const endpoint = await verifyingEndpoint(() => emu.applicationPublicKey);
  cleanups.push(() => void endpoint.close());
  await emu.setInteractionsEndpointUrl(endpoint.url);
  const last = (): Record<string, unknown> => endpoint.received.at(-1)?.body ?? {};
  return { emu, endpoint, last };
}

describe('interaction contexts of a user-installed app', () => {
  it('carries context, authorizing_integration_owners and the DM app_permissions in DMs and group DMs', async () => {
    const { emu, last } = await withEndpoint({ integration_types: [0, 1], contexts: [0, 1, 2] });
    const alice = idOf(emu, 'alice');

    const inDm = await emu.invokeCommand({
      user: 'alice',
      command: 'score',
      dm: 'bob',
      installation: 'user',
    });
    expect(inDm.context).toBe(2);
    expect(inDm.channelId).toBeNull();
    const dm = last();
    expect(dm).toMatchObject({
      context: 2,
      authorizing_integration_owners: { 1: alice },
      app_permissions: DM_SET.toString(),
      user: { id: alice },
      channel: { type: 1, recipients: [{ id: idOf(emu, 'bob') }] },
    });
    expect(dm).not.toHaveProperty('guild_id');
    expect(dm).not.toHaveProperty('member');
    expect(dm.channel_id).toBe((dm.channel as { id: string }).id);
    // The same two people meet in the same DM, whoever invokes.
    await emu.invokeCommand({ user: 'bob', command: 'score', dm: 'alice', installation: 'user' });
    expect((last().channel as { id: string }).id).toBe((dm.channel as { id: string }).id);
    expect(last().authorizing_integration_owners).toEqual({ 1: idOf(emu, 'bob') });

    const inGroup = await emu.invokeCommand({
      user: 'alice',
      command: 'score',
      groupDm: ['bob', 'carol'],
      installation: 'user',
    });
    expect(inGroup.context).toBe(2);
    expect(last()).toMatchObject({
      context: 2,
      authorizing_integration_owners: { 1: alice },
      app_permissions: DM_SET.toString(),
      channel: { type: 3, owner_id: alice, recipients: [{ username: 'bob' }, { username: 'carol' }] },
    });
    // The endpoint's reply lands in the group DM, for the invoking user (the emulator keeps no group DMs).
    const reply = await inGroup.response();
    expect(reply).toMatchObject({ type: 4 });
    expect(emu.interactions().find((i) => i.id === inGroup.id)?.privateMessages[0]?.content).toBe('verified');

    const inBotDm = await emu.invokeCommand({ user: 'alice', command: 'score', installation: 'user' });
    expect(inBotDm.context).toBe(1);
    expect(last()).toMatchObject({
      context: 1,
      authorizing_integration_owners: { 1: alice },
      app_permissions: BOT_DM_SET.toString(),
      channel: { type: 1, recipients: [{ id: alice }] },
    });

    await emu.invokeCommand({ user: 'alice', command: 'score', channel: general(emu) });
    expect(last()).toMatchObject({
      context: 0,
      authorizing_integration_owners: { 0: emu.guilds()[0]?.id },
      guild_id: emu.guilds()[0]?.id,
    });
    expect(typeof last().app_permissions).toBe('string');
  });

  it('enforces each command’s contexts and integration types, and where a guild install reaches', async () => {
    const { emu } = await withEndpoint({ integration_types: [1], contexts: [2] });
    await withCommand(emu, { name: 'guildonly', integration_types: [0], contexts: [0, 1, 2] });
    await withCommand(emu, { name: 'botdm', integration_types: [0, 1], contexts: [1] });
    const invoke = (options: Partial<Parameters<Emulator['invokeCommand']>[0]>) =>
      emu.invokeCommand({ user: 'alice', command: 'score', installation: 'user', ...options });

    // /score: user installs, PRIVATE_CHANNEL only.
    await expect(invoke({ dm: 'bob' })).resolves.toMatchObject({ context: 2 });
    await expect(invoke({})).rejects.toThrow(/not available in this context \(BOT_DM\)/);
    await expect(invoke({ channel: general(emu) })).rejects.toThrow(
      /not available in this context \(GUILD\)/,
    );
    await expect(invoke({ command: 'guildonly', channel: general(emu) })).rejects.toThrow(
      /not available to user-installed apps/,
    );
    await expect(
      invoke({ command: 'guildonly', channel: general(emu), installation: 'guild' }),
    ).resolves.toMatchObject({ context: 0 });
    // /guildonly: a guild install is never in other users' DMs; as a user install the command is not there.
    await expect(invoke({ command: 'guildonly', dm: 'bob', installation: 'guild' })).rejects.toThrow(
      /only a user-installed app/,
    );
    await expect(invoke({ command: 'guildonly', groupDm: ['bob', 'carol'] })).rejects.toThrow(
      /not available to user-installed apps/,
    );
    // /botdm: the bot DM only.
    await expect(invoke({ command: 'botdm' })).resolves.toMatchObject({ context: 1 });
    await expect(invoke({ command: 'botdm', groupDm: ['bob', 'carol'] })).rejects.toThrow(/PRIVATE_CHANNEL/);
    // Places that do not exist.
    await expect(invoke({ groupDm: ['bob'] })).rejects.toThrow(/group DM holds 3–10 users/);
    await expect(invoke({ dm: 'alice' })).rejects.toThrow(/with another user/);
    await expect(invoke({ dm: 'nobody' })).rejects.toThrow(/no user/);
    await expect(invoke({ dm: 'bob', channel: general(emu) })).rejects.toThrow(/one place/);

    // The admin hook takes the same places.
    const hook = findHook('invokeCommand');
    if (!hook) throw new Error('no invokeCommand hook');
    expect(checkHookArgs(hook, { user: 'alice', command: 'score', groupDm: ['bob'] })).toMatchObject({
      ok: false,
    });
    const args = checkHookArgs(hook, {
      user: 'alice',
      command: 'score',
      groupDm: ['bob', 'carol', 'dave'],
      installation: 'user',
    });
    if (!args.ok) throw new Error(args.problems.join('; '));
    await expect(hook.run(emu, args.args)).resolves.toMatchObject({ context: 2 });
    const botDm = checkHookArgs(hook, { user: 'bob', command: 'botdm', installation: 'user' });
    if (!botDm.ok) throw new Error(botDm.problems.join('; '));
    await expect(hook.run(emu, botDm.args)).resolves.toMatchObject({ context: 1 });
  });

  it('resolves channel options with the user’s permissions, and app_permissions where the bot is', async () => {
    const { emu, last } = await withEndpoint({
      options: [{ type: 7, name: 'where', description: 'A channel', required: true }],
    });
    const channel = general(emu);
    await emu.invokeCommand({ user: 'alice', command: 'score', channel, options: { where: channel } });
    const resolved = (last().data as { resolved: { channels: Record<string, Record<string, unknown>> } })
      .resolved;
    expect(resolved.channels[channel]).toMatchObject({ id: channel, name: 'general', type: 0 });
    expect(typeof resolved.channels[channel]?.permissions).toBe('string');
    expect(typeof resolved.channels[channel]?.app_permissions).toBe('string');

    // A guild without the bot: the user-installed app sees the user's permissions there, and no app_permissions.
    const botless = emu.createGuild({ name: 'Botless', owner: 'bob', members: ['alice'] });
    const other = botless.channels[0]?.id ?? '';
    await emu.invokeCommand({
      user: 'alice',
      command: 'score',
      channel: other,
      installation: 'user',
      options: { where: other },
    });
    const there = (last().data as { resolved: { channels: Record<string, Record<string, unknown>> } })
      .resolved.channels[other];
    expect(there).toMatchObject({ id: other });
    expect(BigInt(String(there?.permissions)) & VIEW).toBe(VIEW);
    expect(there).not.toHaveProperty('app_permissions');
  });
});

describe('a discord.js v14 bot used as a user-installed app in a group DM', () => {
  it('reads context, authorizing integration owners and app permissions, and answers', async () => {
    const { emu } = await loggedEmulator(running, { users: 3 });
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${emu.http}/api` } });
    cleanups.push(() => void client.destroy());
    const seen: Record<string, unknown>[] = [];
    const urls: string[] = [];
    const clicks: (InteractionContextType | null)[] = [];
    client.on(Events.InteractionCreate, (interaction: Interaction) => {
      if (interaction.isButton()) {
        clicks.push(interaction.context);
        void interaction.update({ content: 'rolled again' });
        return;
      }
      if (!interaction.isChatInputCommand()) return;
      seen.push({
        context: interaction.context,
        owner: interaction.authorizingIntegrationOwners[ApplicationIntegrationType.UserInstall],
        attach: interaction.appPermissions.has(PermissionFlagsBits.AttachFiles),
        emojis: interaction.appPermissions.has(PermissionFlagsBits.UseExternalEmojis),
        guild: interaction.guildId,
      });
      void interaction
        .reply({
          content: 'from the group DM',
          flags: MessageFlags.Ephemeral,
          files: [new AttachmentBuilder(Buffer.from('d6: 4'), { name: 'roll.txt' })],
          components: [
            new ActionRowBuilder<ButtonBuilder>().addComponents(
              new ButtonBuilder().setCustomId('again').setLabel('Again').setStyle(ButtonStyle.Primary),
            ),
          ],
          withResponse: true,
        })
        .then((answer) => {
          urls.push(answer.resource?.message?.attachments.first()?.url ?? '');
        });
    });
    await client.login(emu.botToken);
    await new Promise<void>((resolve) => {
      if (client.isReady()) resolve();
      else client.once(Events.ClientReady, () => resolve());
    });
    const made = await client.application?.commands.create({
      name: 'roll',
      description: 'Roll a die',
      integrationTypes: [ApplicationIntegrationType.UserInstall],
      contexts: [InteractionContextType.PrivateChannel, InteractionContextType.BotDM],
    });
    expect(made?.contexts).toEqual([InteractionContextType.PrivateChannel, InteractionContextType.BotDM]);
    const invoked = await emu.invokeCommand({
      user: 'alice',
      command: 'roll',
      groupDm: ['bob', 'carol'],
      installation: 'user',
    });
    const answer = await invoked.response();
    expect(answer).toMatchObject({ type: 4 });
    expect(seen).toEqual([
      {
        context: InteractionContextType.PrivateChannel,
        owner: idOf(emu, 'alice'),
        attach: true,
        emojis: false,
        guild: null,
      },
    ]);
    // The ephemeral reply's file answers at its url, though no channel holds the message.
    await until(() => urls.length > 0, 'the reply with its file');
    expect(urls[0]).toMatch(/\/roll\.txt$/);
    expect(await (await fetch(urls[0] ?? '')).text()).toBe('d6: 4');
    // A click on the reply's button happens in the same group DM.
    const click = await emu.clickComponent({
      user: 'alice',
      message: answer.message?.id ?? '',
      customId: 'again',
    });
    expect(click.context).toBe(2);
    expect((await click.response()).message).toMatchObject({ content: 'rolled again' });
    expect(clicks).toEqual([InteractionContextType.PrivateChannel]);
    // Over plain HTTP the command shows what discord.js registered.
    const listed = await call<Record<string, unknown>[]>(
      emu,
      `Bot ${emu.botToken}`,
      'GET',
      `/applications/${emu.applicationId}/commands`,
    );
    expect(listed.json.find((c) => c.name === 'roll')).toMatchObject({
      integration_types: [1],
      contexts: [2, 1],
    });
  });
});

import {
  ActionRowBuilder,
  ApplicationCommandOptionType,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator, type EmulatorInteraction } from '../../packages/emulator/src/index.js';

/** Polls the emulator's interaction list until `done` holds for the interaction (bounded). */
async function settle(
  emu: Emulator,
  id: string,
  done: (i: EmulatorInteraction) => boolean,
): Promise<EmulatorInteraction> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = emu.interactions().find((i) => i.id === id);
    if (found && done(found)) return found;
    if (Date.now() > deadline) throw new Error(`interaction ${id} did not settle: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a discord.js v14 bot answering interactions from the emulator', () => {
  let emu: Emulator | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.destroy();
    await emu?.close();
  });

  it('registers a slash command and answers it with a button, then a modal, then an ephemeral reply', async () => {
    emu = await startEmulator({ users: 2 });
    const guild = emu.guilds()[0];
    const general = guild?.channels.find((c) => c.name === 'general')?.id ?? '';
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${emu.http}/api` } });
    const seen: string[] = [];
    client.on(Events.InteractionCreate, (interaction: Interaction) => {
      void (async () => {
        if (interaction.isChatInputCommand()) {
          seen.push(
            `command ${interaction.commandName} ${interaction.options.getUser('rival')?.username ?? ''}`,
          );
          await interaction.reply({
            content: `${interaction.user.username} challenges ${interaction.options.getUser('rival')?.username ?? ''}`,
            components: [
              new ActionRowBuilder<ButtonBuilder>().addComponents(
                new ButtonBuilder().setCustomId('accept').setLabel('Accept').setStyle(ButtonStyle.Primary),
              ),
            ],
          });
        } else if (interaction.isButton()) {
          seen.push(`button ${interaction.customId} ${interaction.message.content}`);
          await interaction.showModal(
            new ModalBuilder()
              .setCustomId('terms')
              .setTitle('Duel terms')
              .addLabelComponents(
                new LabelBuilder()
                  .setLabel('Stake')
                  .setTextInputComponent(
                    new TextInputBuilder().setCustomId('stake').setStyle(TextInputStyle.Short),
                  ),
              ),
          );
        } else if (interaction.isModalSubmit()) {
          seen.push(`modal ${interaction.fields.getTextInputValue('stake')}`);
          await interaction.reply({ content: 'Accepted', flags: MessageFlags.Ephemeral });
        }
      })();
    });
    const ready = new Promise<void>((resolve) => client?.once(Events.ClientReady, () => resolve()));
    await client.login(emu.botToken);
    await ready;
    await client.application?.commands.create({
      name: 'duel',
      description: 'Challenge someone',
      options: [
        { type: ApplicationCommandOptionType.User, name: 'rival', description: 'who', required: true },
      ],
    });

    const bob = emu.users[1]?.id ?? '';
    const invoked = await emu.invokeCommand({
      user: 'alice',
      command: 'duel',
      channel: general,
      options: { rival: bob },
    });
    expect(invoked.delivery).toBe('gateway');
    const answered = await settle(emu, invoked.id, (i) => i.originalMessageId !== null);
    expect(answered.responseType).toBe(4);
    const message = emu.channelMessages(general).find((m) => m.id === answered.originalMessageId);
    expect(message?.content).toBe('alice challenges bob');

    const click = await emu.clickComponent({
      user: 'bob',
      message: answered.originalMessageId ?? '',
      customId: 'accept',
    });
    const modal = await settle(emu, click.id, (i) => i.modal !== null);
    expect(modal.modal).toMatchObject({ customId: 'terms', title: 'Duel terms' });
    await expect(emu.submitModal({ user: 'bob', interaction: click.id, values: {} })).rejects.toThrow(
      '"stake" is required',
    );
    const submit = await emu.submitModal({
      user: 'bob',
      interaction: click.id,
      values: { stake: '50 gold' },
    });
    const done = await settle(emu, submit.id, (i) => i.responseType !== null);
    expect(done.privateMessages).toEqual([
      { id: expect.any(String) as string, content: 'Accepted', flags: 64 },
    ]);
    expect(seen).toEqual(['command duel bob', 'button accept alice challenges bob', 'modal 50 gold']);
    // The ephemeral reply is bob's alone: not in the channel.
    expect(emu.channelMessages(general).map((m) => m.content)).toEqual(['alice challenges bob']);
  });
});

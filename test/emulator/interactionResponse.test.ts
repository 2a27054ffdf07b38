/**
 * `response()` on what invokeCommand, clickComponent and submitModal return: a test awaits the app's answer
 * (the message with its components, the modal, a deferred response once edited) instead of polling
 * `interactions()`, and a wait that cannot end well rejects with a typed InteractionResponseError.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  ActionRowBuilder,
  ApplicationCommandOptionType,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  LabelBuilder,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import {
  InteractionResponseError,
  startEmulator,
  type Emulator,
  type EmulatorInvocation,
} from '../../packages/emulator/src/index.js';

let emu: Emulator | undefined;
let bot: Client | undefined;
let server: Server | undefined;
afterEach(async () => {
  await bot?.destroy();
  bot = undefined;
  server?.closeAllConnections();
  server?.close();
  server = undefined;
  await emu?.close();
  emu = undefined;
});

function general(emulator: Emulator): string {
  return emulator.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
}

/** A discord.js bot logged in to the emulator, answering with `handle`; resolves once it is ready. */
async function discordBot(
  emulator: Emulator,
  handle: (interaction: Interaction) => Promise<void>,
): Promise<Client> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${emulator.http}/api` } });
  client.on(Events.InteractionCreate, (interaction) => {
    void handle(interaction);
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(emulator.botToken);
  await ready;
  return client;
}

/** Registers a global chat input command over the API, as the bot would. */
async function register(emulator: Emulator, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${emulator.api}/applications/${emulator.applicationId}/commands`, {
    method: 'POST',
    headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
}

/** The rejection of `response()`, which must be an InteractionResponseError, and how long it took. */
async function failureOf(
  invocation: EmulatorInvocation,
  options?: { timeoutMs?: number },
): Promise<{ error: InteractionResponseError; ms: number }> {
  const started = Date.now();
  const error = await invocation.response(options).then(
    () => {
      throw new Error('response() resolved');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InteractionResponseError);
  return { error: error as InteractionResponseError, ms: Date.now() - started };
}

describe('awaiting the app’s response to an interaction', () => {
  it('walks slash command → button → modal → deferred reply without polling', async () => {
    emu = await startEmulator({ users: 2 });
    const channel = general(emu);
    let answeredAt = 0;
    bot = await discordBot(emu, async (interaction) => {
      if (interaction.isChatInputCommand()) {
        const rival = interaction.options.getUser('rival')?.username ?? '';
        await interaction.reply({
          content: `${interaction.user.username} challenges ${rival}`,
          components: [
            new ActionRowBuilder<ButtonBuilder>().addComponents(
              new ButtonBuilder().setCustomId('accept').setLabel('Accept').setStyle(ButtonStyle.Primary),
            ),
          ],
        });
      } else if (interaction.isButton()) {
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
        // Deferred, then edited a moment later: what the response produced is the edit.
        await interaction.deferReply();
        await new Promise((resolve) => setTimeout(resolve, 300));
        answeredAt = Date.now();
        await interaction.editReply(`The duel is on for ${interaction.fields.getTextInputValue('stake')}`);
      }
    });
    await register(emu, {
      name: 'duel',
      description: 'Challenge someone',
      options: [
        { type: ApplicationCommandOptionType.User, name: 'rival', description: 'who', required: true },
      ],
    });

    const duel = await emu.invokeCommand({
      user: 'alice',
      command: 'duel',
      channel,
      options: { rival: emu.users[1]?.id ?? '' },
    });
    expect(duel.delivery).toBe('gateway');
    expect(duel.responseType).toBeNull(); // delivered, not yet answered
    const challenge = await duel.response();
    expect(challenge.type).toBe(4);
    expect(challenge.modal).toBeNull();
    expect(challenge.message).toMatchObject({
      channelId: channel,
      content: 'alice challenges bob',
      private: false,
      components: [{ type: 1, components: [{ type: 2, custom_id: 'accept', label: 'Accept' }] }],
    });
    expect(challenge.interaction.originalMessageId).toBe(challenge.message?.id);

    const click = await emu.clickComponent({
      user: 'bob',
      message: challenge.message?.id ?? '',
      customId: 'accept',
    });
    const terms = await click.response();
    expect(terms.type).toBe(9);
    expect(terms.message).toBeNull();
    expect(terms.modal).toMatchObject({ customId: 'terms', title: 'Duel terms' });

    const submit = await emu.submitModal({
      user: 'bob',
      interaction: click.id,
      values: { stake: '50 gold' },
    });
    const reply = await submit.response();
    // Resolved by the edit, not by the "thinking…" placeholder the deferral made 300 ms before it.
    expect(answeredAt).toBeGreaterThan(0);
    expect(Date.now()).toBeGreaterThanOrEqual(answeredAt);
    expect(reply.type).toBe(5);
    expect(reply.message?.content).toBe('The duel is on for 50 gold');
    expect((reply.message?.flags ?? 0) & (1 << 7)).toBe(0);
    expect(emu.channelMessages(channel).map((m) => m.content)).toEqual([
      'alice challenges bob',
      'The duel is on for 50 gold',
    ]);
    // The invocation stays plain data: response() is not among its fields.
    expect(Object.keys(submit)).not.toContain('response');
    expect(typeof submit.response).toBe('function');
    expect(JSON.parse(JSON.stringify(submit))).toEqual({ ...submit });
  });

  it('resolves at once when an interactions endpoint already answered, with the updated message of a click', async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const interaction = JSON.parse(text) as { type: number; data: { custom_id?: string } };
        const answer =
          interaction.type === 1
            ? { type: 1 }
            : interaction.type === 2
              ? {
                  type: 4,
                  data: {
                    content: 'Pick a side',
                    components: [
                      { type: 1, components: [{ type: 2, style: 1, custom_id: 'red', label: 'Red' }] },
                    ],
                  },
                }
              : {
                  type: 7,
                  data: { content: `You picked ${interaction.data.custom_id ?? ''}`, components: [] },
                };
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    emu = await startEmulator({ users: 2, interactionsEndpointUrl: await endpointOf(server) });
    await register(emu, { name: 'side', description: 'Pick a side' });

    const side = await emu.invokeCommand({ user: 'alice', command: 'side', channel: general(emu) });
    expect(side.responseType).toBe(4); // the endpoint's answer is the response
    const { message } = await side.response();
    expect(message?.content).toBe('Pick a side');
    const click = await emu.clickComponent({ user: 'alice', message: message?.id ?? '', customId: 'red' });
    const updated = await click.response();
    expect(updated.type).toBe(7);
    expect(updated.message).toMatchObject({ id: message?.id, content: 'You picked red', components: [] });
  });

  it('rejects with no_response when the 3 s window closes unanswered, and timeout when an edit never comes', async () => {
    emu = await startEmulator({ users: 1 });
    const deferred = new Set<string>();
    bot = await discordBot(emu, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      // "silent" is never answered; "slow" is deferred and never edited.
      if (interaction.commandName === 'slow') {
        await interaction.deferReply();
        deferred.add(interaction.id);
      }
    });
    await register(emu, { name: 'silent', description: 'Never answered' });
    await register(emu, { name: 'slow', description: 'Deferred forever' });
    const channel = general(emu);

    const slow = await emu.invokeCommand({ user: 'alice', command: 'slow', channel });
    const late = await failureOf(slow, { timeoutMs: 400 });
    expect(late.error.reason).toBe('timeout');
    expect(late.error.message).toContain("the edit of the app's deferred response");
    expect(late.ms).toBeGreaterThanOrEqual(390);
    expect(late.ms).toBeLessThan(1500);
    expect(deferred.has(slow.id)).toBe(true);
    expect(late.error.interaction?.responseType).toBe(5);

    const silent = await emu.invokeCommand({ user: 'alice', command: 'silent', channel });
    const none = await failureOf(silent);
    expect(none.error.reason).toBe('no_response');
    expect(none.error.interactionId).toBe(silent.id);
    expect(none.error.message).toContain('within 3 s');
    // The platform's window, not the 4 s default limit, ended it.
    expect(none.ms).toBeGreaterThan(2500);
    expect(none.ms).toBeLessThan(3800);

    await expect(silent.response({ timeoutMs: 0 })).rejects.toThrow(RangeError);
  }, 15_000);

  it('rejects at once with not_delivered without a bot, and bad_response for an endpoint that fails', async () => {
    emu = await startEmulator({ users: 1 });
    await register(emu, { name: 'ping', description: 'Ping' });
    const lonely = await emu.invokeCommand({ user: 'alice', command: 'ping', channel: general(emu) });
    const missed = await failureOf(lonely);
    expect(missed.error.reason).toBe('not_delivered');
    expect(missed.error.message).toContain('no bot session and no interactions endpoint URL');
    expect(missed.ms).toBeLessThan(200);

    server = createServer((_req, res) => res.writeHead(500).end('broken'));
    await emu.close();
    // Given at start, the endpoint is not checked with a PING (as with the command's --interactions-url).
    emu = await startEmulator({ users: 1, interactionsEndpointUrl: await endpointOf(server) });
    await register(emu, { name: 'ping', description: 'Ping' });
    const broken = await emu.invokeCommand({ user: 'alice', command: 'ping', channel: general(emu) });
    const refused = await failureOf(broken);
    expect(refused.error.reason).toBe('bad_response');
    expect(refused.error.message).toContain('http 500');
  });
});

/** Listens on a free loopback port; resolves with the server's URL. */
async function endpointOf(listener: Server): Promise<string> {
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(listener.address() as AddressInfo).port}/`;
}

import path from 'node:path';
import { tmpdir } from 'node:os';

import { describe, expect, it } from 'vitest';

import { GameBackend } from '../../packages/sdkpp/src/backend/index.js';
import {
  AbortedError,
  AdditionalContentType,
  AuthenticationExternalAuthType,
  AuthorizationTokenType,
  DisclosureType,
  ValidationError,
  type Client,
  type MessageHandle,
} from '../../packages/sdkpp/src/index.js';
import { RpcError } from '../../packages/sdkpp/src/rpc/IpcTransport.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import {
  allLogLines,
  allSecrets,
  clientFor,
  emulatorFor,
  eventually,
  linkAndConnect,
  userAt,
} from './helpers.js';

/** VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY. */
const BOT_PERMISSIONS = (1n << 10n) | (1n << 11n) | (1n << 14n) | (1n << 15n) | (1n << 16n);

/** The messages a client announces, by id, as they arrive. */
function collect(client: Client): string[] {
  const ids: string[] = [];
  client.on('messageCreated', (id) => ids.push(id));
  return ids;
}

/** The first announced message that matches, once it arrived. */
async function arrived(
  client: Client,
  ids: string[],
  match: (m: MessageHandle) => boolean,
  what: string,
): Promise<MessageHandle> {
  let found: MessageHandle | undefined;
  await eventually(
    () => {
      found = ids.map((id) => client.getMessageHandle(id)).find((m) => m !== undefined && match(m));
      return found !== undefined;
    },
    5000,
    what,
  );
  if (!found) throw new Error(what);
  return found;
}

/** A lobby with Alice (who may link) and Bob, linked to #general; resolves with the lobby and channel ids. */
async function linkedLobby(
  emulator: Emulator,
  alice: Client,
  bob: Client,
): Promise<{ lobbyId: string; channelId: string; guildId: string }> {
  const backend = new GameBackend({
    botToken: emulator.botToken,
    apiBase: emulator.api,
    logCallback: (line) => allLogLines.push(line),
  });
  const aliceId = alice.getCurrentUser()?.id ?? '';
  const bobId = bob.getCurrentUser()?.id ?? '';
  const lobby = await backend.createLobby({ members: [{ id: aliceId, canLinkLobby: true }, { id: bobId }] });
  const guild = emulator.guilds()[0];
  const general = guild?.channels.find((c) => c.name === 'general');
  if (!guild || !general) throw new Error('no seeded #general');
  await backend.linkChannel(lobby.id, general.id);
  await eventually(() => alice.getLobbyHandle(lobby.id)?.linkedChannel !== null, 5000, 'the link at Alice');
  await eventually(() => bob.getLobbyHandle(lobby.id)?.linkedChannel !== null, 5000, 'the link at Bob');
  return { lobbyId: lobby.id, channelId: general.id, guildId: guild.id };
}

/** The game's bot posts in a channel over the real HTTP API (multipart when there are files). */
async function botPost(
  emulator: Emulator,
  channelId: string,
  json: Record<string, unknown>,
  files: { name: string; bytes: string }[] = [],
): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.append(
    'payload_json',
    JSON.stringify({ ...json, attachments: files.map((f, i) => ({ id: i, filename: f.name })) }),
  );
  files.forEach((f, i) => {
    form.append(`files[${i}]`, new Blob([f.bytes], { type: 'image/png' }), f.name);
  });
  const response = await fetch(`${emulator.api}/channels/${channelId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bot ${emulator.botToken}` },
    body: form,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

function localClientOption(emulator: Emulator): Parameters<typeof clientFor>[1] {
  return {
    localClient: {
      socketPaths: () => [
        path.join(tmpdir(), 'sdkpp-no-such-dir', 'discord-ipc-0'),
        emulator.rpcSocket ?? '',
      ],
      reconnectDelayMs: () => 50,
    },
  };
}

describe('chat: what the game cannot render, and the desktop client', () => {
  it('summarises the non-text content of messages sent from Discord as additionalContent', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    // Friends: each knows the other is a full account.
    emulator.befriend(userAt(emulator, 0).id, userAt(emulator, 1).id);
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const ids = collect(alice.client);

    // Direct messages written in the Discord client.
    emulator.sendDirectMessageFromDiscord('bob', 'alice', 'holiday pics', {
      attachments: ['a.png', 'b.png'],
    });
    const pics = await arrived(alice.client, ids, (m) => m.content === 'holiday pics', 'the pictures');
    expect(pics.sentFromGame).toBe(false);
    expect(pics.applicationId).toBeNull();
    expect(pics.additionalContent).toEqual({ type: AdditionalContentType.Attachment, title: null, count: 2 });

    emulator.sendDirectMessageFromDiscord('bob', 'alice', '', { poll: 'Which map tonight?' });
    const poll = await arrived(alice.client, ids, (m) => m.additionalContent?.type === 2, 'the poll');
    expect(poll.content).toBe('');
    expect(poll.additionalContent).toEqual({
      type: AdditionalContentType.Poll,
      title: 'Which map tonight?',
      count: 1,
    });

    emulator.sendDirectMessageFromDiscord('bob', 'alice', '', { voiceMessage: true });
    const voice = await arrived(
      alice.client,
      ids,
      (m) => m.additionalContent?.type === 3,
      'the voice message',
    );
    expect(voice.additionalContent).toEqual({
      type: AdditionalContentType.VoiceMessage,
      title: null,
      count: 1,
    });

    emulator.sendDirectMessageFromDiscord('bob', 'alice', 'gg', { stickers: ['wave', 'party'] });
    const stickers = await arrived(alice.client, ids, (m) => m.content === 'gg', 'the stickers');
    expect(stickers.additionalContent).toEqual({
      type: AdditionalContentType.Sticker,
      title: null,
      count: 2,
    });

    emulator.sendDirectMessageFromDiscord('bob', 'alice', 'just text');
    const text = await arrived(alice.client, ids, (m) => m.content === 'just text', 'the text');
    expect(text.additionalContent).toBeNull();
    expect(text.disclosureType).toBeNull();
    // The sender's own game sees the same summary.
    expect(bob.client.getMessageHandle(pics.id)?.additionalContent?.count).toBe(2);

    // Messages in the linked channel: the bot over the real HTTP API, and a chat-app user.
    const { lobbyId, channelId, guildId } = await linkedLobby(emulator, alice.client, bob.client);
    emulator.addBotToGuild(guildId, { permissions: BOT_PERMISSIONS });
    await botPost(emulator, channelId, { content: 'patch notes', embeds: [{ title: 'v1.2' }] }, [
      { name: 'one.png', bytes: 'png-1' },
      { name: 'two.png', bytes: 'png-2' },
    ]);
    const notes = await arrived(alice.client, ids, (m) => m.content === 'patch notes', 'the bot post');
    expect(notes.lobbyId).toBe(lobbyId);
    expect(notes.sentFromGame).toBe(false);
    // Two kinds at once: Other, counting every piece.
    expect(notes.additionalContent).toEqual({ type: AdditionalContentType.Other, title: null, count: 3 });
    await botPost(emulator, channelId, { embeds: [{ title: 'a' }, { title: 'b' }] });
    const embeds = await arrived(alice.client, ids, (m) => m.additionalContent?.type === 5, 'the embeds');
    expect(embeds.additionalContent).toEqual({ type: AdditionalContentType.Embed, title: null, count: 2 });

    emulator.postChannelMessage(channelId, 'bob', 'who is in?', { thread: 'Raid on Friday' });
    const thread = await arrived(alice.client, ids, (m) => m.content === 'who is in?', 'the thread start');
    expect(thread.additionalContent).toEqual({
      type: AdditionalContentType.Thread,
      title: 'Raid on Friday',
      count: 1,
    });
    emulator.postChannelMessage(channelId, 'bob', '', { poll: 'Start at 8?' });
    const lobbyPoll = await arrived(
      alice.client,
      ids,
      (m) => m.additionalContent?.title === 'Start at 8?',
      'poll',
    );
    expect(lobbyPoll.additionalContent?.type).toBe(AdditionalContentType.Poll);

    // History brings the same content back.
    const history = await bob.client.getLobbyMessagesWithLimit(lobbyId, 10);
    expect(history.map((m) => m.additionalContent?.type ?? null)).toEqual([
      AdditionalContentType.Other,
      AdditionalContentType.Embed,
      AdditionalContentType.Thread,
      AdditionalContentType.Poll,
    ]);

    // All of these can be viewed in Discord; an unknown id cannot.
    expect(alice.client.canOpenMessageInDiscord(pics.id)).toBe(true);
    expect(alice.client.canOpenMessageInDiscord(notes.id)).toBe(true);
    expect(alice.client.canOpenMessageInDiscord('123')).toBe(false);
  });

  it('sends the disclosure once per user when in-game messages become visible on Discord', async () => {
    const emulator = await emulatorFor({ autoConsent: true, users: 3 });
    emulator.befriend(userAt(emulator, 0).id, userAt(emulator, 1).id);
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const aliceIds = collect(alice.client);
    const bobIds = collect(bob.client);

    const first = await alice.client.sendUserMessage(bob.user.id, 'first message');
    const disclosure = await arrived(
      alice.client,
      aliceIds,
      (m) => m.disclosureType !== null,
      'the disclosure at Alice',
    );
    expect(disclosure.disclosureType).toBe(DisclosureType.MessageDataVisibleOnDiscord);
    expect(disclosure.channelId).toBe(bob.user.id);
    expect(disclosure.content).not.toBe('');
    expect(disclosure.sentFromGame).toBe(false);
    expect(alice.client.canOpenMessageInDiscord(disclosure.id)).toBe(false);
    expect(alice.client.canOpenMessageInDiscord(first)).toBe(true);
    // Not part of the conversation: history from the server and from the cache leave it out.
    const history = await alice.client.getUserMessagesWithLimit(bob.user.id, 10);
    expect(history.map((m) => m.content)).toEqual(['first message']);

    // Once per user: no second disclosure for Alice, in a DM or in a linked lobby.
    await alice.client.sendUserMessage(bob.user.id, 'second message');
    const { lobbyId } = await linkedLobby(emulator, alice.client, bob.client);
    await alice.client.sendLobbyMessage(lobbyId, 'hello lobby');
    await arrived(bob.client, bobIds, (m) => m.content === 'hello lobby', 'the lobby message at Bob');
    // Bob's first message visible on Discord is in the linked lobby: his disclosure comes there.
    await bob.client.sendLobbyMessage(lobbyId, 'hi all');
    const bobDisclosure = await arrived(
      bob.client,
      bobIds,
      (m) => m.disclosureType !== null,
      'Bob’s disclosure',
    );
    expect(bobDisclosure.lobbyId).toBe(lobbyId);
    await arrived(alice.client, aliceIds, (m) => m.content === 'hi all', 'Bob’s message at Alice');
    expect(
      aliceIds.map((id) => alice.client.getMessageHandle(id)).filter((m) => m?.disclosureType !== null),
    ).toHaveLength(1);

    // A provisional account's conversations stay in games: no disclosure, and nothing to open in Discord.
    const pat = clientFor(emulator);
    const tokens = await pat.getProvisionalToken({
      externalAuthType: AuthenticationExternalAuthType.SteamSessionTicket,
      externalAuthToken: 'pat-ticket',
    });
    allSecrets.add(tokens.accessToken);
    await pat.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    await pat.connect();
    emulator.befriend(pat.getCurrentUser()?.id ?? '', alice.user.id, { game: true });
    const patIds = collect(pat);
    const ephemeral = await pat.sendUserMessage(alice.user.id, 'from pat');
    await arrived(alice.client, aliceIds, (m) => m.content === 'from pat', 'Pat’s message at Alice');
    expect(alice.client.canOpenMessageInDiscord(ephemeral)).toBe(false);
    await pat.sendUserMessage(alice.user.id, 'again');
    await arrived(alice.client, aliceIds, (m) => m.content === 'again', 'Pat’s second message');
    await eventually(() => patIds.length === 2, 5000, 'Pat’s own two messages');
    expect(patIds.map((id) => pat.getMessageHandle(id)?.disclosureType ?? null)).toEqual([null, null]);
  });

  it('holds the desktop client’s notifications back while the game shows chat', async () => {
    // The desktop client is signed in as Alice; her game connects to it.
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0), localClientOption(emulator));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const events: [string, unknown][] = [];
    alice.client.on('localClientEvent', (evt, data) => {
      if (evt === 'NOTIFICATION_CREATE') events.push([evt, data]);
    });
    await alice.client.subscribeLocalClientEvent('NOTIFICATION_CREATE');

    await bob.client.sendUserMessage(alice.user.id, 'ping 1');
    await eventually(() => events.length === 1, 5000, 'the notification');
    expect(events[0]?.[0]).toBe('NOTIFICATION_CREATE');
    expect(events[0]?.[1]).toMatchObject({ channel_id: bob.user.id, title: 'Bob', body: 'ping 1' });

    alice.client.setShowingChat(true);
    await eventually(
      () => emulator.rpcCommands().some((c) => c.cmd === 'SET_SHOWING_CHAT' && c.args.showing_chat === true),
      5000,
      'the desktop client told',
    );
    await bob.client.sendUserMessage(alice.user.id, 'ping 2');
    await eventually(() => emulator.localClientNotifications().length === 2, 5000, 'the second record');
    expect(emulator.localClientNotifications().map((n) => [n.body, n.shown])).toEqual([
      ['ping 1', true],
      ['ping 2', false],
    ]);

    alice.client.setShowingChat(false);
    await eventually(
      () => emulator.rpcCommands().some((c) => c.cmd === 'SET_SHOWING_CHAT' && c.args.showing_chat === false),
      5000,
      'the desktop client told again',
    );
    await bob.client.sendUserMessage(alice.user.id, 'ping 3');
    await eventually(() => events.length === 2, 5000, 'the third notification');
    expect(events.map(([, d]) => (d as { body: string }).body)).toEqual(['ping 1', 'ping 3']);
  });

  it('opens messages and the Connected Games settings in the desktop client', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    emulator.befriend(userAt(emulator, 0).id, userAt(emulator, 1).id);
    const alice = await linkAndConnect(emulator, userAt(emulator, 0), localClientOption(emulator));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const ids = collect(alice.client);
    emulator.sendDirectMessageFromDiscord('bob', 'alice', 'see this', { attachments: ['clip.mp4'] });
    const clip = await arrived(alice.client, ids, (m) => m.content === 'see this', 'the clip');
    expect(alice.client.canOpenMessageInDiscord(clip.id)).toBe(true);

    await alice.client.openMessageInDiscord(clip.id);
    await alice.client.openConnectedGamesSettingsInDiscord();
    expect(emulator.localClientOpened().map(({ at: _at, ...o }) => o)).toEqual([
      { kind: 'message', messageId: clip.id, channelId: bob.user.id },
      { kind: 'connectedGamesSettings', messageId: null, channelId: null },
    ]);

    // What cannot be opened: an unknown message, a malformed id.
    await expect(alice.client.openMessageInDiscord('123')).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.openMessageInDiscord('nope')).rejects.toBeInstanceOf(ValidationError);
    expect(emulator.localClientOpened()).toHaveLength(2);

    // Without a desktop client: an RPC error.
    await expect(bob.client.openMessageInDiscord(clip.id)).rejects.toBeInstanceOf(RpcError);
    await expect(bob.client.openConnectedGamesSettingsInDiscord()).rejects.toBeInstanceOf(RpcError);
  });

  it('asks a provisional player to merge before opening a message', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const pat = clientFor(emulator, localClientOption(emulator));
    const tokens = await pat.getProvisionalToken({
      externalAuthType: AuthenticationExternalAuthType.SteamSessionTicket,
      externalAuthToken: 'pat-ticket',
    });
    allSecrets.add(tokens.accessToken);
    await pat.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    await pat.connect();
    let asked = 0;
    const opening = pat.openMessageInDiscord('1234567890', {
      onProvisionalUserMergeRequired: () => {
        asked += 1;
        pat.provisionalUserMergeCompleted(false);
      },
    });
    await expect(opening).rejects.toBeInstanceOf(AbortedError);
    expect(asked).toBe(1);
    await expect(pat.openMessageInDiscord('1234567890')).rejects.toBeInstanceOf(ValidationError);
    expect(emulator.localClientOpened()).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';

import { RpcOpcode } from '../../packages/protocol/src/rpcFrame.js';
import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { checkHookArgs, findHook } from '../../packages/emulator/src/hooks/index.js';
import { postJson, TestGateway } from './helpers.js';
import { call, closeAfterEach, data, loggedEmulator, nextWhere, player } from './lobbyHelpers.js';
import { Peer } from './rpcPeer.js';

const { running } = closeAfterEach();

/** A lobby of alice (who may link) and bob, linked to the seeded #general by the bot; its id and the channel's. */
async function linkedLobby(emu: Emulator, aliceId: string, bobId: string): Promise<[string, string]> {
  const bot = `Bot ${emu.botToken}`;
  const made = await call(emu, bot, 'POST', '/lobbies', {
    members: [
      { id: aliceId, flags: 1 },
      { id: bobId, flags: 0 },
    ],
  });
  expect(made.status).toBe(201);
  const lobbyId = String(made.json.id);
  const general = emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
  const linked = await call(emu, bot, 'PATCH', `/lobbies/${lobbyId}/channel-linking`, {
    channel_id: general,
  });
  expect(linked.status).toBe(200);
  return [lobbyId, general];
}

/** A provisional account's id and Authorization header. */
async function provisional(emu: Emulator, ticket: string): Promise<{ id: string; auth: string }> {
  const reply = await postJson(`${emu.api}/partner-sdk/token`, {
    client_id: emu.applicationId,
    external_auth_type: 'STEAM_SESSION_TICKET',
    external_auth_token: ticket,
  });
  const token = ((await reply.json()) as { access_token: string }).access_token;
  const me = await call(emu, `Bearer ${token}`, 'GET', '/users/@me');
  return { id: String(me.json.id), auth: `Bearer ${token}` };
}

describe('chat-client content, disclosures and the desktop client’s chat commands', () => {
  it('sends a DM from Discord with its non-text content in the platform’s fields, and checks the pieces', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    // History is served between users who both authorized the game.
    await player(emu, 'alice');
    const bob = await player(emu, 'bob');
    const { gw } = await bob.connect();
    const id = emu.sendDirectMessageFromDiscord('alice', 'bob', 'look', {
      attachments: ['a.png'],
      embeds: ['Card'],
      poll: 'Tonight?',
      stickers: ['wave'],
      voiceMessage: true,
      thread: 'Plans',
    });
    const created = await nextWhere(gw, 'MESSAGE_CREATE', (d) => d.id === id);
    expect(created).toMatchObject({
      content: 'look',
      attachments: [
        { filename: 'a.png', size: 0 },
        { filename: 'voice-message.ogg', content_type: 'audio/ogg' },
      ],
      embeds: [{ title: 'Card' }],
      poll: { question: { text: 'Tonight?' } },
      sticker_items: [{ name: 'wave', format_type: 1 }],
      thread: { name: 'Plans', type: 11 },
    });
    // From the Discord client: no application, not SENT_BY_SOCIAL_LAYER_INTEGRATION; a voice message.
    expect(created.application_id).toBeUndefined();
    expect(created.flags).toBe(1 << 13);
    // History carries the same fields.
    const history = await call<Record<string, unknown>[]>(
      emu,
      bob.auth,
      'GET',
      `/users/${emu.users[0]?.id}/messages`,
    );
    expect(history.json[0]).toMatchObject({ id, poll: { question: { text: 'Tonight?' } } });
    gw.ws.close();

    // Bad input: a typed error, nothing stored.
    expect(() => emu.sendDirectMessageFromDiscord('alice', 'bob', '')).toThrow(RangeError);
    expect(() => emu.sendDirectMessageFromDiscord('nobody', 'bob', 'hi')).toThrow(RangeError);
    expect(() => emu.sendDirectMessageFromDiscord('alice', 'bob', 'x'.repeat(2001))).toThrow(RangeError);
    const hook = findHook('sendDirectMessageFromDiscord');
    if (!hook) throw new Error('no hook');
    expect(checkHookArgs(hook, { from: 'alice', to: 'bob', content: '', stickers: ['x'] })).toMatchObject({
      ok: false,
    });
    expect(
      checkHookArgs(hook, { from: 'alice', to: 'bob', content: '', attachments: Array(11).fill('f') }),
    ).toMatchObject({ ok: false });
    const viaHook = checkHookArgs(hook, { from: 'alice', to: 'bob', content: 'hi', embeds: ['E'] });
    expect(viaHook.ok).toBe(true);
    if (viaHook.ok) expect(hook.run(emu, viaHook.args)).toMatch(/^[0-9]+$/);
  });

  it('relays a linked channel’s attachments, embeds, polls, stickers and threads to the lobby', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    const alice = await player(emu, 'alice');
    const bob = await player(emu, 'bob');
    const [lobbyId, channelId] = await linkedLobby(emu, alice.id, bob.id);
    emu.postChannelMessage(channelId, 'bob', '', { attachments: ['map.png'], stickers: ['gg', 'wave'] });
    emu.postChannelMessage(channelId, 'bob', 'vote', { poll: 'Next map?', thread: 'Votes' });
    expect(() => emu.postChannelMessage(channelId, 'bob', '')).toThrow(RangeError);
    const listed = await call<Record<string, unknown>[]>(
      emu,
      alice.auth,
      'GET',
      `/lobbies/${lobbyId}/messages`,
    );
    expect(listed.json).toHaveLength(2);
    const [vote, map] = listed.json; // newest first
    expect(map).toMatchObject({ flags: 0, sticker_items: [{ name: 'gg' }, { name: 'wave' }] });
    expect(vote).toMatchObject({ poll: { question: { text: 'Next map?' } }, thread: { name: 'Votes' } });
    // The relayed attachment is served where its url says, as the channel's upload.
    const attachment = (map?.attachments as { url: string; filename: string }[])[0];
    expect(attachment?.filename).toBe('map.png');
    expect((await fetch(attachment?.url ?? '')).status).toBe(200);
    // Text-only messages carry none of these fields.
    emu.postChannelMessage(channelId, 'bob', 'plain');
    const plain = await call<Record<string, unknown>[]>(
      emu,
      alice.auth,
      'GET',
      `/lobbies/${lobbyId}/messages`,
    );
    expect(Object.keys(plain.json[0] ?? {})).not.toContain('attachments');
  });

  it('sends the disclosure once per user per application, and keeps that across a saved state', async () => {
    const { emu } = await loggedEmulator(running, { users: 3 });
    const alice = await player(emu, 'alice');
    const bob = await player(emu, 'bob');
    const { gw } = await alice.connect();
    const first = await call(emu, alice.auth, 'POST', `/users/${bob.id}/messages`, { content: 'one' });
    await nextWhere(gw, 'MESSAGE_CREATE', (d) => d.id === first.json.id);
    const disclosure = data(await gw.dispatch('MESSAGE_CREATE'));
    expect(disclosure).toMatchObject({
      channel_id: bob.id,
      disclosure_type: 3,
      flags: 1 << 6,
      author: { system: true },
    });
    // Not stored: history has only the message.
    const history = await call<unknown[]>(emu, alice.auth, 'GET', `/users/${bob.id}/messages`);
    expect(history.json).toHaveLength(1);
    const second = await call(emu, alice.auth, 'POST', `/users/${bob.id}/messages`, { content: 'two' });
    await nextWhere(gw, 'MESSAGE_CREATE', (d) => d.id === second.json.id);
    // In a linked lobby, Alice has been told already; Bob has not.
    const [lobbyId] = await linkedLobby(emu, alice.id, bob.id);
    const bobSession = await bob.connect();
    await call(emu, alice.auth, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'hi lobby' });
    await call(emu, bob.auth, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'hi back' });
    const bobDisclosure = await nextWhere(
      bobSession.gw,
      'LOBBY_MESSAGE_CREATE',
      (d) => d.disclosure_type === 3,
    );
    expect(bobDisclosure).toMatchObject({ lobby_id: lobbyId, channel_id: lobbyId, flags: 1 << 6 });
    await nextWhere(gw, 'LOBBY_MESSAGE_CREATE', (d) => d.content === 'hi back');
    expect(
      gw.pending().some((p) => (p.d as { disclosure_type?: unknown } | null)?.disclosure_type === 3),
    ).toBe(false);
    gw.ws.close();
    bobSession.gw.ws.close();

    // A provisional account's DMs are not visible on Discord: no disclosure.
    const pat = await provisional(emu, 'pat-ticket');
    emu.befriend(pat.id, alice.id, { game: true });
    const patGw = await TestGateway.connect(emu);
    await patGw.identify(pat.auth);
    const fromPat = await call(emu, pat.auth, 'POST', `/users/${alice.id}/messages`, { content: 'hey' });
    await nextWhere(patGw, 'MESSAGE_CREATE', (d) => d.id === fromPat.json.id);
    await expect(patGw.dispatch('MESSAGE_CREATE', 300)).rejects.toThrow();
    patGw.ws.close();

    // The state remembers who was told.
    const saved = emu.exportState();
    const users = (saved.data as { users: Record<string, { disclosedIn?: string[] }> }).users;
    expect(users[alice.id]?.disclosedIn).toEqual([emu.applicationId]);
    expect(users[pat.id]?.disclosedIn).toBeUndefined();
    const again = await startEmulator({ state: saved, rpc: false, autoConsent: true });
    running.push(again);
    const aliceAgain = await player(again, 'alice');
    const { gw: gw2 } = await aliceAgain.connect();
    const third = await call(again, aliceAgain.auth, 'POST', `/users/${bob.id}/messages`, {
      content: 'three',
    });
    await nextWhere(gw2, 'MESSAGE_CREATE', (d) => d.id === third.json.id);
    await expect(gw2.dispatch('MESSAGE_CREATE', 300)).rejects.toThrow();
    gw2.ws.close();
  });

  it('notifies DMs unless a connected game shows chat, and opens messages and settings', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    const alice = emu.users[0]?.id ?? '';
    const peer = new Peer(emu.rpcSocket ?? '');
    await peer.handshake(emu.applicationId);
    expect(await peer.command('SUBSCRIBE', {}, 'NOTIFICATION_CREATE')).toMatchObject({
      data: { evt: 'NOTIFICATION_CREATE' },
    });
    const first = emu.sendDirectMessageFromDiscord('bob', 'alice', 'ping');
    const event = await peer.next((f) => (f.body as { evt?: unknown }).evt === 'NOTIFICATION_CREATE');
    expect(event.body).toMatchObject({
      cmd: 'DISPATCH',
      data: { channel_id: emu.users[1]?.id, title: 'Bob', body: 'ping', message: { id: first } },
    });

    expect(await peer.command('SET_SHOWING_CHAT', { showing_chat: 'yes' })).toMatchObject({
      evt: 'ERROR',
      data: { code: 4000 },
    });
    expect(await peer.command('SET_SHOWING_CHAT', { showing_chat: true })).toMatchObject({ data: null });
    emu.sendDirectMessageFromDiscord('bob', 'alice', 'quiet');
    expect(emu.localClientNotifications().map((n) => [n.body, n.shown])).toEqual([
      ['ping', true],
      ['quiet', false],
    ]);
    // The game's connection ends: nobody shows chat any more.
    peer.socket.end();
    await peer.ended;
    await new Promise((r) => setTimeout(r, 50));
    emu.sendDirectMessageFromDiscord('bob', 'alice', 'loud');
    expect(emu.localClientNotifications().at(-1)).toMatchObject({ body: 'loud', shown: true });

    const game = new Peer(emu.rpcSocket ?? '');
    await game.handshake(emu.applicationId);
    expect(await game.command('OPEN_MESSAGE', { message_id: first })).toMatchObject({
      data: { message_id: first, channel_id: emu.users[1]?.id },
    });
    expect(await game.command('OPEN_MESSAGE', { message_id: '123' })).toMatchObject({
      evt: 'ERROR',
      data: { code: 4005 },
    });
    expect(await game.command('OPEN_MESSAGE', { message_id: 5 })).toMatchObject({ data: { code: 4000 } });
    // A provisional account's conversation stays in games.
    const pat = await provisional(emu, 'pat-ticket');
    emu.befriend(pat.id, alice, { game: true });
    const ephemeral = await call(emu, pat.auth, 'POST', `/users/${alice}/messages`, { content: 'eph' });
    expect(await game.command('OPEN_MESSAGE', { message_id: String(ephemeral.json.id) })).toMatchObject({
      data: { code: 4005 },
    });
    expect(await game.command('OPEN_CONNECTED_GAMES_SETTINGS', {})).toMatchObject({ data: null });
    expect(emu.localClientOpened().map(({ at: _at, ...o }) => o)).toEqual([
      { kind: 'message', messageId: first, channelId: emu.users[1]?.id },
      { kind: 'connectedGamesSettings', messageId: null, channelId: null },
    ]);
    game.send(RpcOpcode.Close, { code: 1000, message: 'bye' });
    await game.ended;
  });
});

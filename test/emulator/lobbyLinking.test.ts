import { describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import {
  botAndThree,
  type BotAndThree,
  call,
  closeAfterEach,
  nextWhere,
  pendingEvents,
  player,
} from './lobbyHelpers.js';

const { running } = closeAfterEach();

/** A fresh emulator (seeded guild owned by alice), three players, and the seeded channels by name. */
async function world(): Promise<
  BotAndThree & {
    emu: Emulator;
    guildId: string;
    channel: (name: string) => string;
  }
> {
  const emu = await startEmulator({ autoConsent: true, users: 3 });
  running.push(emu);
  const guild = emu.guilds()[0];
  if (!guild) throw new Error('no seeded guild');
  return {
    emu,
    ...(await botAndThree(emu)),
    guildId: guild.id,
    channel: (name) => {
      const found = guild.channels.find((c) => c.name === name);
      if (!found) throw new Error(`no channel ${name}`);
      return found.id;
    },
  };
}

describe('lobby channel linking', () => {
  it('who may link what: CanLinkLobby, channel permissions, text channels only, one lobby per channel', async () => {
    const { emu, bot, alice, bob, carol, guildId, channel } = await world();
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();
    const created = await call(emu, bot, 'POST', '/lobbies', {
      members: [{ id: alice.id, flags: 1 }, { id: bob.id }],
    });
    const lobbyId = String(created.json.id);
    const link = `/lobbies/${lobbyId}/channel-linking`;
    const general = channel('general');

    // Bob lacks the flag; with it he still may not manage the channel. Carol is no member.
    expect((await call(emu, bob.auth, 'PATCH', link, { channel_id: general })).json).toMatchObject({
      code: 50013,
    });
    await call(emu, bot, 'PUT', `/lobbies/${lobbyId}/members/${bob.id}`, { flags: 1 });
    const bobRefused = await call(emu, bob.auth, 'PATCH', link, { channel_id: general });
    expect(bobRefused.status).toBe(403);
    expect(bobRefused.json).toMatchObject({ code: 50013 });
    expect((await call(emu, carol.auth, 'PATCH', link, { channel_id: general })).json).toMatchObject({
      code: 50001,
    });
    const narrow = await player(emu, 'alice', 'identify gateway.connect');
    expect((await call(emu, narrow.auth, 'PATCH', link, { channel_id: general })).status).toBe(403);
    expect((await call(emu, 'Bearer nope', 'PATCH', link, { channel_id: general })).status).toBe(401);

    // Alice owns the guild: the link is made and every member hears of it.
    const linked = await call(emu, alice.auth, 'PATCH', link, { channel_id: general });
    expect(linked.status).toBe(200);
    expect(linked.json.linked_channel).toEqual({ id: general, name: 'general', guild_id: guildId });
    for (const gw of [aliceGw, bobGw]) {
      expect(
        await nextWhere(gw, 'LOBBY_UPDATE', (d) => d.linked_channel !== null && d.id === lobbyId),
      ).toMatchObject({
        linked_channel: { id: general, name: 'general', guild_id: guildId },
        voice_states: [],
      });
    }
    const listed = await call(emu, alice.auth, 'GET', `/guilds/${guildId}/channels`);
    expect(
      (listed.json as { id: string; linked_lobby: unknown }[]).find((c) => c.id === general)?.linked_lobby,
    ).toEqual({
      application_id: emu.applicationId,
      lobby_id: lobbyId,
    });
    expect(emu.lobbies().find((l) => l.id === lobbyId)?.linkedChannelId).toBe(general);

    // Only text channels; unknown channels and malformed ids are refused.
    for (const name of ['General', 'Text Channels']) {
      const reply = await call(emu, alice.auth, 'PATCH', link, { channel_id: channel(name) });
      expect(reply.status, name).toBe(400);
      expect(reply.json).toMatchObject({ code: 50024 });
    }
    expect((await call(emu, alice.auth, 'PATCH', link, { channel_id: '123' })).json).toMatchObject({
      code: 10003,
    });
    for (const body of [{ channel_id: 'general' }, { channel_id: 5 }, [general], 'nope']) {
      const reply = await call(emu, alice.auth, 'PATCH', link, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await call(emu, bot, 'PATCH', '/lobbies/1/channel-linking', { channel_id: general })).json,
    ).toMatchObject({
      code: 10031,
    });

    // A channel links to one lobby at most; the bot may link any text channel, even one hidden from members.
    const second = String((await call(emu, bot, 'POST', '/lobbies', {})).json.id);
    const taken = await call(emu, bot, 'PATCH', `/lobbies/${second}/channel-linking`, {
      channel_id: general,
    });
    expect(taken.status).toBe(400);
    expect(taken.json).toMatchObject({ code: 50035, errors: { channel_id: {} } });
    const staff = await call(emu, bot, 'PATCH', `/lobbies/${second}/channel-linking`, {
      channel_id: channel('staff'),
    });
    expect(staff.json.linked_channel).toMatchObject({ name: 'staff' });
    // Linking the same channel again is no change.
    expect((await call(emu, alice.auth, 'PATCH', link, { channel_id: general })).status).toBe(200);

    // Unlinking: null or absent; members hear of it; doing it twice is harmless.
    const unlinked = await call(emu, alice.auth, 'PATCH', link, {});
    expect(unlinked.json.linked_channel).toBeNull();
    expect(
      await nextWhere(bobGw, 'LOBBY_UPDATE', (d) => d.id === lobbyId && d.linked_channel === null),
    ).toMatchObject({ id: lobbyId });
    expect((await call(emu, alice.auth, 'PATCH', link, { channel_id: null })).status).toBe(200);
    // Bob, with the flag, may unlink (nothing to manage) but not link.
    expect((await call(emu, bob.auth, 'PATCH', link, { channel_id: null })).status).toBe(200);
    // The freed channel can go to another lobby; a deleted lobby frees its channel too.
    expect(
      (await call(emu, bot, 'PATCH', `/lobbies/${second}/channel-linking`, { channel_id: general })).status,
    ).toBe(200);
    await call(emu, bot, 'DELETE', `/lobbies/${second}`);
    expect((await call(emu, alice.auth, 'PATCH', link, { channel_id: general })).status).toBe(200);
    expect(pendingEvents(aliceGw)).toContain('LOBBY_UPDATE');
  });

  it('relays messages both ways: game content to the channel, chat messages to the lobby', async () => {
    const { emu, bot, alice, bob, channel } = await world();
    const { gw: aliceGw } = await alice.connect();
    const { gw: bobGw } = await bob.connect();
    const lobbyId = String(
      (await call(emu, bot, 'POST', '/lobbies', { members: [{ id: alice.id, flags: 1 }, { id: bob.id }] }))
        .json.id,
    );
    const general = channel('general');

    // Not linked yet: nothing reaches the channel.
    await call(emu, bob.auth, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'before' });
    expect(emu.channelMessages(general)).toEqual([]);
    await call(emu, alice.auth, 'PATCH', `/lobbies/${lobbyId}/channel-linking`, { channel_id: general });

    const sent = await call(emu, bob.auth, 'POST', `/lobbies/${lobbyId}/messages`, {
      content: 'from the game',
      metadata: { secret_sauce: 'x' },
    });
    expect(sent.status).toBe(201);
    const inChannel = emu.channelMessages(general);
    expect(inChannel).toHaveLength(1);
    expect(inChannel[0]).toMatchObject({ content: 'from the game', authorId: bob.id, fromLobbyId: lobbyId });
    expect(JSON.stringify(inChannel)).not.toContain('secret_sauce');
    // The bot's messages are relayed too.
    await call(emu, bot, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'from the backend' });
    expect(emu.channelMessages(general).map((m) => m.content)).toEqual(['from the game', 'from the backend']);

    // A chat-app user writes in the channel: members get a lobby message not sent from the game.
    emu.postChannelMessage(general, 'alice', 'from the chat app');
    for (const gw of [aliceGw, bobGw]) {
      const message = await nextWhere(gw, 'LOBBY_MESSAGE_CREATE', (d) => d.content === 'from the chat app');
      expect(message).toMatchObject({
        lobby_id: lobbyId,
        channel_id: lobbyId,
        flags: 0,
        author: { id: alice.id },
        metadata: {},
      });
      expect(message).not.toHaveProperty('application_id');
    }
    expect(emu.lobbyMessages(lobbyId)[0]).toMatchObject({ content: 'from the chat app', fromGame: false });
    // …and it is not relayed back into the channel.
    expect(emu.channelMessages(general).filter((m) => m.content === 'from the chat app')).toHaveLength(1);
    const history = await call(emu, bob.auth, 'GET', `/lobbies/${lobbyId}/messages`);
    expect(history.json.map((m) => (m as { content: string }).content)).toEqual([
      'from the chat app',
      'from the backend',
      'from the game',
      'before',
    ]);

    // A message in another channel, or after the unlink, stays in the chat app.
    emu.postChannelMessage(channel('lfg'), 'alice', 'elsewhere');
    await call(emu, alice.auth, 'PATCH', `/lobbies/${lobbyId}/channel-linking`, { channel_id: null });
    emu.postChannelMessage(general, 'bob', 'after the unlink');
    await call(emu, bob.auth, 'POST', `/lobbies/${lobbyId}/messages`, { content: 'game after the unlink' });
    expect(emu.lobbyMessages(lobbyId).map((m) => m.content)).toEqual([
      'game after the unlink',
      'from the chat app',
      'from the backend',
      'from the game',
      'before',
    ]);
    expect(emu.channelMessages(general).map((m) => m.content)).toEqual([
      'from the game',
      'from the backend',
      'from the chat app',
      'after the unlink',
    ]);
  });
});

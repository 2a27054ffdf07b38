import { describe, expect, it } from 'vitest';

import { GameBackend } from '../../packages/sdkpp/src/backend/index.js';
import { ChannelType, ValidationError } from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { allLogLines, emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

function backendFor(emulator: Emulator): GameBackend {
  return new GameBackend({
    botToken: emulator.botToken,
    apiBase: emulator.api,
    logCallback: (line) => allLogLines.push(line),
  });
}

async function redeem(emulator: Emulator, code: string, accessToken: string): Promise<Response> {
  return fetch(`${emulator.api}/invites/${code}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
  });
}

describe('linked channels', () => {
  it('lists guilds and their channels in the chat client order, with what each player may link', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));

    const guilds = await alice.client.getUserGuilds();
    expect(guilds.map((g) => g.name)).toEqual(['Emulator Guild']);
    const guildId = guilds[0]?.id ?? '';
    expect(await bob.client.getUserGuilds()).toEqual(guilds);

    const owner = await alice.client.getGuildChannels(guildId);
    expect(owner.map((c) => [c.name, c.type])).toEqual([
      ['welcome', ChannelType.GuildText],
      ['Text Channels', ChannelType.GuildCategory],
      ['general', ChannelType.GuildText],
      ['lfg', ChannelType.GuildText],
      ['staff', ChannelType.GuildText],
      ['Voice Channels', ChannelType.GuildCategory],
      ['General', ChannelType.GuildVoice],
    ]);
    const byName = new Map(owner.map((c) => [c.name, c]));
    const textCategory = byName.get('Text Channels');
    expect(byName.get('general')).toMatchObject({
      parentId: textCategory?.id,
      position: 0,
      isLinkable: true,
      isViewableAndWriteableByAllMembers: true,
      linkedLobby: null,
    });
    expect(byName.get('welcome')?.parentId).toBeNull();
    expect(byName.get('staff')?.isViewableAndWriteableByAllMembers).toBe(false);

    // Bob may see and write but not manage: nothing is linkable for him, and #staff is hidden.
    const member = await bob.client.getGuildChannels(guildId);
    expect(member.map((c) => c.name)).not.toContain('staff');
    expect(member.filter((c) => c.isLinkable)).toEqual([]);

    await expect(alice.client.getGuildChannels('nope')).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.getGuildChannels('123')).rejects.toMatchObject({ status: 404 });
  });

  it('links a channel to a lobby, relays messages both ways, and unlinks', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const backend = backendFor(emulator);
    const lobby = await backend.createLobby({
      members: [{ id: alice.user.id, canLinkLobby: true }, { id: bob.user.id }],
    });
    await eventually(() => alice.client.getLobbyHandle(lobby.id) !== undefined, 5000, 'the lobby');
    await eventually(() => bob.client.getLobbyHandle(lobby.id) !== undefined, 5000, 'the lobby at Bob');
    const [guild] = await alice.client.getUserGuilds();
    const channels = await alice.client.getGuildChannels(guild?.id ?? '');
    const general = channels.find((c) => c.name === 'general');
    if (!general) throw new Error('no #general');

    // Bob has no CanLinkLobby flag: refused before any request.
    await expect(bob.client.linkChannelToLobby(lobby.id, general.id)).rejects.toBeInstanceOf(ValidationError);
    const updated: string[] = [];
    bob.client.on('lobbyUpdated', (id) => updated.push(id));
    await alice.client.linkChannelToLobby(lobby.id, general.id);
    expect(alice.client.getLobbyHandle(lobby.id)?.linkedChannel).toEqual({
      id: general.id,
      name: 'general',
      guildId: guild?.id,
    });
    await eventually(() => updated.includes(lobby.id), 5000, 'the link at Bob');
    expect(bob.client.getLobbyHandle(lobby.id)?.linkedChannel?.name).toBe('general');
    const listed = await alice.client.getGuildChannels(guild?.id ?? '');
    expect(listed.find((c) => c.id === general.id)?.linkedLobby).toEqual({
      applicationId: emulator.applicationId,
      lobbyId: lobby.id,
    });

    // Game → channel: the content reaches the channel (metadata stays in the game).
    await bob.client.sendLobbyMessage(lobby.id, 'from the game', { secret_sauce: 'x' });
    await eventually(
      () => emulator.channelMessages(general.id).some((m) => m.content === 'from the game'),
      5000,
      'the relay to the channel',
    );
    // Channel → game: a chat user's message arrives as a lobby message not sent from a game.
    const received: string[] = [];
    alice.client.on('messageCreated', (id) => received.push(id));
    emulator.postChannelMessage(general.id, userAt(emulator, 0).username, 'from the chat app');
    await eventually(
      () => received.some((id) => alice.client.getMessageHandle(id)?.content === 'from the chat app'),
      5000,
      'the relay to the lobby',
    );
    const relayed = received
      .map((id) => alice.client.getMessageHandle(id))
      .find((m) => m?.content === 'from the chat app');
    expect(relayed).toMatchObject({ lobbyId: lobby.id, sentFromGame: false, authorId: alice.user.id });

    await alice.client.unlinkChannelFromLobby(lobby.id);
    expect(alice.client.getLobbyHandle(lobby.id)?.linkedChannel).toBeNull();
    await eventually(
      () => bob.client.getLobbyHandle(lobby.id)?.linkedChannel === null,
      5000,
      'the unlink at Bob',
    );
  });

  it('invites to the linked guild are single use and expire after an hour', async () => {
    const emulator = await emulatorFor({ autoConsent: true, users: 3 });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const carol = await linkAndConnect(emulator, userAt(emulator, 2));
    const backend = backendFor(emulator);
    const lobby = await backend.createLobby({
      members: [{ id: alice.user.id, canLinkLobby: true }, { id: carol.user.id }],
    });
    await eventually(() => carol.client.getLobbyHandle(lobby.id) !== undefined, 5000, 'the lobby at Carol');

    // Without a linked channel there is no guild to invite to.
    await expect(carol.client.joinLinkedLobbyGuild(lobby.id)).rejects.toMatchObject({ status: 400 });

    const [guild] = await alice.client.getUserGuilds();
    const general = (await alice.client.getGuildChannels(guild?.id ?? '')).find((c) => c.name === 'general');
    await backend.linkChannel(lobby.id, general?.id ?? null);

    const url = await carol.client.joinLinkedLobbyGuild(lobby.id);
    expect(url).toMatch(new RegExp(`^${emulator.http}/invite/[A-Za-z0-9_-]{8,10}$`));
    const code = url.split('/').pop() ?? '';
    // The URL opens a page that names the guild and channel; after use it says the invite is gone.
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Emulator Guild');
    expect(html).toContain('#general');
    const accepted = await redeem(emulator, code, carol.accessToken);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ guild: { id: guild?.id }, channel: { id: general?.id } });
    expect((await fetch(url)).status).toBe(404);
    const reused = await redeem(emulator, code, carol.accessToken);
    expect(reused.status).toBe(404);
    expect(await reused.json()).toMatchObject({ code: 10006 });

    // An invite the backend makes for Carol is hers alone, and is gone after an hour.
    const forCarol = await backend.createLobbyChannelInvite(lobby.id, carol.user.id);
    const wrongUser = await redeem(emulator, forCarol, alice.accessToken);
    expect(wrongUser.status).toBe(403);
    emulator.advanceTime(61 * 60_000);
    const expired = await redeem(emulator, forCarol, carol.accessToken);
    expect(expired.status).toBe(404);
    expect(await expired.json()).toMatchObject({ code: 10006 });
  });
});

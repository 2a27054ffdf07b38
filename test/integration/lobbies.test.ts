import { describe, expect, it } from 'vitest';

import { GameBackend } from '../../packages/sdkpp/src/backend/index.js';
import {
  ChannelType,
  ClientStatus,
  HttpError,
  ValidationError,
  type Client,
} from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { allLogLines, emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

const HISTORY = '/lobbies/:lobby_id/messages';

function backendFor(emulator: Emulator): GameBackend {
  return new GameBackend({
    botToken: emulator.botToken,
    apiBase: emulator.api,
    logCallback: (line) => allLogLines.push(line),
  });
}

/** Records every lobby event of a client as `name:lobby[:member]`. */
function lobbyEvents(client: Client): string[] {
  const seen: string[] = [];
  for (const name of ['lobbyCreated', 'lobbyUpdated', 'lobbyDeleted'] as const) {
    client.on(name, (lobbyId) => seen.push(`${name}:${lobbyId}`));
  }
  for (const name of ['lobbyMemberAdded', 'lobbyMemberUpdated', 'lobbyMemberRemoved'] as const) {
    client.on(name, (lobbyId, memberId) => seen.push(`${name}:${lobbyId}:${memberId}`));
  }
  return seen;
}

describe('lobbies', () => {
  it('create or join by one secret, metadata, member events on both sides, leave and rejoin', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const aliceSaw = lobbyEvents(alice.client);
    const bobSaw = lobbyEvents(bob.client);

    const lobbyId = await alice.client.createOrJoinLobby('secret-1', { map: 'harbour' }, { role: 'host' });
    expect(aliceSaw).toContain(`lobbyCreated:${lobbyId}`);
    const joined = await bob.client.createOrJoinLobby('secret-1', undefined, { role: 'guest' });
    expect(joined).toBe(lobbyId);
    await eventually(
      () => aliceSaw.includes(`lobbyMemberAdded:${lobbyId}:${bob.user.id}`),
      5000,
      'Bob at Alice',
    );
    expect(bobSaw).toContain(`lobbyCreated:${lobbyId}`);
    expect(bob.client.getLobbyIds()).toEqual([lobbyId]);

    for (const player of [alice, bob]) {
      const lobby = player.client.getLobbyHandle(lobbyId);
      expect(lobby?.metadata).toEqual({ map: 'harbour' });
      expect(new Set(lobby?.lobbyMemberIds)).toEqual(new Set([alice.user.id, bob.user.id]));
      const guest = lobby?.getLobbyMemberHandle(bob.user.id);
      expect(guest?.metadata).toEqual({ role: 'guest' });
      expect(guest?.connected).toBe(true);
      expect(guest?.canLinkLobby).toBe(false);
      expect(guest?.additionalName).toBeNull();
      expect(guest?.user?.displayName).toBe('Bob');
    }

    // The lobby is a channel too; so is the conversation with a member, before any message.
    expect(alice.client.getChannelHandle(lobbyId)).toMatchObject({ id: lobbyId, type: ChannelType.Lobby });
    expect(new Set(alice.client.getChannelHandle(lobbyId)?.recipients)).toEqual(
      new Set([alice.user.id, bob.user.id]),
    );
    expect(alice.client.getChannelHandle(bob.user.id)).toMatchObject({
      id: bob.user.id,
      type: ChannelType.EphemeralDm,
      name: 'Bob',
    });
    expect(alice.client.getChannelHandle(alice.user.id)).toBeUndefined();
    expect(alice.client.getChannelHandle('12345')).toBeUndefined();

    // A later call with lobby metadata replaces it for everyone.
    await bob.client.createOrJoinLobby('secret-1', { map: 'desert' });
    await eventually(() => alice.client.getLobbyHandle(lobbyId)?.metadata.map === 'desert', 5000, 'metadata');
    expect(aliceSaw).toContain(`lobbyUpdated:${lobbyId}`);

    await bob.client.leaveLobby(lobbyId);
    expect(bob.client.getLobbyHandle(lobbyId)).toBeUndefined();
    expect(bobSaw.filter((e) => e === `lobbyDeleted:${lobbyId}`)).toHaveLength(1);
    await eventually(
      () => aliceSaw.includes(`lobbyMemberRemoved:${lobbyId}:${bob.user.id}`),
      5000,
      'Bob leaving at Alice',
    );
    expect(alice.client.getLobbyHandle(lobbyId)?.lobbyMemberIds).toEqual([alice.user.id]);
    // The same secret lets him back in.
    expect(await bob.client.createOrJoinLobby('secret-1')).toBe(lobbyId);
    // A different secret is a different lobby.
    expect(await bob.client.createOrJoinLobby('secret-2')).not.toBe(lobbyId);
    expect(bob.client.getLobbyIds()).toHaveLength(2);
  });

  it('an HTTP reply older than a gateway join never removes the member who joined', async () => {
    // Replies held back 40 ms: the host's republish replies, computed before a guest joined, arrive after
    // that guest's LOBBY_MEMBER_ADD, as they can on a real network.
    const emulator = await emulatorFor({ autoConsent: true, users: 3, httpLatencyMs: 40 });
    const players = await Promise.all([0, 1, 2].map((i) => linkAndConnect(emulator, userAt(emulator, i))));
    const [host, ...guests] = players as [(typeof players)[0], ...typeof players];
    const hostSaw = lobbyEvents(host.client);
    const lobbyId = await host.client.createOrJoinLobby('busy-table', { turn: '0' });

    let turn = 0;
    const publishes = [0, 1, 2].map(() =>
      host.client.createOrJoinLobby('busy-table', { turn: String(++turn) }),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all([...publishes, ...guests.map((guest) => guest.client.createOrJoinLobby('busy-table'))]);
    await eventually(
      () => host.client.getLobbyHandle(lobbyId)?.lobbyMemberIds.length === 3,
      5000,
      'both guests at the host',
    );

    expect(hostSaw.filter((event) => event.startsWith('lobbyMemberRemoved'))).toEqual([]);
    await eventually(
      () => host.client.getLobbyHandle(lobbyId)?.metadata.turn === String(turn),
      5000,
      'the last published turn (from LOBBY_UPDATE)',
    );
    expect(new Set(host.client.getLobbyHandle(lobbyId)?.lobbyMemberIds)).toEqual(
      new Set(players.map((player) => player.user.id)),
    );
  });

  it('refuses bad input before any request', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    await expect(alice.client.createOrJoinLobby('')).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.createOrJoinLobby('s'.repeat(251))).rejects.toBeInstanceOf(ValidationError);
    const tooMany = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v']));
    await expect(alice.client.createOrJoinLobby('ok', tooMany)).rejects.toThrow(/25 keys/);
    await expect(alice.client.createOrJoinLobby('ok', { big: 'x'.repeat(1000) })).rejects.toThrow(/1000/);
    await expect(alice.client.leaveLobby('not-an-id')).rejects.toBeInstanceOf(ValidationError);
    expect(emulator.requestCount('PUT', '/lobbies')).toBe(0);
  });

  it('lobby chat: events, metadata, history from the cache, members only, moderation and additional names', async () => {
    const emulator = await emulatorFor({ autoConsent: true, users: 3 });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const carol = await linkAndConnect(emulator, userAt(emulator, 2));
    const backend = backendFor(emulator);
    const lobbyId = await alice.client.createOrJoinLobby('chat');
    await bob.client.createOrJoinLobby('chat');
    const aliceSaw: string[] = [];
    alice.client.on('messageCreated', (id) => aliceSaw.push(`created:${id}`));
    alice.client.on('messageUpdated', (id) => aliceSaw.push(`updated:${id}`));

    const first = await bob.client.sendLobbyMessage(lobbyId, 'hi all', { team: 'blue' });
    await eventually(() => aliceSaw.includes(`created:${first}`), 5000, 'the message at Alice');
    expect(alice.client.getMessageHandle(first)).toMatchObject({
      content: 'hi all',
      authorId: bob.user.id,
      lobbyId,
      channelId: lobbyId,
      applicationId: emulator.applicationId,
      sentFromGame: true,
      additionalName: null,
    });
    expect(alice.client.getMessageHandle(first)?.metadata).toEqual({ team: 'blue' });

    // The backend names Bob's character: members see it on him and on his next messages.
    await backend.updateLobbyMember(lobbyId, bob.user.id, { additionalName: 'Sir Robin' });
    await eventually(
      () =>
        alice.client.getLobbyHandle(lobbyId)?.getLobbyMemberHandle(bob.user.id)?.additionalName ===
        'Sir Robin',
      5000,
      'the additional name at Alice',
    );
    const second = await bob.client.sendLobbyMessage(lobbyId, 'as a knight');
    await eventually(() => aliceSaw.includes(`created:${second}`), 5000, 'the second message');
    expect(alice.client.getMessageHandle(second)?.additionalName).toBe('Sir Robin');

    await backend.setLobbyMessageModerationMetadata(lobbyId, first, { verdict: 'clean' });
    await eventually(() => aliceSaw.includes(`updated:${first}`), 5000, 'the moderation update');
    expect(alice.client.getMessageHandle(first)?.moderationMetadata).toEqual({ verdict: 'clean' });

    // History: the newest last; a second ask for no more than is held makes no request.
    const history = await alice.client.getLobbyMessagesWithLimit(lobbyId, 10);
    expect(history.map((m) => m.content)).toEqual(['hi all', 'as a knight']);
    expect(emulator.requestCount('GET', HISTORY)).toBe(1);
    expect((await alice.client.getLobbyMessagesWithLimit(lobbyId, 2)).map((m) => m.id)).toEqual([
      first,
      second,
    ]);
    expect(emulator.requestCount('GET', HISTORY)).toBe(1);
    // A message arriving later joins what is held.
    const third = await bob.client.sendLobbyMessage(lobbyId, 'third');
    await eventually(() => aliceSaw.includes(`created:${third}`), 5000, 'the third message');
    expect((await alice.client.getLobbyMessagesWithLimit(lobbyId, 200)).map((m) => m.id)).toEqual([
      first,
      second,
      third,
    ]);
    expect(emulator.requestCount('GET', HISTORY)).toBe(1);

    // Carol is not a member: a typed error, no request; the server refuses her too.
    await expect(carol.client.getLobbyMessagesWithLimit(lobbyId, 10)).rejects.toBeInstanceOf(ValidationError);
    await expect(carol.client.sendLobbyMessage(lobbyId, 'let me in')).rejects.toBeInstanceOf(ValidationError);
    expect(emulator.requestCount('GET', HISTORY)).toBe(1);
    const refused = await fetch(`${emulator.api}/lobbies/${lobbyId}/messages?limit=10`, {
      headers: { authorization: `Bearer ${carol.accessToken}` },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 50001 });

    await expect(bob.client.sendLobbyMessage(lobbyId, 'x'.repeat(2001))).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(alice.client.getLobbyMessagesWithLimit(lobbyId, 201)).rejects.toBeInstanceOf(
      ValidationError,
    );

    // After leaving, the lobby's history is refused as for any non-member.
    await bob.client.leaveLobby(lobbyId);
    await expect(bob.client.getLobbyMessagesWithLimit(lobbyId, 10)).rejects.toBeInstanceOf(ValidationError);
  });

  it('server-managed lobbies: the backend adds, updates in bulk and removes; bad bulk input is refused', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const aliceSaw = lobbyEvents(alice.client);
    const backend = backendFor(emulator);

    const lobby = await backend.createLobby({
      metadata: { kind: 'guild-hall' },
      members: [{ id: alice.user.id, canLinkLobby: true, metadata: { rank: 'officer' } }],
    });
    expect(lobby.members.map((m) => [m.id, m.canLinkLobby])).toEqual([[alice.user.id, true]]);
    await eventually(() => aliceSaw.includes(`lobbyCreated:${lobby.id}`), 5000, 'the lobby at Alice');
    expect(alice.client.getLobbyHandle(lobby.id)?.getLobbyMemberHandle(alice.user.id)?.canLinkLobby).toBe(
      true,
    );

    const updated = await backend.updateLobbyMembers(lobby.id, [
      { id: bob.user.id, additionalName: 'Squire' },
      { id: alice.user.id, metadata: { rank: 'captain' } },
    ]);
    expect(updated.map((m) => m.id).sort()).toEqual([alice.user.id, bob.user.id].sort());
    await eventually(() => bob.client.getLobbyHandle(lobby.id) !== undefined, 5000, 'the lobby at Bob');
    await eventually(
      () =>
        alice.client.getLobbyHandle(lobby.id)?.getLobbyMemberHandle(alice.user.id)?.metadata.rank ===
        'captain',
      5000,
      'the bulk update at Alice',
    );
    expect(alice.client.getLobbyHandle(lobby.id)?.getLobbyMemberHandle(bob.user.id)?.additionalName).toBe(
      'Squire',
    );

    const bulkBefore = emulator.requestCount('POST', '/lobbies/:lobby_id/members/bulk');
    const tooMany = Array.from({ length: 26 }, () => ({ id: bob.user.id }));
    await expect(backend.updateLobbyMembers(lobby.id, tooMany)).rejects.toBeInstanceOf(ValidationError);
    await expect(
      backend.updateLobbyMember(lobby.id, bob.user.id, { additionalName: 'x'.repeat(81) }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(emulator.requestCount('POST', '/lobbies/:lobby_id/members/bulk')).toBe(bulkBefore);

    await backend.updateLobbyMembers(lobby.id, [{ id: bob.user.id, remove: true }]);
    await eventually(() => bob.client.getLobbyHandle(lobby.id) === undefined, 5000, 'Bob removed');
    await eventually(
      () => aliceSaw.includes(`lobbyMemberRemoved:${lobby.id}:${bob.user.id}`),
      5000,
      'removal at Alice',
    );

    await backend.deleteLobby(lobby.id);
    await eventually(() => aliceSaw.includes(`lobbyDeleted:${lobby.id}`), 5000, 'the delete at Alice');
    const gone = await backend.getLobby(lobby.id).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(HttpError);
    expect(gone).toMatchObject({ status: 404, code: 10031 });
    await backend.deleteLobby(lobby.id); // idempotent
  });

  it('lobbies survive a dropped connection, come back with a new session, and expire when idle', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const backend = backendFor(emulator);
    const lobbyId = await alice.client.createOrJoinLobby('persistent');
    const idle = await backend.createLobby({ idleTimeoutSeconds: 5, members: [{ id: alice.user.id }] });
    await eventually(() => alice.client.getLobbyHandle(idle.id) !== undefined, 5000, 'the idle lobby');

    emulator.dropGatewayConnections(alice.user.id);
    await eventually(() => alice.client.getStatus() === ClientStatus.Ready, 5000, 'the resume');
    expect(new Set(alice.client.getLobbyIds())).toEqual(new Set([lobbyId, idle.id]));

    // A new session rebuilds the list from READY.
    await alice.client.disconnect();
    expect(alice.client.getLobbyIds()).toEqual([]);
    // While nobody is connected, time passes: the lobby with a 5 s idle timeout goes.
    await eventually(
      () => emulator.gatewaySessions(alice.user.id).every((s) => !s.connected),
      5000,
      'the server to see the socket close',
    );
    emulator.advanceTime(6_000);
    await alice.client.connect();
    expect(alice.client.getLobbyIds()).toEqual([lobbyId]);
    await expect(backend.getLobby(idle.id)).rejects.toMatchObject({ status: 404, code: 10031 });
  });
});

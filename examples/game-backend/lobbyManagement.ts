import type { BackendLobby, GameBackend } from 'sdkpp/backend';

import { seenAfter } from './events.js';
import { pairs, say } from './print.js';
import type { Player } from './provisional.js';

/** How a player's game shows the lobby: its metadata and each member with their character name. */
function describeLobby(player: Player, lobbyId: string): string {
  const lobby = player.client.getLobbyHandle(lobbyId);
  if (!lobby) return 'no such lobby';
  const members = lobby.lobbyMembers.map((m) => {
    const name = m.user?.displayName ?? m.id;
    return m.additionalName ? `${name} as "${m.additionalName}"` : name;
  });
  return `${pairs(lobby.metadata)}; members: ${members.join(', ')}`;
}

/**
 * The server creates a lobby for a match with its metadata and first member (a character name and
 * member metadata included): a server-managed lobby, which players cannot leave on their own.
 */
export async function createMatchLobby(backend: GameBackend, leader: Player): Promise<BackendLobby> {
  let lobby: BackendLobby | undefined;
  const [lobbyId] = await seenAfter(
    leader.client,
    'lobbyCreated',
    () => true,
    async () => {
      lobby = await backend.createLobby({
        metadata: { mode: 'raid', map: 'sunken-keep', region: 'eu-west' },
        members: [
          {
            id: leader.id,
            additionalName: 'Aria the Bold',
            metadata: { class: 'paladin', role: 'leader' },
            canLinkLobby: true,
          },
        ],
        idleTimeoutSeconds: 3600,
      });
      say(
        'backend',
        `created server-managed lobby ${lobby.id}: ${pairs(lobby.metadata)}; idle timeout 1 hour`,
      );
    },
  );
  say(leader.name, `game sees lobby ${lobbyId}: ${describeLobby(leader, lobbyId)}`);
  if (!lobby) throw new Error('createLobby returned nothing');
  return lobby;
}

/** Several member changes in one request: the rest of the party joins, each with a character name. */
export async function fillParty(
  backend: GameBackend,
  lobbyId: string,
  leader: Player,
  others: Player[],
): Promise<void> {
  const last = others[others.length - 1];
  await seenAfter(
    leader.client,
    'lobbyMemberAdded',
    (lobby, member) => lobby === lobbyId && member === last?.id,
    async () => {
      const members = await backend.updateLobbyMembers(lobbyId, [
        { id: others[0]?.id ?? '', additionalName: 'Borin Stonefist', metadata: { class: 'warrior' } },
        { id: others[1]?.id ?? '', additionalName: 'Cass Nightwhisper', metadata: { class: 'rogue' } },
      ]);
      say(
        'backend',
        `bulk change (1 request): added ${members.map((m) => `"${m.additionalName ?? '?'}" (${m.metadata.class ?? '?'})`).join(', ')}`,
      );
    },
  );
  say(leader.name, `game sees: ${describeLobby(leader, lobbyId)}`);
}

/**
 * The match moves on: the server updates the lobby's metadata, then in one bulk request removes a player
 * and renames another's character; the players' games follow.
 */
export async function reshuffle(
  backend: GameBackend,
  lobbyId: string,
  leader: Player,
  renamed: Player,
  removed: Player,
): Promise<void> {
  await seenAfter(
    leader.client,
    'lobbyUpdated',
    (id) => id === lobbyId && leader.client.getLobbyHandle(id)?.metadata.phase === 'boss',
    async () => {
      const lobby = await backend.updateLobby(lobbyId, {
        metadata: { mode: 'raid', map: 'sunken-keep', region: 'eu-west', phase: 'boss' },
      });
      say('backend', `lobby metadata now ${pairs(lobby.metadata)}`);
    },
  );
  const gone = seenAfter(
    removed.client,
    'lobbyDeleted',
    (id) => id === lobbyId,
    () => Promise.resolve(),
  );
  await seenAfter(
    leader.client,
    'lobbyMemberUpdated',
    (lobby, member) =>
      lobby === lobbyId &&
      member === renamed.id &&
      leader.client.getLobbyHandle(lobby)?.getLobbyMemberHandle(member)?.additionalName ===
        'Borin the Unbroken',
    async () => {
      await backend.updateLobbyMembers(lobbyId, [
        { id: removed.id, remove: true },
        { id: renamed.id, additionalName: 'Borin the Unbroken' },
      ]);
      say(
        'backend',
        `bulk change (1 request): removed ${removed.name}, renamed ${renamed.name}'s character "Borin the Unbroken"`,
      );
    },
  );
  await gone;
  say(removed.name, `game: the lobby is gone from ${removed.name}'s list (removed by the server)`);
  say(leader.name, `game sees: ${describeLobby(leader, lobbyId)}`);
}

import type { Activity } from 'sdkpp';
import type { GameBackend } from 'sdkpp/backend';

import { say } from './print.js';
import { describeFriend, idOf, next, type Player } from './social.js';

/** The host opens the party's lobby with the secret its rich presence will carry; resolves with the lobby id. */
export async function openLobby(host: Player, secret: string): Promise<string> {
  const lobbyId = await host.client.createOrJoinLobby(secret, { mode: 'ranked', map: 'harbour' });
  say(host.name, `opened lobby ${lobbyId} (mode ranked, map harbour)`);
  return lobbyId;
}

/**
 * The guest joins with the secret from the invite; the host sees them arrive and shows the new party size in
 * its rich presence, which the guest sees.
 */
export async function joinLobby(
  host: Player,
  guest: Player,
  secret: string,
  presence: Activity,
): Promise<string> {
  const guestId = idOf(guest);
  const arrived = next(host.client, 'lobbyMemberAdded', (_lobby, member) => member === guestId);
  const lobbyId = await guest.client.createOrJoinLobby(secret);
  const lobby = guest.client.getLobbyHandle(lobbyId);
  say(
    guest.name,
    `joined lobby ${lobbyId} by its secret: ${lobby?.lobbyMembers.length ?? 0} members, map ${lobby?.metadata.map ?? '?'}`,
  );
  await arrived;
  const size = host.client.getLobbyHandle(lobbyId)?.lobbyMemberIds.length ?? 1;
  const hostId = idOf(host);
  const seen = next(
    guest.client,
    'userUpdated',
    (id) => id === hostId && guest.client.getUser(id)?.gameActivity?.party?.currentSize === size,
  );
  await host.client.updateRichPresence(
    presence.party ? { ...presence, party: { ...presence.party, currentSize: size } } : presence,
  );
  say(host.name, `${guest.name} joined the lobby; party now ${size}/${presence.party?.maxSize ?? '?'}`);
  await seen;
  const hostUser = guest.client.getUser(hostId);
  if (hostUser) say(guest.name, `sees ${describeFriend(hostUser)}`);
  return lobbyId;
}

/**
 * The game backend (bot token) names the guest's character; then the players chat in the lobby and the host
 * sees the character name on the guest's messages.
 */
export async function lobbyChat(
  host: Player,
  guest: Player,
  lobbyId: string,
  backend: GameBackend,
): Promise<void> {
  const guestId = idOf(guest);
  const renamed = next(
    host.client,
    'lobbyMemberUpdated',
    (lobby, member) => lobby === lobbyId && member === guestId,
  );
  await backend.updateLobbyMember(lobbyId, guestId, { additionalName: 'Sir Robin' });
  say('backend', `named ${guest.name}'s character "Sir Robin" (server-side, bot token)`);
  await renamed;
  const member = host.client.getLobbyHandle(lobbyId)?.getLobbyMemberHandle(guestId);
  say(host.name, `sees ${guest.name} in the lobby as "${member?.additionalName ?? '?'}"`);

  const received = next(
    host.client,
    'messageCreated',
    (id) => host.client.getMessageHandle(id)?.lobbyId === lobbyId,
  );
  await guest.client.sendLobbyMessage(lobbyId, 'ready when you are', { team: 'blue' });
  const [messageId] = await received;
  const message = host.client.getMessageHandle(messageId);
  say(
    host.name,
    `lobby message from ${message?.author?.displayName ?? '?'} as "${message?.additionalName ?? '?'}": "${message?.content ?? ''}" (team ${message?.metadata.team ?? '?'})`,
  );
  await host.client.sendLobbyMessage(lobbyId, 'launching the match');
  const history = await guest.client.getLobbyMessagesWithLimit(lobbyId, 50);
  say(guest.name, `lobby chat: ${history.map((m) => `"${m.content}"`).join(', ')}`);
}

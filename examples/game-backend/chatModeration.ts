import type { GameBackend } from 'sdkpp/backend';

import { seenAfter } from './events.js';
import { pairs, say } from './print.js';
import type { Player } from './provisional.js';

/** How a game shows a message: the sender's character name when they have one. */
function shownAs(reader: Player, messageId: string): string {
  const message = reader.client.getMessageHandle(messageId);
  if (!message) return '?';
  const author = message.author?.displayName ?? message.authorId;
  return `${message.additionalName ? `"${message.additionalName}" (${author})` : author}: "${message.content}"`;
}

/** A player sends a lobby message; resolves with its id once `reader`'s game has it. */
async function chat(
  sender: Player,
  reader: Player,
  lobbyId: string,
  content: string,
  metadata?: Record<string, string>,
): Promise<string> {
  let sent = '';
  await seenAfter(
    reader.client,
    'messageCreated',
    (id) => id === sent || reader.client.getMessageHandle(id)?.content === content,
    async () => {
      sent = await sender.client.sendLobbyMessage(lobbyId, content, metadata);
    },
  );
  say(reader.name, `game shows ${shownAs(reader, sent)}`);
  return sent;
}

/**
 * Lobby chat as the server sees it: the players talk (their character names travel with each message),
 * the server posts as the application, reads the history and marks a message with moderation metadata,
 * which the players' games see on the message.
 */
export async function moderateLobbyChat(
  backend: GameBackend,
  lobbyId: string,
  leader: Player,
  member: Player,
): Promise<void> {
  await chat(member, leader, lobbyId, 'shield wall at the gate, on me!', { channel: 'party' });
  const spam = await chat(leader, member, lobbyId, 'cheap gold at goldz4u dot example, DM me');
  const announcement = await backend.sendLobbyMessage(lobbyId, 'The boss awakens in 30 seconds.', {
    kind: 'system',
  });
  say('backend', `posted as the application: "${announcement.content}" (${pairs(announcement.metadata)})`);

  const history = await backend.getLobbyMessages(lobbyId, 50);
  say('backend', `lobby history, ${history.length} messages, newest first:`);
  for (const message of history) {
    const author = [leader, member].find((p) => p.id === message.authorId);
    const from = author
      ? `${author.name}${message.additionalName ? ` as "${message.additionalName}"` : ''}`
      : 'the application';
    say('backend', `  ${message.id} ${from}: "${message.content}" (metadata ${pairs(message.metadata)})`);
  }

  const verdict = { verdict: 'spam', action: 'hidden', reviewer: 'automod' };
  await seenAfter(
    member.client,
    'messageUpdated',
    (id) =>
      id === spam && Object.keys(member.client.getMessageHandle(id)?.moderationMetadata ?? {}).length > 0,
    () => backend.setLobbyMessageModerationMetadata(lobbyId, spam, verdict),
  );
  say('backend', `moderation metadata on lobby message ${spam}: ${pairs(verdict)}`);
  say(
    member.name,
    `game sees moderation on that message: ${pairs(member.client.getMessageHandle(spam)?.moderationMetadata ?? {})} → hides it`,
  );
}

/**
 * Direct messages: two players of the game may message each other; a player reports one, and the server
 * records its review as moderation metadata on the DM, which both games see.
 */
export async function moderateDirectMessage(backend: GameBackend, from: Player, to: Player): Promise<void> {
  let sent = '';
  await seenAfter(
    to.client,
    'messageCreated',
    (id) => id === sent || to.client.getMessageHandle(id)?.content === 'nice tank, gg',
    async () => {
      sent = await from.client.sendUserMessage(to.id, 'nice tank, gg');
    },
  );
  say(
    to.name,
    `game shows a DM from ${from.name}: "${to.client.getMessageHandle(sent)?.content ?? '?'}"; ${to.name} reports it for review`,
  );
  const review = { verdict: 'ok', toxicity: '0.02' };
  await seenAfter(
    to.client,
    'messageUpdated',
    (id) => id === sent && to.client.getMessageHandle(id)?.moderationMetadata.verdict === 'ok',
    () => backend.setDirectMessageModerationMetadata(from.id, to.id, sent, review),
  );
  say('backend', `moderation metadata on DM ${sent} (${from.name} → ${to.name}): ${pairs(review)}`);
  say(
    to.name,
    `game sees the review on the DM: ${pairs(to.client.getMessageHandle(sent)?.moderationMetadata ?? {})}`,
  );
}

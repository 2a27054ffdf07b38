import type { EmulatorContext } from '../context.js';

/**
 * Relays messages between a lobby and its linked guild channel, both ways: a message sent from the game
 * into a linked lobby is written into the channel (content only: metadata stays in the game), and a chat-app
 * user's message in a linked channel arrives in the lobby as a lobby message not sent from the game. Relayed
 * copies are never relayed back, so nothing loops.
 */
export function wireLobbyRelay(ctx: EmulatorContext): void {
  const { lobbies, guilds, log } = ctx;

  lobbies.on('messageCreated', (lobby, message) => {
    const channelId = lobby.linkedChannelId;
    if (!message.fromGame || channelId === null || !guilds.channel(channelId)) return;
    const copy = guilds.appendMessage(channelId, {
      authorId: message.authorId,
      content: message.content,
      fromLobbyId: lobby.id,
    });
    log.line('lobbies', `message ${message.id} relayed to channel ${channelId} as ${copy.id}`);
  });

  guilds.on('channelMessage', (channelId, record) => {
    if (record.fromLobbyId !== null) return;
    const lobby = lobbies.linkedTo(channelId);
    if (!lobby) return;
    lobbies.postMessage({
      lobbyId: lobby.id,
      authorId: record.authorId,
      content: record.content,
      fromGame: false,
    });
  });
}

import type { DirectMessages } from '../social/DirectMessages.js';
import type { Lobbies } from '../social/Lobbies.js';
import type { WebhookEvents } from './WebhookEvents.js';

/**
 * The lobby and game direct message webhook events. The document says they exist and leaves their names
 * open; these are the platform's: LOBBY_MESSAGE_CREATE / _UPDATE / _DELETE with the lobby message, and
 * GAME_DIRECT_MESSAGE_CREATE / _UPDATE / _DELETE for direct messages sent from the game (through the SDK),
 * as the author sees them. Plain chat-app direct messages are not the game's business and send nothing.
 */
export function wireMessageWebhookEvents(deps: {
  lobbies: Lobbies;
  messages: DirectMessages;
  webhooks: WebhookEvents;
}): void {
  const { lobbies, messages, webhooks } = deps;
  lobbies.on('messageCreated', (_lobby, message) => {
    webhooks.emit('LOBBY_MESSAGE_CREATE', lobbies.wireMessage(message));
  });
  lobbies.on('messageUpdated', (_lobby, message) => {
    webhooks.emit('LOBBY_MESSAGE_UPDATE', lobbies.wireMessage(message));
  });
  lobbies.on('messageDeleted', (lobby, message) => {
    webhooks.emit('LOBBY_MESSAGE_DELETE', { id: message.id, lobby_id: lobby.id });
  });
  messages.on('changed', (kind, record) => {
    if (record.applicationId === null) return;
    if (kind === 'delete') {
      webhooks.emit('GAME_DIRECT_MESSAGE_DELETE', {
        id: record.id,
        author_id: record.authorId,
        recipient_id: record.recipientId,
      });
      return;
    }
    const type = kind === 'create' ? 'GAME_DIRECT_MESSAGE_CREATE' : 'GAME_DIRECT_MESSAGE_UPDATE';
    webhooks.emit(type, messages.wire(record, record.authorId));
  });
}

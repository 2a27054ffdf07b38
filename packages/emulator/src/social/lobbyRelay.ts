import type { EmulatorLog } from '../log.js';
import type { Guilds } from './Guilds.js';
import type { Lobbies } from './Lobbies.js';
import { attachmentUrl } from './AttachmentFiles.js';
import { richFromChannelMessage } from './richContent.js';

/** What {@link wireLobbyRelay} relays between: the lobbies and the guilds' channels. */
export interface LobbyRelayDeps {
  readonly lobbies: Lobbies;
  readonly guilds: Guilds;
  readonly log: EmulatorLog;
  /** Where attachments are served (`urls.http`). */
  readonly urls: { readonly http: string };
}

/**
 * Relays messages between a lobby and its linked guild channel, both ways: a message sent from the game
 * into a linked lobby is written into the channel (content only: metadata stays in the game), and a chat-app
 * user's message in a linked channel arrives in the lobby as a lobby message not sent from the game, with its
 * non-text content (attachments, embeds, a poll, stickers, a voice message, a thread) for the SDK to summarise.
 * Relayed copies are never relayed back, so nothing loops.
 */
export function wireLobbyRelay(ctx: LobbyRelayDeps): void {
  const { lobbies, guilds, log, urls } = ctx;

  lobbies.on('messageCreated', (lobby, message) => {
    const channelId = lobby.linkedChannelId;
    const channel = channelId === null ? undefined : guilds.channel(channelId);
    if (!message.fromGame || !channel) return;
    const copy = guilds.messages.create(channel, {
      authorId: message.authorId,
      content: message.content,
      fromLobbyId: lobby.id,
    });
    log.line('lobbies', `message ${message.id} relayed to channel ${channel.id} as ${copy.id}`);
  });

  guilds.messages.on('channelMessage', (channelId, record) => {
    const lobby = lobbies.linkedTo(channelId);
    if (!lobby) return;
    const rich = richFromChannelMessage(record, (a) => attachmentUrl(urls.http, channelId, a));
    lobbies.postMessage({
      lobbyId: lobby.id,
      authorId: record.authorId,
      content: record.content,
      fromGame: false,
      ...(rich ? { rich } : {}),
    });
  });
}

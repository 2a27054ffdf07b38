import type { SessionContext, SessionFeature } from '../session/SessionContext.js';
import type { MessageEvents } from './MessageEvents.js';
import type { UserStore } from '../social/UserStore.js';
import { ValidationError } from '@sdkpp/protocol';
import { isSnowflake, requireSnowflake } from '../util/snowflake.js';
import { ChannelHandle, ChannelType, type KnownChannel } from './ChannelHandle.js';
import { HistoryLoader } from './HistoryLoader.js';
import { MessageHandle } from './MessageHandle.js';
import { requireContent, requireLimit, requireMetadata } from './messageInput.js';
import { isWireMessage, type MessageStore, type WireMessage } from './MessageStore.js';
import { checkInput } from '../util/checkInput.js';

/** A direct-message conversation: the other user and the newest message's id. */
export interface UserMessageSummary {
  /** The other user in the conversation. */
  userId: string;
  /** The id of the newest message, sent by either user. */
  lastMessageId: string;
}

/**
 * Direct messages: send, edit and delete over HTTP; events from the gateway; history with a local cache
 * that is kept current by those events, so asking again for what is already held makes no request.
 */
export class DirectMessageManager implements SessionFeature {
  readonly #s: SessionContext<MessageEvents>;
  readonly #users: UserStore;
  readonly #messages: MessageStore;
  readonly #channels = new Map<string, KnownChannel>();
  readonly #history: HistoryLoader;

  constructor(session: SessionContext<MessageEvents>, users: UserStore, store: MessageStore) {
    this.#s = session;
    this.#users = users;
    this.#messages = store;
    this.#history = new HistoryLoader(store, session.clock, (userId, limit) =>
      this.#fetchHistory(userId, limit),
    );
  }

  /** A new session began: held conversations are no longer known to be complete. */
  onReady(): void {
    // A new session may have missed events: held conversations can no longer answer alone.
    this.#messages.invalidateConversations();
  }

  /** The client is Disconnected: forget every message, channel and request under way. */
  onDisconnected(): void {
    this.#messages.clear();
    this.#channels.clear();
    this.#history.clear();
  }

  /** MESSAGE_CREATE/UPDATE/DELETE keep the store current and become `messageCreated/Updated/Deleted`. */
  onDispatch(event: string, data: unknown): void {
    if (event === 'MESSAGE_DELETE') {
      const d = data as { id?: unknown; channel_id?: unknown; lobby_id?: unknown } | null;
      if (!isSnowflake(d?.id)) {
        this.#s.log.warn('MESSAGE_DELETE without a message id; ignored');
        return;
      }
      if (d.lobby_id !== undefined) return;
      const known = this.#messages.get(d.id);
      this.#messages.delete(d.id);
      const channelId = typeof d.channel_id === 'string' ? d.channel_id : (known?.channel_id ?? '');
      this.#s.emit('messageDeleted', d.id, channelId);
      return;
    }
    if (event !== 'MESSAGE_CREATE' && event !== 'MESSAGE_UPDATE') return;
    if (!isWireMessage(data)) {
      this.#s.log.warn(`${event} without a message id or channel; ignored`);
      return;
    }
    if (data.lobby_id !== undefined) return;
    this.#accept(data);
    this.#s.emit(event === 'MESSAGE_CREATE' ? 'messageCreated' : 'messageUpdated', data.id);
  }

  /** Sends a direct message; resolves with its id. */
  async send(recipientId: string, content: string, metadata: Record<string, string> = {}): Promise<string> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'send', () => {
      requireSnowflake(recipientId, 'user');
      requireContent(content);
      requireMetadata(metadata);
    });
    const sent = await this.#s.api<unknown>({
      method: 'POST',
      route: `/users/${recipientId}/messages`,
      json: Object.keys(metadata).length > 0 ? { content, metadata } : { content },
    });
    if (!isWireMessage(sent)) {
      this.#s.log.warn('send: the platform replied without a message object');
      throw new ValidationError('the platform returned no message');
    }
    this.#accept(sent);
    return sent.id;
  }

  /** Edits one of the player's messages. */
  async edit(recipientId: string, messageId: string, content: string): Promise<void> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'edit', () => {
      requireSnowflake(recipientId, 'user');
      requireSnowflake(messageId, 'message');
      requireContent(content);
      const known = this.#messages.get(messageId);
      if (known?.author && known.author.id !== this.#s.currentUserId()) {
        throw new ValidationError('only your own messages can be edited');
      }
    });
    const edited = await this.#s.api<unknown>({
      method: 'PATCH',
      route: `/users/${recipientId}/messages/${messageId}`,
      json: { content },
    });
    if (isWireMessage(edited)) this.#accept(edited);
  }

  /** Deletes one of the player's messages. */
  async delete(recipientId: string, messageId: string): Promise<void> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'delete', () => {
      requireSnowflake(recipientId, 'user');
      requireSnowflake(messageId, 'message');
      const known = this.#messages.get(messageId);
      if (known?.author && known.author.id !== this.#s.currentUserId()) {
        throw new ValidationError('only your own messages can be deleted');
      }
    });
    await this.#s.api({ method: 'DELETE', route: `/users/${recipientId}/messages/${messageId}` });
    // Gone for the player at once; MESSAGE_DELETE still announces it (messageDeleted) when it arrives.
    this.#messages.delete(messageId);
  }

  /**
   * The last `limit` messages with a user (at most 200, of the last 72 hours), oldest first. What the client
   * already holds — from an earlier call, kept current by events — is answered without a request.
   */
  async history(userId: string, limit: number): Promise<MessageHandle[]> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'history', () => {
      requireSnowflake(userId, 'user');
      requireLimit(limit);
    });
    const messages = await this.#history.load(userId, limit);
    return messages.map((m) => this.handle(m.id)).filter((h): h is MessageHandle => h !== undefined);
  }

  /** One history request, newest first; the loader puts the reply in the store. */
  async #fetchHistory(userId: string, limit: number): Promise<WireMessage[]> {
    const list = await this.#s.api<unknown>({
      method: 'GET',
      route: `/users/${userId}/messages`,
      query: { limit: String(limit) },
    });
    const wire = Array.isArray(list) ? list.filter(isWireMessage) : [];
    if (!Array.isArray(list) || wire.length !== list.length) {
      this.#s.log.warn('history: the platform sent malformed messages; they were skipped');
    }
    for (const message of wire) {
      this.#noteChannel(message);
      this.#users.upsert(message.author);
    }
    return wire;
  }

  /** The users the player has direct-message conversations with, and the newest message id of each. */
  async summaries(): Promise<UserMessageSummary[]> {
    this.#s.requireReady();
    const list = await this.#s.api<unknown>({ method: 'GET', route: '/partner-sdk/users/@me/channels' });
    if (!Array.isArray(list)) return [];
    return list.flatMap((item) => {
      const { user_id: userId, last_message_id: lastMessageId } = item as Record<string, unknown>;
      return typeof userId === 'string' && typeof lastMessageId === 'string'
        ? [{ userId, lastMessageId }]
        : [];
    });
  }

  /** A known message. */
  handle(messageId: string): MessageHandle | undefined {
    return this.#messages.get(messageId)
      ? new MessageHandle(this.#messages, this.#users, messageId)
      : undefined;
  }

  /**
   * The direct-message channel with a user: one the client has seen, or the channel with any user it knows
   * (its id is theirs), so a conversation can be shown before its first message.
   */
  channel(channelId: string): ChannelHandle | undefined {
    let channel = this.#channels.get(channelId);
    if (!channel && channelId !== this.#s.currentUserId() && this.#users.get(channelId)) {
      channel = { id: channelId, type: ChannelType.EphemeralDm, recipients: [channelId], name: null };
    }
    return channel ? new ChannelHandle(channel, this.#users) : undefined;
  }

  #accept(message: WireMessage): void {
    this.#users.upsert(message.author);
    this.#noteChannel(message);
    this.#messages.put(message, message.channel_id);
  }

  #noteChannel(message: WireMessage): void {
    if (this.#channels.has(message.channel_id)) return;
    this.#channels.set(message.channel_id, {
      id: message.channel_id,
      type: ChannelType.EphemeralDm,
      recipients: [message.channel_id],
      name: null,
    });
  }
}

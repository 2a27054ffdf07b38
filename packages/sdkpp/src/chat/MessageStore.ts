import { isSnowflake } from '../util/snowflake.js';

/** A message as the platform sends it (MESSAGE_CREATE/UPDATE, history). */
export interface WireMessage {
  id: string;
  channel_id: string;
  content?: string;
  author?: { id: string; username?: string };
  recipient_id?: string;
  timestamp?: string;
  edited_timestamp?: string | null;
  flags?: number;
  application_id?: string;
  metadata?: Record<string, string>;
  moderation_metadata?: Record<string, string>;
  additional_name?: string | null;
  lobby_id?: string;
  channel_type?: number;
  activity?: Record<string, unknown>;
  /** Non-text content of a message written in the chat client (summarised as `additionalContent`). */
  attachments?: unknown[];
  embeds?: unknown[];
  poll?: unknown;
  sticker_items?: unknown[];
  thread?: unknown;
  /** Set on the platform's auto-generated disclosure messages. */
  disclosure_type?: number;
}

/** A conversation (a direct-message channel or a lobby) as the client holds it. */
interface Conversation {
  /** Message ids, oldest first. */
  ids: string[];
  /** True when the server said there is nothing older than what is held (within its 72 h window). */
  complete: boolean;
}

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** True for a wire object with a usable id and channel. */
export function isWireMessage(data: unknown): data is WireMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { id, channel_id: channelId } = data as { id?: unknown; channel_id?: unknown };
  return isSnowflake(id) && typeof channelId === 'string';
}

/**
 * The messages the client knows, by id, and the conversations it has fetched, by channel id (the other user's
 * id for a direct message, the lobby id for a lobby), kept current by gateway events so a later history request
 * can be answered without the server.
 */
export class MessageStore {
  readonly #messages = new Map<string, WireMessage>();
  readonly #conversations = new Map<string, Conversation>();
  /** Ids deleted in this session, so a history reply that raced the MESSAGE_DELETE cannot bring them back. */
  readonly #deleted = new Set<string>();

  /** A message by id. */
  get(id: string): WireMessage | undefined {
    return this.#messages.get(id);
  }

  /** Adds or replaces a message; a partial update keeps the fields it leaves out. */
  put(message: WireMessage, channelId?: string): WireMessage | undefined {
    if (this.#deleted.has(message.id)) return undefined;
    const merged = { ...this.#messages.get(message.id), ...message };
    this.#messages.set(message.id, merged);
    // A disclosure is shown once, live: it is not part of the conversation's history, so it stays out of it.
    if (channelId !== undefined && merged.disclosure_type === undefined) {
      const conversation = this.#conversations.get(channelId);
      if (conversation && !conversation.ids.includes(message.id)) {
        conversation.ids.push(message.id);
        conversation.ids.sort(compareIds);
      }
    }
    return merged;
  }

  /** Forgets a message. */
  delete(id: string): void {
    this.#deleted.add(id);
    this.#messages.delete(id);
    for (const conversation of this.#conversations.values()) {
      const index = conversation.ids.indexOf(id);
      if (index >= 0) conversation.ids.splice(index, 1);
    }
  }

  /** Records what a history request returned (newest first, as the server sends it). */
  fill(channelId: string, newestFirst: WireMessage[], requested: number): void {
    const ids = newestFirst.flatMap((m) => this.put(m)?.id ?? []).sort(compareIds);
    const held = this.#conversations.get(channelId);
    const complete = (held?.complete ?? false) || newestFirst.length < requested;
    // Messages of this conversation that arrived by event while the request was in flight (or before it,
    // when no conversation was held yet) are newer than the oldest one returned: they belong to the range.
    const oldest = ids[0];
    const arrived = [...this.#messages.values()]
      .filter((m) => m.channel_id === channelId && m.disclosure_type === undefined)
      .filter((m) => complete || (oldest !== undefined && compareIds(m.id, oldest) >= 0))
      .map((m) => m.id);
    const merged = [...new Set([...(held?.ids ?? []), ...ids, ...arrived])].sort(compareIds);
    this.#conversations.set(channelId, { ids: merged, complete });
  }

  /**
   * The newest `limit` messages of a conversation, oldest first, when the store can answer alone: it holds
   * that many, or it holds the whole history. Otherwise undefined (ask the server).
   */
  cached(channelId: string, limit: number, notBefore: number): WireMessage[] | undefined {
    const conversation = this.#conversations.get(channelId);
    if (!conversation) return undefined;
    const recent = conversation.ids
      .map((id) => this.#messages.get(id))
      .filter((m): m is WireMessage => m !== undefined && Date.parse(m.timestamp ?? '') >= notBefore);
    if (recent.length < limit && !conversation.complete) return undefined;
    return recent.slice(-limit);
  }

  /** Forgets one conversation's completeness (the player left a lobby and may miss its events). */
  forgetConversation(channelId: string): void {
    this.#conversations.delete(channelId);
  }

  /** Forgets every conversation's completeness (after a new session, events may have been missed). */
  invalidateConversations(): void {
    this.#conversations.clear();
  }

  /** Forgets everything. */
  clear(): void {
    this.#messages.clear();
    this.#conversations.clear();
    this.#deleted.clear();
  }
}

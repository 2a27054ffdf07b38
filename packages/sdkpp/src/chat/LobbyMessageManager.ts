import type { SessionContext, SessionFeature } from '../session/SessionContext.js';
import type { MessageEvents } from './MessageEvents.js';
import type { UserStore } from '../social/UserStore.js';
import { ValidationError } from '@sdkpp/protocol';
import { isSnowflake, requireSnowflake } from '../util/snowflake.js';
import { requireContent, requireLimit, requireMetadata } from './messageInput.js';
import { HistoryLoader } from './HistoryLoader.js';
import type { MessageHandle } from './MessageHandle.js';
import { isWireMessage, type MessageStore, type WireMessage } from './MessageStore.js';
import { checkInput } from '../util/checkInput.js';

/**
 * Lobby chat: send over HTTP, LOBBY_MESSAGE_* events from the gateway, and history (at most 200 messages of
 * the last 72 hours, members only) answered from the shared message store when it already holds it.
 */
export class LobbyMessageManager implements SessionFeature {
  readonly #s: SessionContext<MessageEvents>;
  readonly #users: UserStore;
  readonly #messages: MessageStore;
  readonly #isMember: (lobbyId: string) => boolean;
  readonly #handle: (messageId: string) => MessageHandle | undefined;
  readonly #history: HistoryLoader;

  constructor(
    session: SessionContext<MessageEvents>,
    users: UserStore,
    store: MessageStore,
    lobbies: {
      isMember: (lobbyId: string) => boolean;
      handle: (messageId: string) => MessageHandle | undefined;
    },
  ) {
    this.#s = session;
    this.#users = users;
    this.#messages = store;
    this.#isMember = lobbies.isMember;
    this.#handle = lobbies.handle;
    this.#history = new HistoryLoader(store, session.clock, (lobbyId, limit) =>
      this.#fetchHistory(lobbyId, limit),
    );
  }

  /** The client is Disconnected (the shared store is cleared by the DM manager). */
  onDisconnected(): void {
    this.#history.clear();
  }

  /** LOBBY_MESSAGE_CREATE/UPDATE/DELETE keep the store current and become `messageCreated/Updated/Deleted`. */
  onDispatch(event: string, data: unknown): void {
    if (event === 'LOBBY_MESSAGE_DELETE') {
      const d = data as { id?: unknown; lobby_id?: unknown } | null;
      if (!isSnowflake(d?.id) || !isSnowflake(d.lobby_id)) {
        this.#s.log.warn('LOBBY_MESSAGE_DELETE without a message or lobby id; ignored');
        return;
      }
      this.#messages.delete(d.id);
      this.#s.emit('messageDeleted', d.id, d.lobby_id);
      return;
    }
    if (event !== 'LOBBY_MESSAGE_CREATE' && event !== 'LOBBY_MESSAGE_UPDATE') return;
    const message = this.#lobbyMessage(data);
    if (!message) {
      this.#s.log.warn(`${event} without a message id or lobby; ignored`);
      return;
    }
    this.#accept(message);
    this.#s.emit(event === 'LOBBY_MESSAGE_CREATE' ? 'messageCreated' : 'messageUpdated', message.id);
  }

  /** Sends a message to every member of the lobby; resolves with its id. */
  async send(lobbyId: string, content: string, metadata: Record<string, string> = {}): Promise<string> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'sendLobbyMessage', () => {
      requireSnowflake(lobbyId, 'lobby');
      requireContent(content);
      requireMetadata(metadata);
      this.#requireMember(lobbyId);
    });
    const sent = await this.#s.api<unknown>({
      method: 'POST',
      route: `/lobbies/${lobbyId}/messages`,
      json: Object.keys(metadata).length > 0 ? { content, metadata } : { content },
    });
    const message = this.#lobbyMessage(sent, lobbyId);
    if (!message) {
      this.#s.log.warn('sendLobbyMessage: the platform replied without a message object');
      throw new ValidationError('the platform returned no message');
    }
    this.#accept(message);
    return message.id;
  }

  /**
   * The last `limit` messages of a lobby the player is in (at most 200, of the last 72 hours), oldest first.
   * What the client already holds is answered without a request.
   */
  async history(lobbyId: string, limit: number): Promise<MessageHandle[]> {
    this.#s.requireReady();
    checkInput(this.#s.log, 'getLobbyMessagesWithLimit', () => {
      requireSnowflake(lobbyId, 'lobby');
      requireLimit(limit);
      this.#requireMember(lobbyId);
    });
    const messages = await this.#history.load(lobbyId, limit);
    return messages.map((m) => this.#handle(m.id)).filter((h): h is MessageHandle => h !== undefined);
  }

  /** The player left a lobby: events of it stop, so what is held of it is no longer complete. */
  forgetLobby(lobbyId: string): void {
    this.#messages.forgetConversation(lobbyId);
  }

  async #fetchHistory(lobbyId: string, limit: number): Promise<WireMessage[]> {
    const list = await this.#s.api<unknown>({
      method: 'GET',
      route: `/lobbies/${lobbyId}/messages`,
      query: { limit: String(limit) },
    });
    const raw: unknown[] = Array.isArray(list) ? list : [];
    const wire = raw.flatMap((m) => this.#lobbyMessage(m, lobbyId) ?? []);
    if (!Array.isArray(list) || wire.length !== raw.length) {
      this.#s.log.warn('lobby history: the platform sent malformed messages; they were skipped');
    }
    for (const message of wire) this.#users.upsert(message.author);
    return wire;
  }

  /** A lobby message with `lobby_id` and `channel_id` both set to the lobby, or undefined when malformed. */
  #lobbyMessage(data: unknown, expectedLobby?: string): WireMessage | undefined {
    if (!isWireMessage(data)) return undefined;
    const lobbyId = data.lobby_id ?? expectedLobby;
    if (!isSnowflake(lobbyId) || (expectedLobby !== undefined && lobbyId !== expectedLobby)) return undefined;
    return { ...data, lobby_id: lobbyId, channel_id: lobbyId };
  }

  #accept(message: WireMessage): void {
    this.#users.upsert(message.author);
    this.#messages.put(message, message.channel_id);
  }

  #requireMember(lobbyId: string): void {
    if (!this.#isMember(lobbyId)) {
      throw new ValidationError(`the player is not a member of lobby ${lobbyId}`);
    }
  }
}

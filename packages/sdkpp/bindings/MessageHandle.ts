import type {
  ChannelHandle as CoreChannelHandle,
  LobbyHandle as CoreLobbyHandle,
  MessageHandle as CoreMessageHandle,
  UserHandle as CoreUserHandle,
  UserMessageSummary as CoreUserMessageSummary,
} from '../src/index.js';
import type { DisclosureType } from '../src/index.js';
import { AdditionalContent } from './AdditionalContent.js';
import { LobbyHandle } from './LobbyHandle.js';
import { ChannelHandle } from './ChannelHandle.js';
import { idToBigInt } from './ids.js';
import { UserHandle } from './UserHandle.js';

/** @internal What a message handle looks up through its client: users and channels. */
export interface MessageLookups {
  user(id: string): CoreUserHandle | undefined;
  channel(id: string): CoreChannelHandle | undefined;
  lobby(id: string): CoreLobbyHandle | undefined;
}

/** A message, as the C++ SDK's `MessageHandle`; a live view that reflects edits and moderation. */
export class MessageHandle {
  readonly #core: CoreMessageHandle;
  readonly #lookups: MessageLookups;

  /** @internal Created by the client. */
  constructor(core: CoreMessageHandle, lookups: MessageLookups) {
    this.#core = core;
    this.#lookups = lookups;
  }
  /** The message id. */
  Id(): bigint {
    return idToBigInt(this.#core.id);
  }
  /** The text. */
  Content(): string {
    return this.#core.content;
  }
  /** The text without markup replacement (the same as `Content()`: game messages carry plain text). */
  RawContent(): string {
    return this.#core.content;
  }
  /** The author's id. */
  AuthorId(): bigint {
    return idToBigInt(this.#core.authorId);
  }
  /** The author, when the client knows them. */
  Author(): UserHandle | undefined {
    const user = this.#lookups.user(this.#core.authorId);
    return user ? new UserHandle(user) : undefined;
  }
  /** In a direct message, the id of the user it was sent to. */
  RecipientId(): bigint {
    return idToBigInt(this.#core.recipientId);
  }
  /** In a direct message, the user it was sent to, when the client knows them. */
  Recipient(): UserHandle | undefined {
    const user = this.#core.recipientId ? this.#lookups.user(this.#core.recipientId) : undefined;
    return user ? new UserHandle(user) : undefined;
  }
  /** The channel id: in a direct message, the other user's id as the player sees it. */
  ChannelId(): bigint {
    return idToBigInt(this.#core.channelId);
  }
  /** The channel, when the client knows it. */
  Channel(): ChannelHandle | undefined {
    const channel = this.#lookups.channel(this.#core.channelId);
    return channel ? new ChannelHandle(channel) : undefined;
  }
  /** The lobby it was sent in, if it was sent in a lobby the player is still in. */
  Lobby(): LobbyHandle | undefined {
    const lobbyId = this.#core.lobbyId;
    const lobby = lobbyId === null ? undefined : this.#lookups.lobby(lobbyId);
    return lobby ? new LobbyHandle(lobby) : undefined;
  }
  /** When it was sent, ms since the epoch. */
  SentTimestamp(): bigint {
    return BigInt(this.#core.sentTimestamp);
  }
  /** When it was last edited, ms since the epoch, or 0. */
  EditedTimestamp(): bigint {
    return BigInt(this.#core.editedTimestamp);
  }
  /** The application it was sent from (a sibling application's id when it came from one), if any. */
  ApplicationId(): bigint | undefined {
    const id = this.#core.applicationId;
    return id === null ? undefined : idToBigInt(id);
  }
  /** Metadata its sender attached. */
  Metadata(): Map<string, string> {
    return new Map(Object.entries(this.#core.metadata));
  }
  /** Metadata the game backend set for moderation. */
  ModerationMetadata(): Map<string, string> {
    return new Map(Object.entries(this.#core.moderationMetadata));
  }
  /** The author's additional display name (lobby messages only), if any. */
  AdditionalName(): string | undefined {
    return this.#core.additionalName ?? undefined;
  }
  /** True when it was sent from a game rather than a chat client. */
  SentFromGame(): boolean {
    return this.#core.sentFromGame;
  }
  /**
   * What the message holds besides text (attachments, embeds, a poll, stickers, a voice message, a thread),
   * or undefined for text only: render it as "2 additional images" and offer `OpenMessageInDiscord`.
   */
  AdditionalContent(): AdditionalContent | undefined {
    const content = this.#core.additionalContent;
    return content ? new AdditionalContent(content) : undefined;
  }
  /**
   * For an auto-generated message explaining an integration behaviour, which one (`DisclosureTypes`), so the
   * game can render it its own way; undefined for ordinary messages.
   */
  DisclosureType(): DisclosureType | undefined {
    return this.#core.disclosureType ?? undefined;
  }
}

/** One direct-message conversation, as the C++ SDK's `UserMessageSummary`. */
export class UserMessageSummary {
  readonly #core: CoreUserMessageSummary;

  /** @internal Created by the client. */
  constructor(core: CoreUserMessageSummary) {
    this.#core = { ...core };
  }
  /** The other user's id. */
  UserId(): bigint {
    return idToBigInt(this.#core.userId);
  }
  /** The id of the newest message of the conversation. */
  LastMessageId(): bigint {
    return idToBigInt(this.#core.lastMessageId);
  }
}

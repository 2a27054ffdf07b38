import { UserHandle } from '../social/UserHandle.js';
import type { UserStore } from '../social/UserStore.js';
import type { MessageStore, WireMessage } from './MessageStore.js';
import {
  additionalContentOf,
  disclosureTypeOf,
  type AdditionalContent,
  type DisclosureType,
} from './additionalContent.js';

/** Message flag of messages sent from a game through the social SDK. */
const SENT_FROM_GAME_FLAG = 1 << 16;

const time = (iso: string | null | undefined): number => {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(ms) ? ms : 0;
};

/** A live, read-only view of a message; it reflects later edits and moderation. */
export class MessageHandle {
  readonly #messages: MessageStore;
  readonly #users: UserStore;
  /** The message id. */
  readonly id: string;

  /** @internal Handles are created by the client. */
  constructor(messages: MessageStore, users: UserStore, id: string) {
    this.#messages = messages;
    this.#users = users;
    this.id = id;
  }

  get #data(): WireMessage | undefined {
    return this.#messages.get(this.id);
  }

  /** The text. */
  get content(): string {
    return this.#data?.content ?? '';
  }
  /** The author's id. */
  get authorId(): string {
    return this.#data?.author?.id ?? '';
  }
  /** The author, when known. */
  get author(): UserHandle | undefined {
    const id = this.authorId;
    return this.#users.get(id) ? new UserHandle(this.#users, id) : undefined;
  }
  /** In a direct message, the user it was sent to; `''` in a lobby. */
  get recipientId(): string {
    return this.#data?.recipient_id ?? '';
  }
  /** The channel: in a direct message, the other user's id as seen by the player. */
  get channelId(): string {
    return this.#data?.channel_id ?? '';
  }
  /** The lobby the message was sent in, or null for a direct message. */
  get lobbyId(): string | null {
    return this.#data?.lobby_id ?? null;
  }
  /** When it was sent, Unix ms. */
  get sentTimestamp(): number {
    return time(this.#data?.timestamp);
  }
  /** When it was last edited, Unix ms, or 0. */
  get editedTimestamp(): number {
    return time(this.#data?.edited_timestamp);
  }
  /** The application it was sent from; a sibling application's id when it came from one; null from a chat client. */
  get applicationId(): string | null {
    return this.#data?.application_id ?? null;
  }
  /** Metadata its sender attached. */
  get metadata(): Readonly<Record<string, string>> {
    return { ...(this.#data?.metadata ?? {}) };
  }
  /** Metadata the game backend set for moderation (server-side only). */
  get moderationMetadata(): Readonly<Record<string, string>> {
    return { ...(this.#data?.moderation_metadata ?? {}) };
  }
  /** The author's additional display name (e.g. a character name), set server-side for lobby members. */
  get additionalName(): string | null {
    return this.#data?.additional_name ?? null;
  }
  /** True when it was sent from a game rather than a chat client. */
  get sentFromGame(): boolean {
    return ((this.#data?.flags ?? 0) & SENT_FROM_GAME_FLAG) !== 0;
  }
  /**
   * What the message holds besides text (attachments, embeds, a poll, stickers, a voice message, a thread it
   * started: things written in the chat client that a game usually cannot render), or null for text only.
   */
  get additionalContent(): AdditionalContent | null {
    const data = this.#data;
    return data ? additionalContentOf(data) : null;
  }
  /**
   * For an auto-generated message explaining an integration behaviour (e.g. "your messages can be seen on
   * Discord"), which one, so the game can render it its own way; null for ordinary messages.
   */
  get disclosureType(): DisclosureType | null {
    const data = this.#data;
    return data ? disclosureTypeOf(data) : null;
  }

  /** A plain snapshot of every field (what `JSON.stringify` shows). */
  toJSON(): MessageSnapshot {
    return {
      id: this.id,
      content: this.content,
      authorId: this.authorId,
      recipientId: this.recipientId,
      channelId: this.channelId,
      lobbyId: this.lobbyId,
      sentTimestamp: this.sentTimestamp,
      editedTimestamp: this.editedTimestamp,
      applicationId: this.applicationId,
      metadata: { ...this.metadata },
      moderationMetadata: { ...this.moderationMetadata },
      additionalName: this.additionalName,
      sentFromGame: this.sentFromGame,
      additionalContent: this.additionalContent,
      disclosureType: this.disclosureType,
    };
  }
}

/** The plain form of a {@link MessageHandle}. */
export interface MessageSnapshot {
  /** The message id. */
  id: string;
  /** The text. */
  content: string;
  /** The author's id. */
  authorId: string;
  /** In a direct message, the user it was sent to; `''` in a lobby. */
  recipientId: string;
  /** The channel: in a direct message, the other user's id as seen by the player. */
  channelId: string;
  /** The lobby the message was sent in, or null for a direct message. */
  lobbyId: string | null;
  /** When it was sent, Unix ms. */
  sentTimestamp: number;
  /** When it was last edited, Unix ms, or 0. */
  editedTimestamp: number;
  /** The application it was sent from; a sibling application's id when it came from one; null from a chat client. */
  applicationId: string | null;
  /** Metadata its sender attached. */
  metadata: Record<string, string>;
  /** Metadata the game backend set for moderation (server-side only). */
  moderationMetadata: Record<string, string>;
  /** The author's additional display name (e.g. a character name), or null. */
  additionalName: string | null;
  /** True when it was sent from a game rather than a chat client. */
  sentFromGame: boolean;
  /** Non-text content, or null. */
  additionalContent: AdditionalContent | null;
  /** The disclosure it is, or null for an ordinary message. */
  disclosureType: DisclosureType | null;
}

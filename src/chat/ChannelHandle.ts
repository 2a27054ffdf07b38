import type { UserStore } from '../users/UserStore.js';

/** Channel kinds, with the C++ SDK's `ChannelType` values. */
export enum ChannelType {
  GuildText = 0,
  Dm = 1,
  GuildVoice = 2,
  GroupDm = 3,
  GuildCategory = 4,
  GuildNews = 5,
  GuildStore = 6,
  GuildNewsThread = 10,
  GuildPublicThread = 11,
  GuildPrivateThread = 12,
  GuildStageVoice = 13,
  GuildDirectory = 14,
  GuildForum = 15,
  GuildMedia = 16,
  Lobby = 17,
  EphemeralDm = 18,
}

/** What the client knows of a channel. */
export interface KnownChannel {
  id: string;
  type: ChannelType;
  /** For direct messages, the other participant(s). */
  recipients: string[];
  /** A guild channel's or lobby's name; direct messages are named after the other user. */
  name: string | null;
}

/** A read-only view of a channel: a direct-message conversation, a lobby or a guild channel. */
export class ChannelHandle {
  readonly #channel: KnownChannel;
  readonly #users: UserStore;

  /** @internal Handles are created by the client. */
  constructor(channel: KnownChannel, users: UserStore) {
    this.#channel = channel;
    this.#users = users;
  }

  /** The channel id (for a direct message, the other user's id). */
  get id(): string {
    return this.#channel.id;
  }
  /** The kind of channel. */
  get type(): ChannelType {
    return this.#channel.type;
  }
  /** The channel's name; a direct message is named after the other user's display name. */
  get name(): string {
    if (this.#channel.name !== null) return this.#channel.name;
    const other = this.#users.get(this.#channel.recipients[0] ?? '');
    return other ? (other.global_name ?? other.username) : '';
  }
  /** The other participants of a direct message. */
  get recipients(): string[] {
    return [...this.#channel.recipients];
  }
}

import type { UserStore } from '../social/UserStore.js';

/** Channel kinds, with the C++ SDK's `ChannelType` values. */
export enum ChannelType {
  /** A guild's text channel. */
  GuildText = 0,
  /** A direct message between two users. */
  Dm = 1,
  /** A guild's voice channel. */
  GuildVoice = 2,
  /** A direct message between several users. */
  GroupDm = 3,
  /** A guild category that groups other channels. */
  GuildCategory = 4,
  /** A guild announcement channel, whose messages other guilds can follow. */
  GuildNews = 5,
  /** A guild store channel (retired by Discord). */
  GuildStore = 6,
  /** A thread in an announcement channel. */
  GuildNewsThread = 10,
  /** A thread in a text channel that every member can see. */
  GuildPublicThread = 11,
  /** A thread in a text channel that only invited members can see. */
  GuildPrivateThread = 12,
  /** A guild stage channel, a voice channel where only speakers talk. */
  GuildStageVoice = 13,
  /** A hub directory channel listing guilds. */
  GuildDirectory = 14,
  /** A guild forum channel, where each post is a thread. */
  GuildForum = 15,
  /** A guild media channel, where each post is a thread with media. */
  GuildMedia = 16,
  /** A lobby's own text channel. */
  Lobby = 17,
  /** A direct message between users who are not friends or are provisional accounts; its ID is the other user's ID. */
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

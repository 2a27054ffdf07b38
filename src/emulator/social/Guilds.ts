import { TypedEmitter } from '../../util/TypedEmitter.js';
import type { EmulatorLog } from '../log.js';
import type { EmulatorStore } from '../store/Store.js';
import type {
  ChannelMessageRecord,
  ChannelOverwriteRecord,
  GuildChannelRecord,
  GuildRecord,
} from '../store/types.js';
import { ChannelInvites } from './ChannelInvites.js';
import {
  ALL_PERMISSIONS,
  LINK_PERMISSIONS,
  MEMBER_PERMISSIONS,
  Permission,
  channelPermissions,
  guildPermissions,
  hasAll,
} from './permissions.js';

/** Channel types the emulator models. */
export const ChannelKind = { TEXT: 0, VOICE: 2, CATEGORY: 4 } as const;

/** A channel message's content limit, in characters (the platform's). */
export const MAX_CHANNEL_MESSAGE = 2000;

/** A channel of a new guild. */
export interface NewGuildChannel {
  name: string;
  /** 0 text, 2 voice, 4 category. @defaultValue 0 */
  type?: number;
  /** @defaultValue its index among the siblings given before it */
  position?: number;
  /** The name of a category given in the same list, or absent for the top level. */
  parent?: string;
  /** Overwrites by role id (the guild id is @everyone: pass `'@everyone'`) or user id. */
  overwrites?: { id: string; type: 0 | 1; allow?: bigint; deny?: bigint }[];
}

/** What {@link Guilds.create} needs; user ids must exist (the caller resolves names). */
export interface NewGuild {
  name: string;
  ownerId: string;
  /** Members besides the owner, with their guild permissions. */
  members?: { userId: string; permissions: bigint }[];
  /** @defaultValue a single text channel `general` */
  channels?: NewGuildChannel[];
}

/** Events of {@link Guilds}. */
export type GuildEvents = {
  /** A chat-app user wrote in a channel (the admin hook); the lobby relay listens. */
  channelMessage: [channelId: string, record: ChannelMessageRecord];
};

function orderChannels(a: GuildChannelRecord, b: GuildChannelRecord): number {
  return a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0);
}

function checkName(what: string, name: unknown, max: number): string {
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > max) {
    throw new RangeError(`${what} must be 1–${max} characters`);
  }
  return name;
}

/**
 * Guilds, their channels and members, permissions, channel messages and lobby channel invites: what the
 * SDK's linked-channel features read. The rule for permissions is in {@link channelPermissions}.
 */
export class Guilds extends TypedEmitter<GuildEvents> {
  readonly #store: EmulatorStore;
  readonly #log: EmulatorLog;
  /** Lobby channel invites. */
  readonly invites: ChannelInvites;

  constructor(store: EmulatorStore, log: EmulatorLog) {
    super();
    this.#store = store;
    this.#log = log;
    this.invites = new ChannelInvites(store);
  }

  /** A guild by id. */
  guild(id: string): GuildRecord | undefined {
    const guilds = this.#store.state.guilds;
    return Object.hasOwn(guilds, id) ? guilds[id] : undefined;
  }

  /** A channel by id. */
  channel(id: string): GuildChannelRecord | undefined {
    const channels = this.#store.state.channels;
    return Object.hasOwn(channels, id) ? channels[id] : undefined;
  }

  /** Every guild, oldest first. */
  all(): GuildRecord[] {
    return Object.values(this.#store.state.guilds).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** The guilds a user is a member (or the owner) of, oldest first. */
  guildsOf(userId: string): GuildRecord[] {
    return this.all().filter((g) => this.isMember(g.id, userId));
  }

  /** Whether the user is a member (or the owner) of the guild. */
  isMember(guildId: string, userId: string): boolean {
    const guild = this.guild(guildId);
    return guild !== undefined && (guild.ownerId === userId || Object.hasOwn(guild.members, userId));
  }

  /** A guild's channels sorted by position (then id). */
  channelsOf(guildId: string): GuildChannelRecord[] {
    return Object.values(this.#store.state.channels)
      .filter((c) => c.guildId === guildId)
      .sort(orderChannels);
  }

  /** The user's permissions in the guild as a whole (0 for a non-member). */
  guildPermissions(guildId: string, userId: string): bigint {
    const guild = this.guild(guildId);
    return guild ? guildPermissions(guild, userId) : 0n;
  }

  /** The user's permissions in a channel (0 for an unknown channel or a non-member). */
  permissions(userId: string, channelId: string): bigint {
    const channel = this.channel(channelId);
    const guild = channel ? this.guild(channel.guildId) : undefined;
    return channel && guild ? channelPermissions(guild, channel, userId) : 0n;
  }

  /** Whether the user may see the channel. */
  mayView(userId: string, channelId: string): boolean {
    return hasAll(this.permissions(userId, channelId), Permission.VIEW_CHANNEL);
  }

  /** Whether the user may write in the channel. */
  maySend(userId: string, channelId: string): boolean {
    return hasAll(this.permissions(userId, channelId), MEMBER_PERMISSIONS);
  }

  /** Whether the user may link the channel to a lobby: a text channel they may view, write in and manage. */
  mayLink(userId: string, channelId: string): boolean {
    return (
      this.channel(channelId)?.type === ChannelKind.TEXT &&
      hasAll(this.permissions(userId, channelId), LINK_PERMISSIONS)
    );
  }

  /** Whether every member of the channel's guild may view the channel and write in it. */
  openToAllMembers(channelId: string): boolean {
    const channel = this.channel(channelId);
    const guild = channel ? this.guild(channel.guildId) : undefined;
    if (!channel || !guild) return false;
    return [guild.ownerId, ...Object.keys(guild.members)].every((id) => this.maySend(id, channelId));
  }

  /** Creates a guild with its channels; throws a `RangeError` naming the first bad field. */
  create(input: NewGuild): GuildRecord {
    const name = checkName('the guild name', input.name, 100);
    const specs = input.channels ?? [{ name: 'general' }];
    const guild: GuildRecord = {
      id: this.#store.nextId(),
      name,
      ownerId: input.ownerId,
      members: { [input.ownerId]: ALL_PERMISSIONS.toString() },
      createdAt: this.#store.now(),
    };
    for (const m of input.members ?? []) {
      if (m.userId !== input.ownerId) guild.members[m.userId] = m.permissions.toString();
    }
    const channels = this.#buildChannels(guild.id, specs);
    // Only stored once everything is checked, so a bad spec leaves no half-made guild behind.
    this.#store.state.guilds[guild.id] = guild;
    for (const channel of channels) this.#store.state.channels[channel.id] = channel;
    this.#log.line('guilds', `guild ${guild.name} (${guild.id}) created with ${channels.length} channels`);
    return guild;
  }

  #buildChannels(guildId: string, specs: NewGuildChannel[]): GuildChannelRecord[] {
    const built: GuildChannelRecord[] = [];
    const categories = new Map<string, string>();
    const siblings = new Map<string | null, number>();
    for (const spec of specs) {
      const name = checkName('a channel name', spec.name, 100);
      const type = spec.type ?? ChannelKind.TEXT;
      if (!Object.values<number>(ChannelKind).includes(type)) {
        throw new RangeError(`channel "${name}": type must be 0 (text), 2 (voice) or 4 (category)`);
      }
      let parentId: string | null = null;
      if (spec.parent !== undefined) {
        if (type === ChannelKind.CATEGORY) throw new RangeError(`category "${name}" cannot have a parent`);
        parentId = categories.get(spec.parent) ?? null;
        if (parentId === null) {
          throw new RangeError(`channel "${name}": no category "${spec.parent}" before it in the list`);
        }
      }
      const index = siblings.get(parentId) ?? 0;
      siblings.set(parentId, index + 1);
      const position = spec.position ?? index;
      if (!Number.isInteger(position) || position < 0) {
        throw new RangeError(`channel "${name}": position must be an integer ≥ 0`);
      }
      const overwrites: ChannelOverwriteRecord[] = (spec.overwrites ?? []).map((o) => ({
        id: o.id === '@everyone' ? guildId : o.id,
        type: o.type,
        allow: (o.allow ?? 0n).toString(),
        deny: (o.deny ?? 0n).toString(),
      }));
      const channel: GuildChannelRecord = {
        id: this.#store.nextId(),
        guildId,
        name,
        type,
        position,
        parentId,
        overwrites,
      };
      if (type === ChannelKind.CATEGORY) categories.set(name, channel.id);
      built.push(channel);
    }
    return built;
  }

  /** Adds a member, or changes a member's permissions; the owner keeps everything. */
  addMember(guildId: string, userId: string, permissions: bigint = MEMBER_PERMISSIONS): void {
    const guild = this.guild(guildId);
    if (!guild) throw new RangeError(`no guild "${guildId}"`);
    if (guild.ownerId === userId) return;
    guild.members[userId] = permissions.toString();
    this.#log.line('guilds', `user ${userId} is a member of ${guild.name} (permissions ${permissions})`);
  }

  /** Stores a message in a channel without telling anyone: how the lobby relay writes into the channel. */
  appendMessage(
    channelId: string,
    input: { authorId: string; content: string; fromLobbyId: string | null },
  ): ChannelMessageRecord {
    if (!this.channel(channelId)) throw new RangeError(`no channel "${channelId}"`);
    const record: ChannelMessageRecord = {
      id: this.#store.nextId(),
      channelId,
      authorId: input.authorId,
      content: input.content,
      fromLobbyId: input.fromLobbyId,
      createdAt: this.#store.now(),
    };
    this.#store.state.channelMessages[record.id] = record;
    return record;
  }

  /**
   * A chat-app user writes in a channel: stored, then `channelMessage` is emitted (the relay to a linked
   * lobby listens). Throws a `RangeError` when the user may not write there or the content is empty or too long.
   */
  post(channelId: string, authorId: string, content: string): ChannelMessageRecord {
    const channel = this.channel(channelId);
    if (!channel) throw new RangeError(`no channel "${channelId}"`);
    if (channel.type !== ChannelKind.TEXT) throw new RangeError(`#${channel.name} is not a text channel`);
    if (!this.maySend(authorId, channelId)) {
      throw new RangeError(`user ${authorId} may not send messages in #${channel.name}`);
    }
    if (content.length === 0 || content.length > MAX_CHANNEL_MESSAGE) {
      throw new RangeError(`content must be 1–${MAX_CHANNEL_MESSAGE} characters`);
    }
    const record = this.appendMessage(channelId, { authorId, content, fromLobbyId: null });
    this.#log.line('guilds', `user ${authorId} wrote message ${record.id} in #${channel.name}`);
    this.emit('channelMessage', channelId, record);
    return record;
  }

  /** A channel's messages, oldest first. */
  messages(channelId: string): ChannelMessageRecord[] {
    return Object.values(this.#store.state.channelMessages)
      .filter((m) => m.channelId === channelId)
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#log.line(
      'guilds',
      `a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

import { TypedEmitter } from '@sdkpp/protocol';
import { MAX_CHANNEL_MESSAGE } from '../bodies/messageBodies.js';
import type { EmulatorLog } from '../log.js';
import {
  LINK_PERMISSIONS,
  MEMBER_PERMISSIONS,
  Permission,
  hasAll,
  permissionRoleName,
} from '../platform/permissions.js';
import { compareIds } from '../snowflake.js';
import type { EmulatorStore } from '../store/Store.js';
import type {
  ChannelMessageRecord,
  ChannelOverwriteRecord,
  GuildBanRecord,
  GuildChannelRecord,
  GuildMemberRecord,
  GuildRecord,
  RoleRecord,
} from '../store/types.js';
import { ChannelInvites } from './ChannelInvites.js';
import { ChannelMessages, mentionsIn } from './ChannelMessages.js';
import { GuildVoice } from './GuildVoice.js';
import { checkAutoMod } from './autoMod.js';
import { hasExtras, richFromExtras, IS_VOICE_MESSAGE_FLAG, type ChatMessageExtras } from './richContent.js';
import { GuildResources } from './GuildResources.js';
import { Slowmode } from './Slowmode.js';
import { channelPermissions, guildPermissions } from './memberPermissions.js';

/** The most features a guild may be given (a bound on the list; the platform's guilds have a few dozen). */
export const MAX_GUILD_FEATURES = 64;

/** Channel types the emulator models. */
export const ChannelKind = { TEXT: 0, VOICE: 2, CATEGORY: 4 } as const;

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
  /** The @everyone role's permissions. @defaultValue 0: members hold what their roles give */
  everyonePermissions?: bigint;
  /** Members besides the owner, with their guild permissions. */
  members?: { userId: string; permissions: bigint }[];
  /** @defaultValue a single text channel `general` */
  channels?: NewGuildChannel[];
}

/** What Modify Guild may change; absent fields keep their value, null clears an icon or description. */
export interface GuildChange {
  name?: string;
  icon?: string | null;
  description?: string | null;
}

/** Events of {@link Guilds}. */
export type GuildEvents = {
  /** A guild's own fields changed (its name, icon, description or features). */
  guildUpdated: [guild: GuildRecord];
  /** A user joined a guild. */
  memberAdded: [guildId: string, userId: string];
  /** A member's roles (and so permissions), nick or profile changed. */
  memberUpdated: [guildId: string, userId: string];
  /** A member left or was removed; `member` is what it was. */
  memberRemoved: [guildId: string, userId: string, member: GuildMemberRecord];
  /** A user was banned (after its `memberRemoved`, when it was a member). */
  banAdded: [guildId: string, userId: string, ban: GuildBanRecord];
  /** A ban was lifted; `ban` is what it was. */
  banRemoved: [guildId: string, userId: string, ban: GuildBanRecord];
  /** A role was created, changed or deleted (`role` is the old one when deleted). */
  roleCreated: [guildId: string, role: RoleRecord];
  roleUpdated: [guildId: string, role: RoleRecord];
  roleDeleted: [guildId: string, role: RoleRecord];
  /** A channel was created, changed (overwrites included) or deleted (`channel` is the old one when deleted). */
  channelCreated: [channel: GuildChannelRecord];
  channelUpdated: [channel: GuildChannelRecord];
  channelDeleted: [channel: GuildChannelRecord];
};

/** What may change on a channel (`PATCH /channels/{id}`). */
export type ChannelChange = Partial<
  Pick<
    GuildChannelRecord,
    | 'name'
    | 'position'
    | 'parentId'
    | 'overwrites'
    | 'topic'
    | 'nsfw'
    | 'rateLimitPerUser'
    | 'userLimit'
    | 'bitrate'
    | 'rtcRegion'
  >
>;

function orderChannels(a: GuildChannelRecord, b: GuildChannelRecord): number {
  return a.position - b.position || compareIds(a.id, b.id);
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
  /** The channels' messages. */
  readonly messages: ChannelMessages;
  /** Voice states, voice channel status and start time, and the audit log. */
  readonly voice: GuildVoice;
  /** Who wrote last in each slowmode channel. */
  readonly slowmode: Slowmode;
  /** Custom emoji, stickers, soundboard sounds, scheduled events and AutoMod rules. */
  readonly resources: GuildResources;

  constructor(store: EmulatorStore, log: EmulatorLog) {
    super();
    this.#store = store;
    this.#log = log;
    this.invites = new ChannelInvites(store);
    this.messages = new ChannelMessages(store, log);
    this.voice = new GuildVoice({ now: () => store.now(), nextId: () => store.nextId(), log });
    this.slowmode = new Slowmode(() => store.now());
    this.resources = new GuildResources((id) => this.guild(id), log);
  }

  readonly #autoMod = new Map<string, string[]>();

  /** The keywords AutoMod blocks in a guild's messages (lowercase). */
  autoModKeywords(guildId: string): readonly string[] {
    return this.#autoMod.get(guildId) ?? [];
  }

  /** Sets the keywords AutoMod blocks in a guild (matched case-insensitively anywhere in the content). */
  setAutoModKeywords(guildId: string, keywords: readonly string[]): void {
    this.#autoMod.set(
      guildId,
      keywords.map((k) => k.toLowerCase()).filter((k) => k.length > 0),
    );
  }

  /**
   * Sets a guild's features (upper-case names, at most {@link MAX_GUILD_FEATURES}, duplicates dropped); throws a
   * `RangeError` for an unknown guild or a malformed name.
   */
  setFeatures(guildId: string, features: readonly string[]): void {
    const guild = this.#need(guildId);
    const unique = [...new Set(features)];
    if (unique.length > MAX_GUILD_FEATURES) throw new RangeError(`at most ${MAX_GUILD_FEATURES} features`);
    for (const f of unique) {
      if (!/^[A-Z0-9_]{1,64}$/.test(f))
        throw new RangeError(`"${f.slice(0, 70)}" is not a guild feature name`);
    }
    guild.features = unique;
    this.emit('guildUpdated', guild);
    this.#log.line('guilds', `${guild.name} has the features ${unique.join(', ') || '(none)'}`);
  }

  /**
   * Changes a guild's name, icon hash or description (null clears the last two) and tells listeners
   * (GUILD_UPDATE to bots, GUILD_STATUS to the desktop client's subscribers). Throws a `RangeError` for an
   * unknown guild.
   */
  updateGuild(guildId: string, change: GuildChange): GuildRecord {
    const guild = this.#need(guildId);
    if (change.name !== undefined) guild.name = change.name;
    if (change.icon !== undefined) {
      if (change.icon === null) delete guild.icon;
      else guild.icon = change.icon;
    }
    if (change.description !== undefined) {
      if (change.description === null) delete guild.description;
      else guild.description = change.description;
    }
    this.emit('guildUpdated', guild);
    this.#log.line('guilds', `${guild.name} (${guild.id}) was modified`);
    return guild;
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
    return guild !== undefined && Object.hasOwn(guild.members, userId);
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
    // Bots are members too, but the question is about the people who would read a linked lobby's messages.
    return Object.keys(guild.members)
      .filter((id) => this.#store.user(id)?.bot !== true)
      .every((id) => this.maySend(id, channelId));
  }

  /** Creates a guild with its channels; throws a `RangeError` naming the first bad field. */
  create(input: NewGuild): GuildRecord {
    const name = checkName('the guild name', input.name, 100);
    const specs = input.channels ?? [{ name: 'general' }];
    const id = this.#store.nextId();
    const everyone: RoleRecord = {
      id,
      name: '@everyone',
      permissions: (input.everyonePermissions ?? 0n).toString(),
      position: 0,
      color: 0,
      hoist: false,
      mentionable: false,
      botId: null,
    };
    const guild: GuildRecord = {
      id,
      name,
      ownerId: input.ownerId,
      members: { [input.ownerId]: this.#newMember([]) },
      roles: { [id]: everyone },
      createdAt: this.#store.now(),
    };
    for (const m of input.members ?? []) {
      if (m.userId !== input.ownerId)
        guild.members[m.userId] = this.#newMember([this.#permissionRole(guild, m.permissions).id]);
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

  /**
   * Adds a member, or changes a member's permissions: the admin hooks' shorthand, which gives the member the
   * guild's role for exactly those bits (made on first use, named by {@link permissionRoleName}) in place of
   * its other unmanaged roles. The owner keeps everything.
   */
  addMember(guildId: string, userId: string, permissions: bigint = MEMBER_PERMISSIONS): void {
    const guild = this.#need(guildId);
    if (guild.ownerId === userId) return;
    const existing = this.member(guildId, userId);
    // Every way into a guild ends here, so a ban holds whichever one is tried.
    if (!existing && this.isBanned(guildId, userId)) {
      throw new RangeError(`user ${userId} is banned from ${guild.name}`);
    }
    const role = this.#permissionRole(guild, permissions);
    if (existing) {
      existing.roles = [...existing.roles.filter((r) => guild.roles[r]?.botId), role.id];
      this.emit('memberUpdated', guildId, userId);
    } else {
      guild.members[userId] = this.#newMember([role.id]);
      this.emit('memberAdded', guildId, userId);
    }
    this.#log.line('guilds', `user ${userId} is a member of ${guild.name} (permissions ${permissions})`);
  }

  /**
   * Adds the application's bot with its own managed role holding `permissions` (what the OAuth2 `bot` scope's
   * `permissions` asks for), or changes that role's permissions when the bot is already in.
   */
  addBot(guildId: string, botId: string, botName: string, permissions: bigint): void {
    const guild = this.#need(guildId);
    const own = Object.values(guild.roles).find((r) => r.botId === botId);
    if (own) {
      own.permissions = permissions.toString();
      this.emit('roleUpdated', guildId, own);
    } else {
      const role = this.#addRole(guild, { name: botName, permissions, botId });
      this.emit('roleCreated', guildId, role);
    }
    const role = Object.values(guild.roles).find((r) => r.botId === botId);
    if (!this.member(guildId, botId) && role) {
      guild.members[botId] = this.#newMember([role.id]);
      this.emit('memberAdded', guildId, botId);
    }
    this.#log.line('guilds', `the bot is in ${guild.name} (permissions ${permissions})`);
  }

  /** A guild member by user id. */
  member(guildId: string, userId: string): GuildMemberRecord | undefined {
    const guild = this.guild(guildId);
    return guild && Object.hasOwn(guild.members, userId) ? guild.members[userId] : undefined;
  }

  /** Removes a member (not the owner); returns whether there was one. */
  removeMember(guildId: string, userId: string): boolean {
    const guild = this.#need(guildId);
    const member = this.member(guildId, userId);
    if (!member || guild.ownerId === userId) return false;
    Reflect.deleteProperty(guild.members, userId);
    this.emit('memberRemoved', guildId, userId, member);
    this.#log.line('guilds', `user ${userId} left ${guild.name}`);
    return true;
  }

  /** Whether the user is banned from the guild. */
  isBanned(guildId: string, userId: string): boolean {
    return this.banOf(guildId, userId) !== undefined;
  }

  /** A user's ban from a guild. */
  banOf(guildId: string, userId: string): GuildBanRecord | undefined {
    const bans = this.guild(guildId)?.bans;
    return bans && Object.hasOwn(bans, userId) && this.#store.user(userId) ? bans[userId] : undefined;
  }

  /**
   * A guild's bans by user id, oldest user first. A ban whose user was deleted since (a provisional account
   * merged away) is dropped here and on every ban and unban, so the map holds only users that exist.
   */
  bansOf(guildId: string): { userId: string; ban: GuildBanRecord }[] {
    const guild = this.guild(guildId);
    return Object.entries((guild && this.#liveBans(guild)) ?? {})
      .sort(([a], [b]) => compareIds(a, b))
      .map(([userId, ban]) => ({ userId, ban }));
  }

  /**
   * The guild's bans after dropping those of deleted users; a guild left without bans loses the field, so it
   * keeps the shape it had before bans existed, as older saved states have it.
   */
  #liveBans(guild: GuildRecord): Record<string, GuildBanRecord> | undefined {
    const bans = guild.bans;
    if (!bans) return undefined;
    for (const userId of Object.keys(bans)) {
      if (!this.#store.user(userId)) Reflect.deleteProperty(bans, userId);
    }
    if (Object.keys(bans).length > 0) return bans;
    Reflect.deleteProperty(guild, 'bans');
    return undefined;
  }

  /**
   * Bans a user, a member or not (not the owner, not an unknown user: `RangeError`): a member is removed
   * first (`memberRemoved`), then `banAdded` follows. Returns false, changing nothing, for a user already
   * banned. The caller checks the hierarchy.
   */
  ban(guildId: string, userId: string, reason: string | null): boolean {
    const guild = this.#need(guildId);
    if (!this.#store.user(userId)) throw new RangeError(`no user "${userId}"`);
    if (guild.ownerId === userId) throw new RangeError(`the owner of ${guild.name} cannot be banned`);
    if (this.isBanned(guildId, userId)) return false;
    const ban: GuildBanRecord = { reason };
    const bans = this.#liveBans(guild) ?? {};
    bans[userId] = ban;
    guild.bans = bans;
    this.removeMember(guildId, userId);
    this.#log.line('guilds', `user ${userId} banned from ${guild.name}`);
    this.emit('banAdded', guildId, userId, ban);
    return true;
  }

  /** Lifts a ban; `banRemoved` follows. Returns whether there was one. */
  unban(guildId: string, userId: string): boolean {
    const guild = this.#need(guildId);
    const ban = this.banOf(guildId, userId);
    if (!ban || !guild.bans) return false;
    Reflect.deleteProperty(guild.bans, userId);
    this.#liveBans(guild);
    this.#log.line('guilds', `user ${userId} unbanned from ${guild.name}`);
    this.emit('banRemoved', guildId, userId, ban);
    return true;
  }

  /**
   * Deletes what a user wrote in a guild's channels at or after `since` (Unix ms), each with its own
   * `messageDeleted`, as a ban's `delete_message_seconds` does; returns how many.
   */
  deleteMessagesOf(guildId: string, authorId: string, since: number): number {
    const channels = new Set(this.channelsOf(guildId).map((c) => c.id));
    const doomed = Object.values(this.#store.state.channelMessages)
      .filter((m) => m.authorId === authorId && m.createdAt >= since && channels.has(m.channelId))
      .sort((a, b) => compareIds(a.id, b.id));
    for (const record of doomed) this.messages.delete(record);
    return doomed.length;
  }

  /** A role by id (the guild id is @everyone). */
  role(guildId: string, roleId: string): RoleRecord | undefined {
    const guild = this.guild(guildId);
    return guild && Object.hasOwn(guild.roles, roleId) ? guild.roles[roleId] : undefined;
  }

  /** A guild's roles by position, then id. */
  rolesOf(guildId: string): RoleRecord[] {
    const guild = this.guild(guildId);
    if (!guild) return [];
    return Object.values(guild.roles).sort((a, b) => a.position - b.position || compareIds(a.id, b.id));
  }

  /** Creates a role at the top of the list; `roleCreated` follows. */
  createRole(
    guildId: string,
    input: {
      name: string;
      permissions: bigint;
      color?: number;
      secondaryColor?: number | null;
      tertiaryColor?: number | null;
      hoist?: boolean;
      mentionable?: boolean;
    },
  ): RoleRecord {
    const guild = this.#need(guildId);
    const role = this.#addRole(guild, { ...input, botId: null });
    this.emit('roleCreated', guildId, role);
    this.#log.line('guilds', `role ${role.name} (${role.id}) created in ${guild.name}`);
    return role;
  }

  /** Changes a role in place; `roleUpdated` follows. Throws a `RangeError` for a blank or too long name. */
  updateRole(guildId: string, role: RoleRecord, change: Partial<Omit<RoleRecord, 'id' | 'botId'>>): void {
    if (change.name !== undefined) checkName('a role name', change.name, 100);
    Object.assign(role, change);
    this.emit('roleUpdated', guildId, role);
  }

  /** Deletes a role (not @everyone) and takes it from every member; `roleDeleted` follows. */
  deleteRole(guildId: string, roleId: string): boolean {
    const guild = this.#need(guildId);
    const role = this.role(guildId, roleId);
    if (!role || roleId === guildId) return false;
    Reflect.deleteProperty(guild.roles, roleId);
    for (const [userId, member] of Object.entries(guild.members)) {
      if (member.roles.includes(roleId)) {
        member.roles = member.roles.filter((r) => r !== roleId);
        this.emit('memberUpdated', guildId, userId);
      }
    }
    this.emit('roleDeleted', guildId, role);
    return true;
  }

  /** Changes a member's nick or profile (not its roles); `memberUpdated` follows. */
  updateMember(
    guildId: string,
    userId: string,
    change: Partial<Omit<GuildMemberRecord, 'roles' | 'joinedAt'>>,
  ): void {
    const member = this.member(guildId, userId);
    if (!member) throw new RangeError(`user ${userId} is not a member of guild ${guildId}`);
    Object.assign(member, change);
    this.emit('memberUpdated', guildId, userId);
  }

  /** Sets a member's unmanaged roles (unknown ids are dropped); `memberUpdated` follows. */
  setMemberRoles(guildId: string, userId: string, roles: string[]): void {
    const member = this.member(guildId, userId);
    if (!member) throw new RangeError(`user ${userId} is not a member of guild ${guildId}`);
    // A managed role (a bot's own) stays with its member whatever the list says, as on the platform.
    const managed = member.roles.filter(
      (r) => this.role(guildId, r)?.botId !== null && this.role(guildId, r),
    );
    const wanted = roles.filter((r) => r !== guildId && this.role(guildId, r)?.botId === null);
    member.roles = [...new Set([...managed, ...wanted])];
    this.emit('memberUpdated', guildId, userId);
  }

  /** How many members hold each role (besides @everyone), by role id; roles nobody holds count 0. */
  roleMemberCounts(guildId: string): Record<string, number> {
    const guild = this.#need(guildId);
    const counts: Record<string, number> = {};
    for (const role of Object.values(guild.roles)) if (role.id !== guildId) counts[role.id] = 0;
    for (const member of Object.values(guild.members)) {
      for (const r of member.roles) if (Object.hasOwn(counts, r)) counts[r] = (counts[r] ?? 0) + 1;
    }
    return counts;
  }

  #need(guildId: string): GuildRecord {
    const guild = this.guild(guildId);
    if (!guild) throw new RangeError(`no guild "${guildId}"`);
    return guild;
  }

  #newMember(roles: string[]): GuildMemberRecord {
    return { roles, nick: null, joinedAt: this.#store.now(), avatar: null, banner: null, bio: null };
  }

  #addRole(
    guild: GuildRecord,
    input: {
      name: string;
      permissions: bigint;
      botId: string | null;
      color?: number;
      secondaryColor?: number | null;
      tertiaryColor?: number | null;
      hoist?: boolean;
      mentionable?: boolean;
    },
  ): RoleRecord {
    const top = Math.max(0, ...Object.values(guild.roles).map((r) => r.position));
    const role: RoleRecord = {
      id: this.#store.nextId(),
      name: checkName('a role name', input.name, 100),
      permissions: input.permissions.toString(),
      position: top + 1,
      color: input.color ?? 0,
      // Only a gradient role carries these, so a solid one is saved as before gradients.
      ...(input.secondaryColor == null ? {} : { secondaryColor: input.secondaryColor }),
      ...(input.tertiaryColor == null ? {} : { tertiaryColor: input.tertiaryColor }),
      hoist: input.hoist ?? false,
      mentionable: input.mentionable ?? false,
      botId: input.botId,
    };
    guild.roles[role.id] = role;
    return role;
  }

  /** The guild's shorthand role for exactly `bits` (see {@link Guilds.addMember}), made on first use. */
  #permissionRole(guild: GuildRecord, bits: bigint): RoleRecord {
    const name = permissionRoleName(bits);
    const found = Object.values(guild.roles).find(
      (r) => r.botId === null && r.name === name && r.permissions === bits.toString(),
    );
    if (found) return found;
    const role = this.#addRole(guild, { name, permissions: bits, botId: null });
    this.emit('roleCreated', guild.id, role);
    return role;
  }

  /**
   * Creates a channel in a guild. A channel made inside a category without overwrites of its own starts with
   * the category's (the platform "syncs" it). `channelCreated` follows.
   */
  createChannel(
    guildId: string,
    input: { name: string; type: number; parentId: string | null; position?: number } & ChannelChange,
  ): GuildChannelRecord {
    const guild = this.#need(guildId);
    const parent = input.parentId === null ? undefined : this.channel(input.parentId);
    const channel: GuildChannelRecord = {
      id: this.#store.nextId(),
      guildId,
      name: checkName('a channel name', input.name, 100),
      type: input.type,
      position:
        input.position ?? this.channelsOf(guildId).filter((c) => c.parentId === input.parentId).length,
      parentId: input.parentId,
      overwrites: (input.overwrites ?? parent?.overwrites ?? []).map((o) => ({ ...o })),
      ...(input.type === ChannelKind.TEXT
        ? {
            topic: input.topic ?? null,
            nsfw: input.nsfw ?? false,
            rateLimitPerUser: input.rateLimitPerUser ?? 0,
          }
        : {}),
    };
    this.#store.state.channels[channel.id] = channel;
    this.#log.line('guilds', `channel #${channel.name} (${channel.id}) created in ${guild.name}`);
    this.emit('channelCreated', channel);
    return channel;
  }

  /** Changes a channel in place; `channelUpdated` follows. Throws a `RangeError` for a blank or too long name. */
  updateChannel(channel: GuildChannelRecord, change: ChannelChange): void {
    if (change.name !== undefined) checkName('a channel name', change.name, 100);
    for (const [key, value] of Object.entries(change)) {
      if (value !== undefined) (channel as unknown as Record<string, unknown>)[key] = value;
    }
    this.emit('channelUpdated', channel);
  }

  /**
   * Deletes a channel with its messages; the channels of a deleted category move to the top level, each
   * with its own `channelUpdated`. `channelDeleted` follows.
   */
  deleteChannel(channelId: string): GuildChannelRecord | undefined {
    const channel = this.channel(channelId);
    if (!channel) return undefined;
    Reflect.deleteProperty(this.#store.state.channels, channelId);
    this.messages.dropChannel(channelId);
    for (const child of this.channelsOf(channel.guildId).filter((c) => c.parentId === channelId)) {
      this.updateChannel(child, { parentId: null });
    }
    this.#log.line('guilds', `channel #${channel.name} (${channel.id}) deleted`);
    this.emit('channelDeleted', channel);
    return channel;
  }

  /**
   * A chat-app user writes in a channel (the admin hook): stored, then relayed to a linked lobby. Throws a
   * `RangeError` when the user may not write there or the content is empty or too long, and its
   * `SlowmodeError` subclass within the channel's slowmode window, its `AutoModError` subclass when an AutoMod
   * rule blocks the content or quarantines the member.
   */
  post(
    channelId: string,
    authorId: string,
    content: string,
    extras?: ChatMessageExtras,
  ): ChannelMessageRecord {
    const channel = this.channel(channelId);
    if (!channel) throw new RangeError(`no channel "${channelId}"`);
    if (channel.type !== ChannelKind.TEXT) throw new RangeError(`#${channel.name} is not a text channel`);
    if (!this.maySend(authorId, channelId)) {
      throw new RangeError(`user ${authorId} may not send messages in #${channel.name}`);
    }
    // A message with attachments, embeds, a poll, stickers or a voice recording may have no text.
    const minimum = hasExtras(extras) ? 0 : 1;
    if (content.length < minimum || content.length > MAX_CHANNEL_MESSAGE) {
      throw new RangeError(`content must be ${minimum}–${MAX_CHANNEL_MESSAGE} characters`);
    }
    const author = this.#store.user(authorId);
    const bot = author?.bot === true;
    const held = this.permissions(authorId, channelId);
    const guild = this.guild(channel.guildId);
    // AutoMod first: a refused send does not count against the slowmode window.
    if (author && guild && !bot) checkAutoMod(guild, channel.id, author, held, content);
    if (!Slowmode.exempt(held, bot)) {
      this.slowmode.check(channel.id, authorId, channel.rateLimitPerUser ?? 0);
    }
    const mentions = mentionsIn(content);
    return this.messages.create(channel, {
      authorId,
      content,
      fromLobbyId: null,
      mentions: mentions.users,
      mentionRoles: mentions.roles,
      ...this.#extrasFields(extras),
    });
  }

  /**
   * A chat-app user's non-text content as channel-message fields: each attachment (the voice recording too) is
   * an empty file served like an upload's, so its URL answers.
   */
  #extrasFields(extras: ChatMessageExtras | undefined): Partial<ChannelMessageRecord> {
    const rich = richFromExtras(extras, () => this.#store.nextId());
    if (!rich) return {};
    const attachments = rich.attachments.map((a) => {
      this.messages.files.put(a.id, { bytes: Buffer.alloc(0), contentType: a.contentType });
      return { ...a, description: null, spoiler: false };
    });
    return {
      attachments: attachments.map(({ url: _url, ...a }) => a),
      embeds: rich.embeds,
      ...(rich.pollQuestion === null
        ? {}
        : { poll: { question: { text: rich.pollQuestion }, answers: [], allow_multiselect: false } }),
      stickers: rich.stickers,
      thread: rich.thread,
      flags: rich.voiceMessage ? IS_VOICE_MESSAGE_FLAG : 0,
    };
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#log.line(
      'guilds',
      `a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

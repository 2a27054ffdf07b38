import { wireUser } from '../accounts/userObject.js';
import { Permission } from '../platform/permissions.js';
import type { Guilds } from '../social/Guilds.js';
import { wireEmoji, wireSticker } from './resourceWire.js';
import type {
  GuildChannelRecord,
  GuildMemberRecord,
  GuildRecord,
  RoleRecord,
  UserRecord,
} from '../store/types.js';

/** Channel flag CHANNEL_OBFUSCATED (the document's 1 << 17). */
export const CHANNEL_OBFUSCATED = 1 << 17;

/** The name an obfuscated channel carries (the document's literal). */
export const HIDDEN_CHANNEL_NAME = '___hidden___';

/** A role as the API sends it; `color` is deprecated but still sent, beside `colors`. */
export function wireRole(role: RoleRecord): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    color: role.color,
    colors: {
      primary_color: role.color,
      secondary_color: role.secondaryColor ?? null,
      tertiary_color: role.tertiaryColor ?? null,
    },
    hoist: role.hoist,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions,
    managed: role.botId !== null,
    mentionable: role.mentionable,
    flags: 0,
    ...(role.botId === null ? {} : { tags: { bot_id: role.botId } }),
  };
}

/** The role partial of channel invites: only id, name, position, color, colors, icon and unicode_emoji. */
export function wireRolePartial(role: RoleRecord): Record<string, unknown> {
  const { id, name, position, color, colors, icon, unicode_emoji: emoji } = wireRole(role);
  return { id, name, position, color, colors, icon, unicode_emoji: emoji };
}

/** A guild member; `user` is included unless the member sits inside an object that names the user already. */
export function wireMember(
  member: GuildMemberRecord,
  user: UserRecord | undefined,
  options: { withUser?: boolean; guildId?: string } = {},
): Record<string, unknown> {
  return {
    ...(options.withUser === false || !user ? {} : { user: wireUser(user) }),
    nick: member.nick,
    avatar: member.avatar,
    banner: member.banner,
    bio: member.bio,
    roles: [...member.roles],
    joined_at: new Date(member.joinedAt).toISOString(),
    premium_since: null,
    deaf: member.deaf ?? false,
    mute: member.mute ?? false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
    ...(options.guildId === undefined ? {} : { guild_id: options.guildId }),
  };
}

/** A guild channel with full data. */
export function wireChannel(
  channel: GuildChannelRecord,
  lastMessageId: string | null,
): Record<string, unknown> {
  const common = {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guildId,
    name: channel.name,
    position: channel.position,
    parent_id: channel.parentId,
    permission_overwrites: channel.overwrites.map((o) => ({ ...o })),
    flags: 0,
  };
  if (channel.type === 2) {
    return {
      ...common,
      bitrate: channel.bitrate ?? 64_000,
      user_limit: channel.userLimit ?? 0,
      rtc_region: channel.rtcRegion ?? null,
      nsfw: false,
    };
  }
  if (channel.type === 4) return common;
  return {
    ...common,
    topic: channel.topic ?? null,
    nsfw: channel.nsfw ?? false,
    rate_limit_per_user: channel.rateLimitPerUser ?? 0,
    last_message_id: lastMessageId,
  };
}

/**
 * A channel obfuscated for a bot that cannot view it: the name is `___hidden___`, the flags carry
 * CHANNEL_OBFUSCATED, and the only overwrite denies VIEW_CHANNEL to @everyone (the document's three rules).
 * The document leaves the other fields open; the emulator keeps what places the channel (id, type, guild,
 * position, parent) and nulls what would tell about its content (topic, last message).
 */
export function obfuscatedChannel(channel: GuildChannelRecord): Record<string, unknown> {
  return {
    ...wireChannel(channel, null),
    name: HIDDEN_CHANNEL_NAME,
    flags: CHANNEL_OBFUSCATED,
    permission_overwrites: [
      { id: channel.guildId, type: 0, allow: '0', deny: Permission.VIEW_CHANNEL.toString() },
    ],
    ...(channel.type === 0 ? { topic: null, last_message_id: null } : {}),
  };
}

/** The guild object without the GUILD_CREATE extras (`GET /guilds/{id}`, GUILD_UPDATE). */
export function wireGuild(guild: GuildRecord, guilds: Guilds): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon ?? null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: guild.description ?? null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: guilds.rolesOf(guild.id).map(wireRole),
    emojis: guilds.resources.list(guild.id, 'emojis').map((e) => wireEmoji(e)),
    stickers: guilds.resources.list(guild.id, 'stickers').map((s) => wireSticker(s, guild.id)),
    features: [...(guild.features ?? [])],
    mfa_level: 0,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    max_members: 500_000,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: 'en-US',
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
  };
}

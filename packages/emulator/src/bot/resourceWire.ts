import { wireUser } from '../accounts/userObject.js';
import type {
  AutoModRuleRecord,
  GuildEmojiRecord,
  GuildStickerRecord,
  ScheduledEventRecord,
  SoundboardSoundRecord,
  UserRecord,
} from '../store/types.js';

/** A guild's custom emoji; `user` (who made it) only where the platform sends it. */
export function wireEmoji(e: GuildEmojiRecord, user?: UserRecord): Record<string, unknown> {
  return {
    id: e.id,
    name: e.name,
    roles: [...e.roles],
    ...(user ? { user: wireUser(user) } : {}),
    require_colons: true,
    managed: false,
    animated: e.animated,
    available: true,
  };
}

/** A guild sticker (type 2 GUILD). */
export function wireSticker(
  s: GuildStickerRecord,
  guildId: string,
  user?: UserRecord,
): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    tags: s.tags,
    type: 2,
    format_type: s.formatType,
    available: true,
    guild_id: guildId,
    ...(user ? { user: wireUser(user) } : {}),
  };
}

/** A soundboard sound: a guild's (`guildId`) or a default one (`guildId` null, user absent). */
export function wireSound(
  s: SoundboardSoundRecord,
  guildId: string | null,
  user?: UserRecord,
): Record<string, unknown> {
  return {
    name: s.name,
    sound_id: s.id,
    volume: s.volume,
    emoji_id: s.emojiId,
    emoji_name: s.emojiName,
    ...(guildId === null ? {} : { guild_id: guildId }),
    available: true,
    ...(user ? { user: wireUser(user) } : {}),
  };
}

/** A guild scheduled event. */
export function wireScheduledEvent(
  e: ScheduledEventRecord,
  guildId: string,
  creator?: UserRecord,
): Record<string, unknown> {
  return {
    id: e.id,
    guild_id: guildId,
    channel_id: e.channelId,
    creator_id: e.creatorId,
    name: e.name,
    description: e.description,
    scheduled_start_time: new Date(e.startsAt).toISOString(),
    scheduled_end_time: e.endsAt === null ? null : new Date(e.endsAt).toISOString(),
    privacy_level: 2,
    status: e.status,
    entity_type: e.entityType,
    entity_id: null,
    entity_metadata: e.location === null ? null : { location: e.location },
    ...(creator ? { creator: wireUser(creator) } : {}),
    user_count: 0,
    image: null,
    recurrence_rule: null,
  };
}

/** An AutoMod rule; keyword triggers carry `keyword_filter`, `regex_patterns` (none) and `allow_list`. */
export function wireAutoModRule(r: AutoModRuleRecord, guildId: string): Record<string, unknown> {
  return {
    id: r.id,
    guild_id: guildId,
    name: r.name,
    creator_id: r.creatorId,
    event_type: r.eventType,
    trigger_type: r.triggerType,
    trigger_metadata: { keyword_filter: [...r.keywords], regex_patterns: [], allow_list: [...r.allowList] },
    actions: r.actions.map((a) => ({ type: a.type, metadata: { ...a.metadata } })),
    enabled: r.enabled,
    exempt_roles: [...r.exemptRoles],
    exempt_channels: [...r.exemptChannels],
  };
}

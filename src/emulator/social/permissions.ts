import type { GuildChannelRecord, GuildRecord } from '../store/types.js';

/** Permission bits the emulator checks (the platform's values). */
export const Permission = {
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
} as const;

/** Every permission bit the platform defines today; what the owner and administrators hold. */
export const ALL_PERMISSIONS = (1n << 51n) - 1n;

/** What a member gets by default and by redeeming an invite: see and write, nothing more. */
export const MEMBER_PERMISSIONS = Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES;

/** What linking a channel to a lobby takes (contract: view, send and manage the channel). */
export const LINK_PERMISSIONS =
  Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES | Permission.MANAGE_CHANNELS;

/** A permissions bitfield from its decimal string; anything malformed counts as no permission. */
export function parsePermissions(value: string | undefined): bigint {
  return value !== undefined && /^[0-9]{1,20}$/.test(value) ? BigInt(value) : 0n;
}

/** True when every bit of `wanted` is in `held`. */
export function hasAll(held: bigint, wanted: bigint): boolean {
  return (held & wanted) === wanted;
}

/** A user's permissions in the guild as a whole: none for a non-member, everything for the owner and admins. */
export function guildPermissions(guild: GuildRecord, userId: string): bigint {
  if (guild.ownerId === userId) return ALL_PERMISSIONS;
  if (!Object.hasOwn(guild.members, userId)) return 0n;
  const base = parsePermissions(guild.members[userId]);
  return hasAll(base, Permission.ADMINISTRATOR) ? ALL_PERMISSIONS : base;
}

/**
 * A user's permissions in one channel. The emulator's rule (a simplification of the platform's, which has
 * roles): the owner and ADMINISTRATOR hold everything; otherwise the member's guild permissions, then the
 * channel's @everyone overwrite (its id is the guild id) takes away `deny` and adds `allow`, then the user's
 * own overwrite does the same. A channel has only its own overwrites: a category's overwrites are not
 * inherited at check time (the platform copies them when a channel is "synced", which the emulator does not
 * model). Without VIEW_CHANNEL a user holds nothing in the channel, as on the platform.
 */
export function channelPermissions(guild: GuildRecord, channel: GuildChannelRecord, userId: string): bigint {
  const base = guildPermissions(guild, userId);
  if (base === 0n || base === ALL_PERMISSIONS) return base;
  let held = base;
  const apply = (id: string, type: 0 | 1): void => {
    const overwrite = channel.overwrites.find((o) => o.id === id && o.type === type);
    if (!overwrite) return;
    held &= ~parsePermissions(overwrite.deny);
    held |= parsePermissions(overwrite.allow);
  };
  apply(guild.id, 0);
  apply(userId, 1);
  return hasAll(held, Permission.VIEW_CHANNEL) ? held : 0n;
}

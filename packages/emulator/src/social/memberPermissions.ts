import { ALL_PERMISSIONS, hasAll, parsePermissions, Permission } from '../platform/permissions.js';
import type { GuildChannelRecord, GuildRecord } from '../store/types.js';

/**
 * A user's permissions in the guild as a whole, the platform's way: none for a non-member, everything for the
 * owner; otherwise the @everyone role (its id is the guild id) or'd with each of the member's roles, and
 * everything when that includes ADMINISTRATOR.
 */
export function guildPermissions(guild: GuildRecord, userId: string): bigint {
  if (guild.ownerId === userId) return ALL_PERMISSIONS;
  const member = Object.hasOwn(guild.members, userId) ? guild.members[userId] : undefined;
  if (!member) return 0n;
  let held = parsePermissions(guild.roles[guild.id]?.permissions);
  for (const roleId of member.roles) {
    if (Object.hasOwn(guild.roles, roleId)) held |= parsePermissions(guild.roles[roleId]?.permissions);
  }
  return hasAll(held, Permission.ADMINISTRATOR) ? ALL_PERMISSIONS : held;
}

/**
 * A user's permissions in one channel, the platform's order: the guild permissions (everything for the owner
 * and administrators, which overwrites cannot take away); then the channel's @everyone overwrite; then the
 * overwrites of all the member's roles together (every deny, then every allow); then the member's own
 * overwrite. Without VIEW_CHANNEL a user holds nothing in the channel. A channel has only its own overwrites:
 * a category's are copied when a channel is created in it, not inherited at check time.
 */
export function channelPermissions(guild: GuildRecord, channel: GuildChannelRecord, userId: string): bigint {
  const base = guildPermissions(guild, userId);
  if (base === 0n || base === ALL_PERMISSIONS) return base;
  const member = guild.members[userId];
  let held = base;
  const everyone = channel.overwrites.find((o) => o.type === 0 && o.id === guild.id);
  if (everyone) held = (held & ~parsePermissions(everyone.deny)) | parsePermissions(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of channel.overwrites) {
    if (o.type === 0 && o.id !== guild.id && member?.roles.includes(o.id)) {
      allow |= parsePermissions(o.allow);
      deny |= parsePermissions(o.deny);
    }
  }
  held = (held & ~deny) | allow;
  const own = channel.overwrites.find((o) => o.type === 1 && o.id === userId);
  if (own) held = (held & ~parsePermissions(own.deny)) | parsePermissions(own.allow);
  return hasAll(held, Permission.VIEW_CHANNEL) ? held : 0n;
}

/**
 * A member's place in the role hierarchy: the highest position among its roles, 0 with @everyone alone. The
 * owner ranks above every role, so no role arrangement lets anyone act on it.
 */
export function rank(guild: GuildRecord, userId: string): number {
  if (guild.ownerId === userId) return Number.POSITIVE_INFINITY;
  const roles = Object.hasOwn(guild.members, userId) ? (guild.members[userId]?.roles ?? []) : [];
  return Math.max(
    0,
    ...roles.map((id) => (Object.hasOwn(guild.roles, id) ? (guild.roles[id]?.position ?? 0) : 0)),
  );
}

/**
 * Whether `actorId` may kick, ban, rename or change the roles of `targetId`: only a member ranked strictly
 * below it. Permissions do not lift this (ADMINISTRATOR included); the owner is above everyone and nobody, not
 * even a member sharing its top role, acts on the owner.
 */
export function outranks(guild: GuildRecord, actorId: string, targetId: string): boolean {
  if (targetId === guild.ownerId) return false;
  return rank(guild, actorId) > rank(guild, targetId);
}

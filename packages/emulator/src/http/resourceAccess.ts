import type { EmulatorContext } from '../context.js';
import { missingPermissions, unknown } from '../platform/errors.js';
import { Permission, hasAll, permissionNames } from '../platform/permissions.js';
import type { GuildResourceTables } from '../social/GuildResources.js';
import type { GuildRecord } from '../store/types.js';
import { guildForBot } from './botAccess.js';
import { requireBot } from './requestAuth.js';
import type { RouteRequest } from './router.js';

/** The permission pair of a kind of guild resource: the bit to make one, and the bit to manage anyone's. */
export interface ResourceBits {
  /** CREATE_GUILD_EXPRESSIONS or CREATE_EVENTS. */
  create: bigint;
  /** MANAGE_GUILD_EXPRESSIONS or MANAGE_EVENTS. */
  manage: bigint;
}

/** The bits of the guild's expressions (emoji, stickers, soundboard sounds), which share their rules. */
export const EXPRESSION_BITS: ResourceBits = {
  create: Permission.CREATE_GUILD_EXPRESSIONS,
  manage: Permission.MANAGE_GUILD_EXPRESSIONS,
};

/** The guild of a `/guilds/{guild_id}/…` route, called with the bot token, the bot in it (404 / 403 50001). */
export function resourceGuild(ctx: EmulatorContext, req: RouteRequest): GuildRecord {
  requireBot(ctx, req);
  return guildForBot(ctx, req.params.guild_id ?? '');
}

/**
 * The record of a `/guilds/{guild_id}/…/{id}` route: the guild as {@link resourceGuild} finds it, then the
 * record whose id is the route parameter `param` in the guild's `table`, or 404 with the code of `entity`.
 */
export function guildResource<K extends keyof GuildResourceTables>(
  ctx: EmulatorContext,
  req: RouteRequest,
  table: K,
  param: string,
  entity: Parameters<typeof unknown>[0],
): { guild: GuildRecord; record: GuildResourceTables[K] } {
  const guild = resourceGuild(ctx, req);
  const record = ctx.guilds.resources.get(guild.id, table, req.params[param] ?? '');
  if (!record) throw unknown(entity);
  return { guild, record };
}

/**
 * Checks that the bot may make a resource: it needs the create bit. The document makes it required for bots
 * from 2026-02-23, so the manage bit alone no longer does (403 50013 naming the create bit).
 */
export function requireCreate(ctx: EmulatorContext, guild: GuildRecord, bits: ResourceBits): void {
  const held = ctx.guilds.guildPermissions(guild.id, ctx.store.state.application.id);
  if (!hasAll(held, bits.create)) throw missingPermissions(permissionNames(bits.create));
}

/**
 * Checks that the bot may change or delete a resource made by `ownerId`: its own with the create bit (or the
 * manage bit), anyone else's only with the manage bit.
 */
export function requireEdit(
  ctx: EmulatorContext,
  guild: GuildRecord,
  ownerId: string,
  bits: ResourceBits,
): void {
  const botId = ctx.store.state.application.id;
  const held = ctx.guilds.guildPermissions(guild.id, botId);
  if (hasAll(held, bits.manage)) return;
  if (ownerId === botId && hasAll(held, bits.create)) return;
  throw missingPermissions(permissionNames(bits.manage));
}

/** Whether the bot sees who made a resource (`user`): with either bit, as the platform shows it to managers. */
export function seesCreator(ctx: EmulatorContext, guild: GuildRecord, bits: ResourceBits): boolean {
  const held = ctx.guilds.guildPermissions(guild.id, ctx.store.state.application.id);
  return (held & (bits.create | bits.manage)) !== 0n;
}

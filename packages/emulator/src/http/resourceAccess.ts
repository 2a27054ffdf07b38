import type { EmulatorContext } from '../context.js';
import { missingPermissions } from '../platform/errors.js';
import { hasAll, permissionNames } from '../platform/permissions.js';
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

/** The guild of a `/guilds/{guild_id}/…` route, called with the bot token, the bot in it (404 / 403 50001). */
export function resourceGuild(ctx: EmulatorContext, req: RouteRequest): GuildRecord {
  requireBot(ctx, req);
  return guildForBot(ctx, req.params.guild_id ?? '');
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

import { wireMessage } from '../bot/messageWire.js';
import type { EmulatorContext } from '../context.js';
import { missingAccess, missingPermissions, unknown } from '../platform/errors.js';
import { Intent } from '../platform/intents.js';
import { hasAll, permissionNames } from '../platform/permissions.js';
import { outranks } from '../social/memberPermissions.js';
import type { ChannelMessageRecord, GuildChannelRecord, GuildRecord } from '../store/types.js';
import { requireBot } from './requestAuth.js';
import type { RouteRequest } from './router.js';

/**
 * Checks a route under `/applications/{application_id}/…` called with the bot token: 401 without it, 404 10002
 * Unknown Application for another application's id.
 */
export function requireOwnApplication(ctx: EmulatorContext, req: RouteRequest): void {
  requireBot(ctx, req);
  if (req.params.application_id !== ctx.store.state.application.id) throw unknown('Application');
}

/**
 * A guild the application's bot is in, holding every bit of `needed` at the guild level: 404 10004 for an
 * unknown guild, 403 50001 when the bot is not in it, 403 50013 naming the missing bits.
 */
export function guildForBot(ctx: EmulatorContext, guildId: string, needed = 0n): GuildRecord {
  const guild = ctx.guilds.guild(guildId);
  if (!guild) throw unknown('Guild');
  const botId = ctx.store.state.application.id;
  if (!ctx.guilds.isMember(guild.id, botId)) throw missingAccess();
  const held = ctx.guilds.guildPermissions(guild.id, botId);
  if (!hasAll(held, needed)) throw missingPermissions(permissionNames(needed & ~held));
  return guild;
}

/**
 * A channel the bot may view, holding every bit of `needed` there: 404 10003 for an unknown channel, 403 50001
 * when the bot is not in its guild or cannot view it, 403 50013 naming the missing bits.
 */
export function channelForBot(ctx: EmulatorContext, channelId: string, needed = 0n): GuildChannelRecord {
  const channel = ctx.guilds.channel(channelId);
  if (!channel) throw unknown('Channel');
  const botId = ctx.store.state.application.id;
  if (!ctx.guilds.mayView(botId, channel.id)) throw missingAccess();
  const held = ctx.guilds.permissions(botId, channel.id);
  if (!hasAll(held, needed)) throw missingPermissions(permissionNames(needed & ~held));
  return channel;
}

/**
 * Whether the bot may read a message's content over HTTP: with the MESSAGE_CONTENT privileged intent enabled
 * for the application, or when it wrote the message or is mentioned in it (the platform's exceptions).
 */
export function botReadsContent(ctx: EmulatorContext, record: ChannelMessageRecord): boolean {
  const botId = ctx.store.state.application.id;
  return (
    (ctx.store.state.application.privilegedIntents & Intent.MESSAGE_CONTENT) !== 0 ||
    record.authorId === botId ||
    (record.mentions ?? []).includes(botId)
  );
}

/** A channel message as the bot reads it over HTTP (content by {@link botReadsContent}). */
export function botMessageView(
  ctx: EmulatorContext,
  record: ChannelMessageRecord,
  channel: GuildChannelRecord,
): Record<string, unknown> {
  return wireMessage(record, ctx.store, {
    http: ctx.urls.http,
    guildId: channel.guildId,
    content: botReadsContent(ctx, record),
  });
}

/**
 * Why the bot may not act on `userId` (kick, ban, rename, give or take roles), or undefined when it may: the
 * platform's hierarchy, which no permission lifts. Only a member ranked below the bot's highest role is in
 * reach, and never the owner.
 */
export function hierarchyRefusal(guild: GuildRecord, botId: string, userId: string): string | undefined {
  if (outranks(guild, botId, userId)) return undefined;
  return userId === guild.ownerId
    ? 'the owner is above every member'
    : `a member below the bot's highest role (${userId} is not)`;
}

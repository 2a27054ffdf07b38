import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import { Permission } from '../platform/permissions.js';
import { compareIds, isSnowflake } from '../snowflake.js';
import type { GuildBanRecord, GuildRecord } from '../store/types.js';
import { guildForBot, hierarchyRefusal } from './botAccess.js';
import { ApiError, missingPermissions, unknown } from '../platform/errors.js';
import {
  FieldErrors,
  optionalArray,
  optionalInteger,
  queryInteger,
  requireObjectBody,
  shown,
} from '../bodies/fieldErrors.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** Get Guild Bans' page size bounds (the platform's). */
const MAX_BAN_PAGE = 1000;
/** How far back a ban may delete the user's messages: 7 days, in seconds (the platform's). */
const MAX_DELETE_SECONDS = 604_800;
/** The deprecated `delete_message_days`' bound. */
const MAX_DELETE_DAYS = 7;
/** How many users one Bulk Guild Ban takes (the platform's). */
const MAX_BULK_BAN = 200;
/** The platform keeps at most this much of an audit log reason. */
const MAX_REASON = 512;

/** The `X-Audit-Log-Reason` header, which clients percent-encode so any text survives as a header value. */
function auditReason(req: RouteRequest): string | null {
  const header = req.raw.headers['x-audit-log-reason'];
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined || raw === '') return null;
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {
    // A client that sent the reason unencoded (with a stray %) still gets it kept as written.
  }
  return text.slice(0, MAX_REASON);
}

/** Whether the request carries a body at all: Create Guild Ban may come with none. */
function hasBody(req: RouteRequest): boolean {
  const headers = req.raw.headers;
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
}

/** A snowflake query parameter, or the platform's 50035 naming it. */
function querySnowflake(query: ReadonlyMap<string, string>, name: string): string | undefined {
  const value = query.get(name);
  if (value === undefined || isSnowflake(value)) return value;
  const errors = new FieldErrors();
  errors.add([name], 'NUMBER_TYPE_COERCE', `Value "${shown(value)}" is not snowflake.`);
  errors.finish();
  return undefined;
}

/**
 * Guild bans of the bot (BAN_MEMBERS): Get Guild Bans (paged by user id), Get Guild Ban (10026 Unknown Ban),
 * Create Guild Ban (a member or any known user; `delete_message_seconds` deletes what the user wrote in the
 * guild that recently), Remove Guild Ban, and Bulk Guild Ban (also MANAGE_GUILD; up to 200 users, each that
 * cannot be banned listed in `failed_users`). The role hierarchy holds as for kick: the owner and members at
 * or above the bot's highest role are out of reach. `X-Audit-Log-Reason` is kept as the ban's reason.
 */
export function guildBanRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const botId = store.state.application.id;

  const guildOf = (req: RouteRequest, needed: bigint): GuildRecord => {
    requireBot(ctx, req);
    return guildForBot(ctx, req.params.guild_id ?? '', needed);
  };

  const wire = (userId: string, ban: GuildBanRecord): Record<string, unknown> | undefined => {
    const user = store.user(userId);
    return user ? { reason: ban.reason, user: wireUser(user) } : undefined;
  };

  /**
   * Why the bot may not ban `userId`, or undefined when it may: kick's hierarchy, which no permission lifts.
   * A user who is not a member ranks nowhere and may be banned ahead of joining. The bot cannot ban itself,
   * as it does not outrank itself.
   */
  const outOfReach = (guild: GuildRecord, userId: string): string | undefined =>
    userId === guild.ownerId || guilds.isMember(guild.id, userId)
      ? hierarchyRefusal(guild, botId, userId)
      : undefined;

  /** `delete_message_seconds` (or the deprecated `delete_message_days`) as seconds; 0 when absent. */
  const deleteWindow = (errors: FieldErrors, body: Record<string, unknown>): number => {
    const seconds = optionalInteger(
      errors,
      ['delete_message_seconds'],
      body.delete_message_seconds,
      0,
      MAX_DELETE_SECONDS,
    );
    if (seconds !== undefined || body.delete_message_seconds !== undefined) return seconds ?? 0;
    const days = optionalInteger(
      errors,
      ['delete_message_days'],
      body.delete_message_days,
      0,
      MAX_DELETE_DAYS,
    );
    return (days ?? 0) * 86_400;
  };

  const purge = (guild: GuildRecord, userId: string, seconds: number): void => {
    if (seconds === 0) return;
    const count = guilds.deleteMessagesOf(guild.id, userId, store.now() - seconds * 1000);
    if (count > 0) ctx.log.line('guilds', `deleted ${count} message(s) of banned user ${userId}`);
  };

  return [
    apiRoute('GET', '/guilds/:guild_id/bans', (req) => {
      const guild = guildOf(req, Permission.BAN_MEMBERS);
      const query = req.query();
      const limit = queryInteger(query, 'limit', 1, MAX_BAN_PAGE, MAX_BAN_PAGE);
      const before = querySnowflake(query, 'before');
      const after = querySnowflake(query, 'after');
      const inRange = guilds
        .bansOf(guild.id)
        .filter(
          ({ userId }) =>
            (before === undefined || compareIds(userId, before) < 0) &&
            (after === undefined || compareIds(userId, after) > 0),
        );
      // Paging backwards takes the bans nearest `before`; either way the page is in user id order.
      const page =
        before !== undefined && after === undefined ? inRange.slice(-limit) : inRange.slice(0, limit);
      return jsonReply(
        200,
        page.flatMap(({ userId, ban }) => wire(userId, ban) ?? []),
      );
    }),
    apiRoute('GET', '/guilds/:guild_id/bans/:user_id', (req) => {
      const guild = guildOf(req, Permission.BAN_MEMBERS);
      const userId = req.params.user_id ?? '';
      const ban = guilds.banOf(guild.id, userId);
      const answer = ban ? wire(userId, ban) : undefined;
      if (!answer) throw unknown('Ban');
      return jsonReply(200, answer);
    }),
    apiRoute('PUT', '/guilds/:guild_id/bans/:user_id', async (req) => {
      const guild = guildOf(req, Permission.BAN_MEMBERS);
      const userId = req.params.user_id ?? '';
      const body = requireObjectBody(hasBody(req) ? await req.json() : {});
      const errors = new FieldErrors();
      const seconds = deleteWindow(errors, body);
      errors.finish();
      if (!store.user(userId)) throw unknown('User');
      const refusal = outOfReach(guild, userId);
      if (refusal !== undefined) throw missingPermissions([refusal]);
      // Banning again keeps the first ban (and sends no second event) but still deletes the recent messages.
      guilds.ban(guild.id, userId, auditReason(req));
      purge(guild, userId, seconds);
      return noContentReply();
    }),
    apiRoute('DELETE', '/guilds/:guild_id/bans/:user_id', (req) => {
      const guild = guildOf(req, Permission.BAN_MEMBERS);
      if (!guilds.unban(guild.id, req.params.user_id ?? '')) throw unknown('Ban');
      return noContentReply();
    }),
    apiRoute('POST', '/guilds/:guild_id/bulk-ban', async (req) => {
      const guild = guildOf(req, Permission.BAN_MEMBERS | Permission.MANAGE_GUILD);
      const body = requireObjectBody(await req.json());
      const errors = new FieldErrors();
      if (body.user_ids === undefined || body.user_ids === null) {
        errors.add(['user_ids'], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      const listed = optionalArray(errors, ['user_ids'], body.user_ids, MAX_BULK_BAN, 1) ?? [];
      const userIds: string[] = [];
      listed.forEach((value, i) => {
        const id = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
        if (isSnowflake(id)) userIds.push(id as string);
        else errors.add(['user_ids', i], 'NUMBER_TYPE_COERCE', `Value "${shown(value)}" is not snowflake.`);
      });
      const seconds = deleteWindow(errors, body);
      errors.finish();
      const reason = auditReason(req);
      const banned: string[] = [];
      const failed: string[] = [];
      for (const userId of new Set(userIds)) {
        // Unknown users, the out-of-reach and those already banned all fail, the platform's way.
        const ok =
          store.user(userId) !== undefined &&
          outOfReach(guild, userId) === undefined &&
          guilds.ban(guild.id, userId, reason);
        if (ok) {
          banned.push(userId);
          purge(guild, userId, seconds);
        } else {
          failed.push(userId);
        }
      }
      ctx.log.line('guilds', `bulk ban in ${guild.name}: ${banned.length} banned, ${failed.length} failed`);
      if (banned.length === 0) throw new ApiError(400, 500000, 'Failed to ban users');
      return jsonReply(200, { banned_users: banned, failed_users: failed });
    }),
  ];
}

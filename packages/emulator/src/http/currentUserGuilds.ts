import type { EmulatorContext } from '../context.js';
import { queryInteger } from '../bodies/fieldErrors.js';
import { ApiError, invalidFormBody, missingAccess, unknown } from '../platform/errors.js';
import { compareIds } from '../snowflake.js';
import type { GuildRecord } from '../store/types.js';
import { jsonReply, noContentReply } from './replies.js';
import { authenticate, requireBot } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';
import { requireScope } from './scopes.js';

/** Get Current User Guilds answers at most this many guilds a page (the platform's 200, also the default). */
export const MAX_GUILDS_PAGE = 200;

/** A `before` / `after` query value: a snowflake, or undefined when absent; anything else is 50035. */
function snowflakeQuery(query: ReadonlyMap<string, string>, name: string): string | undefined {
  const text = query.get(name);
  if (text === undefined) return undefined;
  if (!/^[0-9]{1,20}$/.test(text)) {
    throw invalidFormBody({
      [name]: { code: 'NUMBER_TYPE_COERCE', message: `Value "${text}" is not snowflake.` },
    });
  }
  return text;
}

/**
 * One page of guilds, the platform's way: by id ascending; `after` keeps the ids above it, `before` the ids
 * below it (the page nearest to `before`, as the platform pages backwards), at most `limit`.
 */
function page(list: GuildRecord[], query: ReadonlyMap<string, string>): GuildRecord[] {
  const limit = queryInteger(query, 'limit', 1, MAX_GUILDS_PAGE, MAX_GUILDS_PAGE);
  const before = snowflakeQuery(query, 'before');
  const after = snowflakeQuery(query, 'after');
  const sorted = [...list].sort((a, b) => compareIds(a.id, b.id));
  const inRange = sorted.filter(
    (g) =>
      (after === undefined || compareIds(g.id, after) > 0) &&
      (before === undefined || compareIds(g.id, before) < 0),
  );
  return before !== undefined && after === undefined ? inRange.slice(-limit) : inRange.slice(0, limit);
}

/**
 * The current user's guilds, with the OAuth2 `guilds` scope or the bot token (the bot's guilds), as partial
 * guild objects (`with_counts=true` adds the member counts); Leave Guild for the bot; and Create Guild, which
 * the platform refuses to bots (20001) and which an OAuth2 token cannot reach.
 */
export function currentUserGuildRoutes(ctx: EmulatorContext): Route[] {
  const { guilds } = ctx;
  return [
    apiRoute('GET', '/users/@me/guilds', (req) => {
      const caller = authenticate(ctx, req, { bearer: true, bot: true });
      requireScope(caller, 'guilds');
      const me = caller.user.id;
      const query = req.query();
      const withCounts = query.get('with_counts') === 'true';
      const list = page(guilds.guildsOf(me), query).map((g) => ({
        id: g.id,
        name: g.name,
        icon: g.icon ?? null,
        banner: null,
        owner: g.ownerId === me,
        permissions: guilds.guildPermissions(g.id, me).toString(),
        features: [],
        ...(withCounts
          ? { approximate_member_count: Object.keys(g.members).length, approximate_presence_count: 0 }
          : {}),
      }));
      return jsonReply(200, list);
    }),
    apiRoute('DELETE', '/users/@me/guilds/:guild_id', (req) => {
      requireBot(ctx, req);
      const bot = ctx.store.botUser();
      const guild = guilds.guild(req.params.guild_id ?? '');
      if (!guild || !guilds.isMember(guild.id, bot.id)) throw unknown('Guild');
      guilds.removeMember(guild.id, bot.id);
      return noContentReply();
    }),
    apiRoute('POST', '/guilds', (req) => {
      const caller = authenticate(ctx, req, { bearer: true, bot: true });
      // The platform took guild creation away from bots (2024); OAuth2 tokens never had it (no scope grants it).
      if (caller.kind === 'bot') throw new ApiError(403, 20001, 'Bots cannot use this endpoint');
      throw missingAccess('no OAuth2 scope lets an application create guilds');
    }),
  ];
}

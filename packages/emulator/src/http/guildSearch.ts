import { queryInteger } from '../bodies/fieldErrors.js';
import { wireMessage } from '../bot/messageWire.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, missingAccess } from '../platform/errors.js';
import { Intent } from '../platform/intents.js';
import { Permission, hasAll } from '../platform/permissions.js';
import { compareIds } from '../snowflake.js';
import type { ChannelMessageRecord } from '../store/types.js';
import { guildForBot } from './botAccess.js';
import { jsonReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';

/** How long (emulator ms) a guild's search index takes to build after its first search. */
export const SEARCH_INDEX_BUILD_MS = 2000;
const MAX_RESULTS = 25;
const MAX_OFFSET = 9975;

/**
 * Search Guild Messages for bots: filters by content, author, channel, mentions, `has` (embed, file, link,
 * image, poll) and pinned; sorted by timestamp or relevance. It needs the MESSAGE_CONTENT privileged intent
 * enabled for the app and searches only channels where the bot holds READ_MESSAGE_HISTORY. A guild's first
 * search starts its index and is answered 202 with error 110000 (index not ready) and `retry_after`, as is
 * every search until the index is built.
 */
export function guildSearchRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const botId = store.state.application.id;
  /** When each guild's index is (or will be) ready, emulator ms. Bounded by the number of guilds. */
  const readyAt = new Map<string, number>();

  return [
    apiRoute('GET', '/guilds/:guild_id/messages/search', (req) => {
      requireBot(ctx, req);
      const guild = guildForBot(ctx, req.params.guild_id ?? '');
      if ((store.state.application.privilegedIntents & Intent.MESSAGE_CONTENT) === 0) {
        throw missingAccess('searching messages needs the MESSAGE_CONTENT privileged intent');
      }
      const now = store.now();
      const ready = readyAt.get(guild.id) ?? now + SEARCH_INDEX_BUILD_MS;
      readyAt.set(guild.id, ready);
      if (now < ready) {
        ctx.log.line('guilds', `search of ${guild.name}: index not ready (110000)`);
        return jsonReply(202, {
          message: 'Index not yet available. Try again later',
          code: 110000,
          documents_indexed: 0,
          retry_after: Math.ceil((ready - now) / 1000),
        });
      }
      const q = req.query();
      const limit = queryInteger(q, 'limit', 1, MAX_RESULTS, MAX_RESULTS);
      const offset = queryInteger(q, 'offset', 0, MAX_OFFSET, 0);
      const sortBy = q.get('sort_by') ?? 'timestamp';
      const order = q.get('sort_order') ?? 'desc';
      const errors: Record<string, unknown> = {};
      const bad = (name: string, message: string): void => {
        errors[name] = { _errors: [{ code: 'BASE_TYPE_BAD_VALUE', message }] };
      };
      if (sortBy !== 'timestamp' && sortBy !== 'relevance') bad('sort_by', 'Must be timestamp or relevance.');
      if (order !== 'desc' && order !== 'asc') bad('sort_order', 'Must be desc or asc.');
      if (Object.keys(errors).length > 0) throw new ApiError(400, 50035, 'Invalid Form Body', { errors });
      const list = (name: string): string[] | undefined => q.get(name)?.split(',').filter(Boolean);
      const content = q.get('content')?.toLowerCase();
      const authors = list('author_id');
      const channels = list('channel_id');
      const mentions = list('mentions');
      const has = list('has');
      const pinned = q.get('pinned');
      const readable = guilds
        .channelsOf(guild.id)
        .filter(
          (c) =>
            c.type === 0 &&
            hasAll(
              guilds.permissions(botId, c.id),
              Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY,
            ),
        )
        .filter((c) => !channels || channels.includes(c.id));
      const hits = (m: ChannelMessageRecord): number =>
        content === undefined ? 1 : m.content.toLowerCase().split(content).length - 1;
      const matches = readable
        .flatMap((c) => guilds.messages.inChannel(c.id))
        .filter((m) => hits(m) > 0)
        .filter((m) => !authors || authors.includes(m.authorId))
        .filter((m) => !mentions || mentions.some((id) => (m.mentions ?? []).includes(id)))
        .filter((m) => pinned === undefined || (typeof m.pinnedAt === 'number') === (pinned === 'true'))
        .filter((m) => !has || has.every((kind) => hasKind(m, kind)));
      const byTime = (a: ChannelMessageRecord, b: ChannelMessageRecord): number =>
        order === 'asc' ? compareIds(a.id, b.id) : compareIds(b.id, a.id);
      matches.sort(sortBy === 'relevance' ? (a, b) => hits(b) - hits(a) || byTime(a, b) : byTime);
      return jsonReply(200, {
        messages: matches.slice(offset, offset + limit).map((m) => [
          wireMessage(m, store, {
            http: ctx.urls.http,
            guildId: guild.id,
            content: true,
            extra: { hit: true },
          }),
        ]),
        total_results: matches.length,
        threads: [],
        members: [],
        doing_deep_historical_index: false,
      });
    }),
  ];
}

function hasKind(m: ChannelMessageRecord, kind: string): boolean {
  const attachments = m.attachments ?? [];
  switch (kind) {
    case 'embed':
      return (m.embeds ?? []).length > 0;
    case 'file':
      return attachments.length > 0;
    case 'image':
      return attachments.some((a) => a.contentType?.startsWith('image/') === true);
    case 'link':
      return /https?:\/\//.test(m.content);
    case 'poll':
      return m.poll !== undefined;
    default:
      return false;
  }
}

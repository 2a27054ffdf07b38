import { queryInteger } from '../bodies/fieldErrors.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, missingPermissions, unknown } from '../platform/errors.js';
import { Permission, hasAll } from '../platform/permissions.js';
import { MAX_PINS } from '../social/ChannelMessages.js';
import type { ChannelMessageRecord, GuildChannelRecord } from '../store/types.js';
import { botMessageView, channelForBot } from './botAccess.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** Get Channel Pins' page size bounds. */
const MAX_PINS_PAGE = 50;

/**
 * Pinning, by the rules of 2026: pin and unpin need PIN_MESSAGES (MANAGE_MESSAGES alone stopped sufficing on
 * 2026-01-12); Get Channel Pins is paginated (`before` an ISO time, `limit` 1–50) and answers
 * `{items: [{pinned_at, message}], has_more}`. The deprecated routes under `/channels/{id}/pins` still work,
 * with the same permission rule.
 */
export function pinRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const botId = store.state.application.id;
  const messages = guilds.messages;

  const view = (record: ChannelMessageRecord, channel: GuildChannelRecord): Record<string, unknown> =>
    botMessageView(ctx, record, channel);

  const target = (req: RouteRequest): { channel: GuildChannelRecord; record: ChannelMessageRecord } => {
    requireBot(ctx, req);
    const channel = channelForBot(ctx, req.params.channel_id ?? '');
    if (!hasAll(guilds.permissions(botId, channel.id), Permission.PIN_MESSAGES)) {
      throw missingPermissions(['PIN_MESSAGES']);
    }
    const record = messages.get(channel.id, req.params.message_id ?? '');
    if (!record) throw unknown('Message');
    return { channel, record };
  };
  const pin = (req: RouteRequest) => {
    const { channel, record } = target(req);
    if (typeof record.pinnedAt !== 'number') {
      if (messages.pinned(channel.id).length >= MAX_PINS) {
        throw new ApiError(400, 30003, `Maximum number of pins reached (${MAX_PINS})`);
      }
      messages.update(record, { pinnedAt: store.now() }, false);
    }
    return noContentReply();
  };
  const unpin = (req: RouteRequest) => {
    const { record } = target(req);
    if (typeof record.pinnedAt === 'number') messages.update(record, { pinnedAt: null }, false);
    return noContentReply();
  };
  const readable = (req: RouteRequest): GuildChannelRecord => {
    requireBot(ctx, req);
    return channelForBot(ctx, req.params.channel_id ?? '', Permission.READ_MESSAGE_HISTORY);
  };

  return [
    apiRoute('PUT', '/channels/:channel_id/messages/pins/:message_id', pin),
    apiRoute('DELETE', '/channels/:channel_id/messages/pins/:message_id', unpin),
    apiRoute('GET', '/channels/:channel_id/messages/pins', (req) => {
      const channel = readable(req);
      const query = req.query();
      const limit = queryInteger(query, 'limit', 1, MAX_PINS_PAGE, MAX_PINS_PAGE);
      const beforeText = query.get('before');
      const before = beforeText === undefined ? Infinity : Date.parse(beforeText);
      if (Number.isNaN(before)) {
        throw new ApiError(400, 50035, 'Invalid Form Body', {
          errors: {
            before: {
              _errors: [{ code: 'DATE_TYPE_PARSE', message: 'Could not parse the ISO8601 timestamp.' }],
            },
          },
        });
      }
      const older = messages.pinned(channel.id).filter((m) => (m.pinnedAt ?? 0) < before);
      return jsonReply(200, {
        items: older.slice(0, limit).map((m) => ({
          pinned_at: new Date(m.pinnedAt ?? 0).toISOString(),
          message: view(m, channel),
        })),
        has_more: older.length > limit,
      });
    }),
    // Deprecated since the paginated routes came; kept working as the platform keeps them.
    apiRoute('GET', '/channels/:channel_id/pins', (req) => {
      const channel = readable(req);
      return jsonReply(
        200,
        messages.pinned(channel.id).map((m) => view(m, channel)),
      );
    }),
    apiRoute('PUT', '/channels/:channel_id/pins/:message_id', pin),
    apiRoute('DELETE', '/channels/:channel_id/pins/:message_id', unpin),
  ];
}

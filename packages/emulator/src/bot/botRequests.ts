import { GatewayClose, GatewayOpcode } from '@sdkpp/protocol';
import type { GatewayConnection } from '../gateway/GatewayConnection.js';
import type { GatewayHub } from '../gateway/GatewayHub.js';
import type { GatewaySession } from '../gateway/GatewaySession.js';
import { shortId, type EmulatorLog } from '../log.js';
import { Intent } from '../platform/intents.js';
import type { Guilds } from '../social/Guilds.js';
import type { EmulatorStore } from '../store/Store.js';
import { wireMember } from './guildWire.js';

/** The document's limit: one all-members request per guild per bot per 30 seconds. */
export const ALL_MEMBERS_WINDOW_MS = 30_000;
/** Members per Guild Members Chunk. */
export const MEMBERS_PER_CHUNK = 1000;
/** `user_ids` per request, and `limit` for a query. */
const MAX_IDS = 100;
/** The fields Request Channel Info may ask for (the document's two). */
const CHANNEL_INFO_FIELDS = ['status', 'voice_start_time'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The bot's gateway requests: Request Guild Members (op 8), answered with Guild Members Chunk events; an
 * all-members request (empty query, limit 0) is limited to one per guild per 30 s (other guilds counted apart),
 * and one over the limit gets a RATE_LIMITED event instead. Request Channel Info (op 43) is answered with a
 * Channel Info event carrying `status` and `voice_start_time` of the guild's voice channels, as asked.
 * A malformed request closes the socket with 4002 and a log line.
 */
export function wireBotRequests(deps: {
  hub: GatewayHub;
  guilds: Guilds;
  store: EmulatorStore;
  log: EmulatorLog;
}): void {
  const { hub, guilds, store, log } = deps;
  const botId = store.state.application.id;
  /** The last all-members request per guild (the one bot); bounded by the number of guilds. */
  const lastAll = new Map<string, number>();

  const refuse = (session: GatewaySession, connection: GatewayConnection, why: string): void => {
    log.line('gateway', `session ${shortId(session.id)}: ${why}`);
    connection.close(GatewayClose.DecodeError, `Invalid payload: ${why}`);
  };

  hub.onOp(GatewayOpcode.RequestGuildMembers, (session, data, connection) => {
    if (session.kind !== 'bot') return;
    if (!isObject(data) || typeof data.guild_id !== 'string') {
      refuse(session, connection, 'Request Guild Members needs a "guild_id" string');
      return;
    }
    const guildId = data.guild_id;
    const nonce = typeof data.nonce === 'string' ? data.nonce.slice(0, 32) : undefined;
    const query = typeof data.query === 'string' ? data.query : undefined;
    const limit = data.limit ?? 0;
    const userIds = Array.isArray(data.user_ids)
      ? data.user_ids
      : typeof data.user_ids === 'string'
        ? [data.user_ids]
        : undefined;
    if (
      typeof limit !== 'number' ||
      !Number.isInteger(limit) ||
      limit < 0 ||
      (query === undefined && userIds === undefined) ||
      (userIds !== undefined && (userIds.length > MAX_IDS || !userIds.every((id) => typeof id === 'string')))
    ) {
      refuse(session, connection, 'Request Guild Members needs "query" and "limit", or up to 100 "user_ids"');
      return;
    }
    const guild = guilds.guild(guildId);
    if (!guild || !guilds.isMember(guildId, botId)) {
      log.line('gateway', `Request Guild Members for guild ${guildId}, which the bot is not in: no chunk`);
      return;
    }
    const all = userIds === undefined && query === '' && limit === 0;
    if (all) {
      if ((session.intents & Intent.GUILD_MEMBERS) === 0) {
        log.line(
          'gateway',
          'Request Guild Members for all members without the GUILD_MEMBERS intent: refused',
        );
        connection.close(GatewayClose.DisallowedIntents, 'Disallowed intent(s)');
        return;
      }
      // The emulator's wall clock, so advanceTime moves the window along.
      const now = store.now();
      const last = lastAll.get(guildId);
      if (last !== undefined && now - last < ALL_MEMBERS_WINDOW_MS) {
        const retryAfter = (ALL_MEMBERS_WINDOW_MS - (now - last)) / 1000;
        log.line('gateway', `Request Guild Members for all of ${guildId} again within 30 s: RATE_LIMITED`);
        hub.dispatchTo(session, 'RATE_LIMITED', {
          opcode: GatewayOpcode.RequestGuildMembers,
          retry_after: retryAfter,
          meta: { guild_id: guildId, ...(nonce === undefined ? {} : { nonce }) },
        });
        return;
      }
      lastAll.set(guildId, now);
    }
    let ids: string[];
    const notFound: string[] = [];
    if (userIds !== undefined) {
      ids = [];
      for (const id of userIds) (guilds.member(guildId, id) ? ids : notFound).push(id);
    } else {
      const prefix = (query ?? '').toLowerCase();
      const cap =
        limit === 0
          ? prefix === ''
            ? Infinity
            : MAX_IDS
          : Math.min(limit, prefix === '' ? Infinity : MAX_IDS);
      ids = Object.keys(guild.members)
        .filter((id) => {
          const user = store.user(id);
          const nick = guild.members[id]?.nick ?? '';
          return (
            user !== undefined &&
            (user.username.toLowerCase().startsWith(prefix) || nick.toLowerCase().startsWith(prefix))
          );
        })
        .slice(0, cap);
    }
    const chunkCount = Math.max(1, Math.ceil(ids.length / MEMBERS_PER_CHUNK));
    for (let index = 0; index < chunkCount; index += 1) {
      const members = ids.slice(index * MEMBERS_PER_CHUNK, (index + 1) * MEMBERS_PER_CHUNK).flatMap((id) => {
        const member = guilds.member(guildId, id);
        return member ? [wireMember(member, store.user(id))] : [];
      });
      hub.dispatchTo(session, 'GUILD_MEMBERS_CHUNK', {
        guild_id: guildId,
        members,
        chunk_index: index,
        chunk_count: chunkCount,
        ...(index === 0 && notFound.length > 0 ? { not_found: notFound } : {}),
        ...(data.presences === true ? { presences: [] } : {}),
        ...(nonce === undefined ? {} : { nonce }),
      });
    }
  });

  hub.onOp(GatewayOpcode.RequestChannelInfo, (session, data, connection) => {
    if (session.kind !== 'bot') return;
    if (!isObject(data) || typeof data.guild_id !== 'string' || !Array.isArray(data.fields)) {
      refuse(session, connection, 'Request Channel Info needs "guild_id" and "fields"');
      return;
    }
    const fields = data.fields.filter((f): f is (typeof CHANNEL_INFO_FIELDS)[number] =>
      (CHANNEL_INFO_FIELDS as readonly unknown[]).includes(f),
    );
    if (fields.length !== data.fields.length) {
      refuse(
        session,
        connection,
        `Request Channel Info fields must be among ${CHANNEL_INFO_FIELDS.join(', ')}`,
      );
      return;
    }
    const guildId = data.guild_id;
    if (!guilds.isMember(guildId, botId)) {
      log.line('gateway', `Request Channel Info for guild ${guildId}, which the bot is not in: no reply`);
      return;
    }
    const channels = guilds
      .channelsOf(guildId)
      .filter((c) => c.type === 2 && guilds.mayView(botId, c.id))
      .map((c) => {
        const info = guilds.voice.info(c.id);
        return {
          id: c.id,
          ...(fields.includes('status') ? { status: info.status } : {}),
          ...(fields.includes('voice_start_time') ? { voice_start_time: info.voiceStartTime } : {}),
        };
      });
    hub.dispatchTo(session, 'CHANNEL_INFO', { guild_id: guildId, channels });
  });
}

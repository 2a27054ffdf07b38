import { FieldErrors, optionalString, queryInteger, requireObjectBody } from '../bodies/fieldErrors.js';
import { wireMember } from '../bot/guildWire.js';
import { wireGuildVoiceState } from '../bot/voiceWire.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, missingPermissions } from '../platform/errors.js';
import { Permission, hasAll } from '../platform/permissions.js';
import { voiceRegions } from '../platform/voiceRegions.js';
import { ChannelKind } from '../social/Guilds.js';
import { channelForBot, guildForBot } from './botAccess.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** The voice channel status limit (the document's). */
export const MAX_VOICE_STATUS = 500;

/**
 * Guild voice without a gateway connection: the voice regions (`GET /voice/regions`, and a guild's), Get Current User Voice State and Get User Voice State (404 10065
 * when the user is not in voice), Set Voice Channel Status (PUT voice-status: ≤ 500 characters; needs
 * SET_VOICE_CHANNEL_STATUS, and MANAGE_CHANNELS too when the bot is not in that channel; writes audit entries
 * 192 / 193), and Get Guild Audit Log (VIEW_AUDIT_LOG; `action_type`, `limit` filters).
 */
export function guildVoiceRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const botId = store.state.application.id;

  const voiceState = (req: RouteRequest, userId: string) => {
    requireBot(ctx, req);
    const guild = guildForBot(ctx, req.params.guild_id ?? '');
    const state = guilds.voice.state(guild.id, userId);
    if (!state) throw new ApiError(404, 10065, 'Unknown Voice State');
    const member = guilds.member(guild.id, userId);
    return jsonReply(
      200,
      wireGuildVoiceState(state, member ? wireMember(member, store.user(userId)) : undefined),
    );
  };

  return [
    apiRoute('GET', '/voice/regions', () => jsonReply(200, voiceRegions())),
    apiRoute('GET', '/guilds/:guild_id/regions', (req) => {
      requireBot(ctx, req);
      guildForBot(ctx, req.params.guild_id ?? '');
      return jsonReply(200, voiceRegions());
    }),
    apiRoute('GET', '/guilds/:guild_id/voice-states/@me', (req) => voiceState(req, botId)),
    apiRoute('GET', '/guilds/:guild_id/voice-states/:user_id', (req) =>
      voiceState(req, req.params.user_id ?? ''),
    ),
    apiRoute('PUT', '/channels/:channel_id/voice-status', async (req) => {
      requireBot(ctx, req);
      const channel = channelForBot(ctx, req.params.channel_id ?? '');
      if (channel.type !== ChannelKind.VOICE)
        throw new ApiError(400, 50024, 'Cannot execute action on this channel type');
      const body = requireObjectBody(await req.json());
      const errors = new FieldErrors();
      const raw = body.status;
      const status = raw === null ? null : optionalString(errors, ['status'], raw, MAX_VOICE_STATUS);
      errors.finish();
      const held = guilds.permissions(botId, channel.id);
      const connected = guilds.voice.state(channel.guildId, botId)?.channelId === channel.id;
      const needed = Permission.SET_VOICE_CHANNEL_STATUS | (connected ? 0n : Permission.MANAGE_CHANNELS);
      if (!hasAll(held, needed)) {
        const missing = [
          ...(hasAll(held, Permission.SET_VOICE_CHANNEL_STATUS) ? [] : ['SET_VOICE_CHANNEL_STATUS']),
          ...(connected || hasAll(held, Permission.MANAGE_CHANNELS)
            ? []
            : ['MANAGE_CHANNELS (the bot is not in the channel)']),
        ];
        throw missingPermissions(missing);
      }
      guilds.voice.setStatus(channel.guildId, channel.id, status ?? null, botId);
      return noContentReply();
    }),
    apiRoute('GET', '/guilds/:guild_id/audit-logs', (req) => {
      requireBot(ctx, req);
      const guild = guildForBot(ctx, req.params.guild_id ?? '', Permission.VIEW_AUDIT_LOG);
      const query = req.query();
      const action = query.get('action_type');
      const limit = queryInteger(query, 'limit', 1, 100, 50);
      const entries = guilds.voice
        .auditLog(guild.id)
        .filter((e) => action === undefined || String(e.actionType) === action)
        .slice(0, limit);
      const userIds = [...new Set(entries.map((e) => e.userId))];
      return jsonReply(200, {
        audit_log_entries: entries.map((e) => ({
          id: e.id,
          action_type: e.actionType,
          target_id: e.targetId,
          user_id: e.userId,
          options: e.options,
          changes: [],
        })),
        users: userIds.flatMap((id) => {
          const user = store.user(id);
          return user ? [{ id: user.id, username: user.username, bot: user.bot }] : [];
        }),
        integrations: [],
        webhooks: [],
        application_commands: [],
        auto_moderation_rules: [],
        guild_scheduled_events: [],
        threads: [],
      });
    }),
  ];
}

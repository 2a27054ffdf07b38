import type { EmulatorContext } from '../context.js';
import { ApiError, missingAccess, unknown } from '../platform/errors.js';
import { isSnowflake } from '../snowflake.js';
import { ChannelKind } from '../social/Guilds.js';
import { LOBBY_MEMBER_CAN_LINK } from '../store/types.js';
import { formError, objectBody } from './lobbyBodies.js';
import { jsonReply } from './replies.js';
import { authenticate } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';
import { requireScope } from './scopes.js';

function missingPermissions(why: string): ApiError {
  return new ApiError(403, 50013, `Missing Permissions: ${why}`);
}

/**
 * `PATCH /lobbies/:lobby_id/channel-linking`: links a guild text channel to a lobby (`channel_id`), or
 * unlinks it (`channel_id` null or absent). The bot may link any text channel; a player must be a member
 * holding CanLinkLobby and may link only a channel they may view, write in and manage. A channel links to at
 * most one lobby. Members get LOBBY_UPDATE.
 */
export function lobbyLinkingRoutes(ctx: EmulatorContext): Route[] {
  const { lobbies, guilds, log } = ctx;
  return [
    apiRoute('PATCH', '/lobbies/:lobby_id/channel-linking', async (req) => {
      const caller = authenticate(ctx, req, { bearer: true, bot: true });
      requireScope(caller, 'lobbies.write');
      const lobby = lobbies.get(req.params.lobby_id ?? '');
      if (!lobby) throw unknown('Lobby');
      const body = objectBody(await req.json());
      const raw = body.channel_id ?? null;
      if (raw !== null && (typeof raw !== 'string' || !isSnowflake(raw))) {
        throw formError(['channel_id'], {
          code: 'NUMBER_TYPE_COERCE',
          message: `Value ${JSON.stringify(raw)} is not snowflake.`,
        });
      }
      if (caller.kind === 'bearer') {
        const member = lobbies.member(lobby.id, caller.user.id);
        if (!member) throw missingAccess();
        if ((member.flags & LOBBY_MEMBER_CAN_LINK) === 0) {
          throw missingPermissions('the member lacks the CanLinkLobby flag');
        }
      }
      if (raw !== null) {
        const channel = guilds.channel(raw);
        if (!channel) throw unknown('Channel');
        if (channel.type !== ChannelKind.TEXT) {
          throw new ApiError(400, 50024, 'Cannot execute action on this channel type');
        }
        if (caller.kind === 'bearer' && !guilds.mayLink(caller.user.id, channel.id)) {
          throw missingPermissions('linking needs VIEW_CHANNEL, SEND_MESSAGES and MANAGE_CHANNELS');
        }
        const other = lobbies.linkedTo(channel.id);
        // Emulator-defined error: the platform does not publish one for a channel that is already linked.
        if (other && other.id !== lobby.id) {
          throw formError(['channel_id'], {
            code: 'CHANNEL_ALREADY_LINKED',
            message: 'This channel is already linked to another lobby.',
          });
        }
      }
      lobbies.setLinkedChannel(lobby, raw);
      log.line(
        'lobbies',
        `${caller.kind === 'bot' ? 'the bot' : caller.user.username} ${raw === null ? 'unlinked' : 'linked'} lobby ${lobby.id}`,
      );
      return jsonReply(200, lobbies.wire(lobby));
    }),
  ];
}

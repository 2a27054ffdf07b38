import { wireRolePartial } from '../bot/guildWire.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, missingAccess, unknown } from '../platform/errors.js';
import type { ChannelInviteRecord, LobbyRecord } from '../store/types.js';
import { errorPage, escapeHtml, htmlPage } from './html.js';
import { htmlReply, jsonReply } from './replies.js';
import { requireBearer, requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';
import { requireScope } from './scopes.js';

/** What a lobby channel invite code can look like; anything else is unknown without a lookup. */
const INVITE_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Lobby channel invites (wire-protocols §4.8) and their redemption: a lobby member gets a single-use invite,
 * valid one hour, to the guild of the lobby's linked channel; redeeming it makes the user a guild member who
 * may view and write.
 */
export function channelInviteRoutes(ctx: EmulatorContext): Route[] {
  const { store, guilds, lobbies } = ctx;

  const lobbyOf = (req: RouteRequest): LobbyRecord => {
    const lobby = lobbies.get(req.params.lobby_id ?? '');
    if (!lobby) throw unknown('Lobby');
    return lobby;
  };

  /** Makes an invite for `userId`, who must be a member of a lobby with a linked channel. */
  const invite = (lobby: LobbyRecord, userId: string, who: string): ChannelInviteRecord => {
    if (!lobbies.isMember(lobby.id, userId)) {
      ctx.log.line('invites', `refused a channel invite: ${who} is not a member of lobby ${lobby.id}`);
      throw missingAccess('only lobby members get invites to its linked channel');
    }
    const channel = lobby.linkedChannelId === null ? undefined : guilds.channel(lobby.linkedChannelId);
    if (!channel) {
      ctx.log.line('invites', `refused a channel invite: lobby ${lobby.id} has no linked channel`);
      // Code 0 is the platform's general error; the message says what to do.
      throw new ApiError(
        400,
        0,
        'The lobby has no linked channel: link one (PATCH /lobbies/{lobby.id}/channel-linking) first',
      );
    }
    const record = guilds.invites.create({
      guildId: channel.guildId,
      channelId: channel.id,
      lobbyId: lobby.id,
      forUserId: userId,
    });
    // The code itself stays out of the log: it is as good as a key to the guild for the next hour.
    ctx.log.line('invites', `channel invite to #${channel.name} made for ${who} (lobby ${lobby.id})`);
    return record;
  };

  /** The invite's guild and channel as the redemption and lookup answer them. */
  const describe = (record: ChannelInviteRecord): Record<string, unknown> | undefined => {
    const guild = guilds.guild(record.guildId);
    const channel = guilds.channel(record.channelId);
    if (!guild || !channel) return undefined;
    return {
      type: 0,
      code: record.code,
      guild: { id: guild.id, name: guild.name },
      channel: { id: channel.id, name: channel.name, type: channel.type },
      ...(record.lobbyId === null
        ? {
            roles: (record.roleIds ?? []).flatMap((id) => {
              const role = guilds.role(guild.id, id);
              return role ? [wireRolePartial(role)] : [];
            }),
          }
        : {}),
    };
  };

  return [
    // The @me route comes first: the router takes the first pattern that matches.
    apiRoute('POST', '/lobbies/:lobby_id/members/@me/invites', (req) => {
      const caller = requireBearer(ctx, req);
      requireScope(caller, 'lobbies.write');
      const record = invite(lobbyOf(req), caller.user.id, caller.user.username);
      return jsonReply(200, { code: record.code });
    }),
    apiRoute('POST', '/lobbies/:lobby_id/members/:user_id/invites', (req) => {
      requireBot(ctx, req);
      const lobby = lobbyOf(req);
      const user = store.user(req.params.user_id ?? '');
      if (!user || user.bot) throw unknown('User');
      const record = invite(lobby, user.id, user.username);
      return jsonReply(200, { code: record.code });
    }),
    apiRoute('POST', '/invites/:code', (req) => {
      const caller = requireBearer(ctx, req);
      const code = req.params.code ?? '';
      const found = INVITE_CODE.test(code) ? guilds.invites.check(code, caller.user.id) : 'unknown';
      if (found === 'unknown') {
        ctx.log.line('invites', `${caller.user.username} tried an unknown, used or expired invite`);
        throw unknown('Invite');
      }
      if (found === 'not-yours') {
        ctx.log.line('invites', `${caller.user.username} tried an invite made for another user`);
        throw missingAccess('this invite was made for another user');
      }
      if (caller.user.provisional) {
        // Provisional accounts cannot join guilds; the SDK asks the game to merge the account first.
        throw missingAccess('provisional accounts cannot join guilds');
      }
      const answer = describe(found);
      if (!answer) throw unknown('Invite');
      if (guilds.isBanned(found.guildId, caller.user.id)) {
        // Refused before the use is counted: a banned user does not spend a single-use invite.
        ctx.log.line('invites', `${caller.user.username} is banned from guild ${found.guildId}`);
        throw new ApiError(403, 40007, 'The user is banned from this guild.');
      }
      guilds.invites.use(found);
      // An existing member keeps what they hold; only a newcomer gets view and send.
      if (!guilds.isMember(found.guildId, caller.user.id)) guilds.addMember(found.guildId, caller.user.id);
      // A guild invite's role_ids are given on acceptance (roles deleted since are skipped).
      const member = guilds.member(found.guildId, caller.user.id);
      if (member && (found.roleIds ?? []).length > 0) {
        guilds.setMemberRoles(found.guildId, caller.user.id, [...member.roles, ...(found.roleIds ?? [])]);
      }
      ctx.log.line('invites', `${caller.user.username} joined guild ${found.guildId} by invite`);
      return jsonReply(200, answer);
    }),
    {
      // The page behind the invite URL `joinLinkedLobbyGuild` hands out (`{web}/invite/{code}`): what the
      // invite is for; the chat client accepts it with POST /invites/{code}.
      method: 'GET',
      scope: 'root',
      pattern: '/invite/:code',
      style: 'html',
      handle: (req) => {
        const code = req.params.code ?? '';
        const record = INVITE_CODE.test(code) ? guilds.invites.live(code) : undefined;
        const guild = record ? guilds.guild(record.guildId) : undefined;
        const channel = record ? guilds.channel(record.channelId) : undefined;
        if (!record || !guild || !channel) {
          return htmlReply(404, errorPage('Invite invalid', 'This invite may be expired or already used.'));
        }
        const expires = new Date(record.expiresAt).toISOString();
        return htmlReply(
          200,
          htmlPage(
            `Join ${guild.name}`,
            `<h1>You've been invited to join ${escapeHtml(guild.name)}</h1>
<p class="sub">#${escapeHtml(channel.name)} — linked to a game lobby</p>
<p class="muted">Single use; valid until ${escapeHtml(expires)}. Open it in the chat client to accept.</p>`,
          ),
        );
      },
    },
    apiRoute('GET', '/invites/:code', (req) => {
      const code = req.params.code ?? '';
      const record = INVITE_CODE.test(code) ? guilds.invites.live(code) : undefined;
      const answer = record ? describe(record) : undefined;
      if (!record || !answer) throw unknown('Invite');
      return jsonReply(200, { ...answer, expires_at: new Date(record.expiresAt).toISOString() });
    }),
  ];
}

import type { EmulatorContext } from '../context.js';
import { missingAccess, unknown } from '../platform/errors.js';
import { ChannelKind } from '../social/Guilds.js';
import type { GuildChannelRecord } from '../store/types.js';
import { jsonReply } from './replies.js';
import { authenticate } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';
import { requireScope } from './scopes.js';

/**
 * The guild routes the SDK reads to choose a channel to link: a guild's channels (the current user's guilds
 * are currentUserGuilds.ts's).
 */
export function guildRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, lobbies } = ctx;
  const applicationId = ctx.store.state.application.id;

  /**
   * A channel as the lobby contract has it; `linkable`, `viewable_and_writeable_by_all_members` and
   * `linked_lobby` are emulator-defined fields for the SDK. `viewerId` null is the bot, which may link any
   * text channel it can see.
   */
  const wireChannel = (channel: GuildChannelRecord, viewerId: string | null): Record<string, unknown> => {
    const linked = lobbies.linkedTo(channel.id);
    return {
      id: channel.id,
      type: channel.type,
      name: channel.name,
      position: channel.position,
      parent_id: channel.parentId,
      guild_id: channel.guildId,
      permission_overwrites: channel.overwrites.map((o) => ({ ...o })),
      linkable: viewerId === null ? channel.type === ChannelKind.TEXT : guilds.mayLink(viewerId, channel.id),
      viewable_and_writeable_by_all_members: guilds.openToAllMembers(channel.id),
      linked_lobby: linked ? { application_id: applicationId, lobby_id: linked.id } : null,
    };
  };

  return [
    apiRoute('GET', '/guilds/:guild_id/channels', (req) => {
      const caller = authenticate(ctx, req, { bearer: true, bot: true });
      requireScope(caller, 'guilds.channels.read');
      const guild = guilds.guild(req.params.guild_id ?? '');
      if (!guild) throw unknown('Guild');
      const channels = guilds.channelsOf(guild.id);
      const me = caller.user.id;
      if (caller.kind === 'bot') {
        if (!guilds.isMember(guild.id, me)) throw missingAccess();
        // From 2026-11-16 the list omits every channel the calling bot lacks VIEW_CHANNEL for.
        const visible = channels.filter((c) => guilds.mayView(me, c.id));
        return jsonReply(
          200,
          visible.map((c) => wireChannel(c, null)),
        );
      }
      if (!guilds.isMember(guild.id, me)) {
        ctx.log.line('guilds', `${caller.user.username} is not a member of guild ${guild.id}`);
        throw missingAccess();
      }
      const visible = channels.filter((c) => guilds.mayView(me, c.id));
      return jsonReply(
        200,
        visible.map((c) => wireChannel(c, me)),
      );
    }),
  ];
}

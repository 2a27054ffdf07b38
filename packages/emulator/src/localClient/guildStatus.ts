import type { Guilds } from '../social/Guilds.js';
import type { GuildRecord, UserRecord } from '../store/types.js';
import { RpcCommandError, RpcErrorCode, type RpcCommand } from './protocol.js';

/**
 * How many guilds one connection may watch through GUILD_STATUS: a player's guilds are far fewer, and the
 * bound keeps a game subscribing in a loop from growing the set.
 */
export const MAX_GUILD_STATUS_SUBSCRIPTIONS = 200;

/** GUILD_STATUS's data: the guild's partial object and `online`, which the platform documents as always 0. */
export function guildStatusData(guild: GuildRecord): Record<string, unknown> {
  return {
    guild: {
      id: guild.id,
      name: guild.name,
      icon_url: guild.icon ? `https://cdn.discordapp.com/icons/${guild.id}/${guild.icon}.png` : null,
    },
    online: 0,
  };
}

/**
 * SUBSCRIBE / UNSUBSCRIBE of GUILD_STATUS: `args.guild_id` names a guild the signed-in user is a member of
 * (else ERROR 4003, as the platform answers an unknown guild). `watched` holds the guild ids this connection
 * gets the event for; the event name itself stays subscribed while any is watched.
 */
export function guildStatusSubscription(
  guilds: Guilds,
  user: UserRecord,
  command: RpcCommand,
  watched: Set<string>,
  subscriptions: Set<string>,
): unknown {
  const guildId = command.args.guild_id;
  if (typeof guildId !== 'string' || !guilds.isMember(guildId, user.id)) {
    throw new RpcCommandError(
      RpcErrorCode.InvalidGuild,
      `Invalid guild id: ${typeof guildId === 'string' ? guildId.slice(0, 32) : '(none)'}`,
    );
  }
  if (command.cmd === 'SUBSCRIBE') {
    if (!watched.has(guildId) && watched.size >= MAX_GUILD_STATUS_SUBSCRIPTIONS) {
      throw new RpcCommandError(
        RpcErrorCode.InvalidPayload,
        `at most ${MAX_GUILD_STATUS_SUBSCRIPTIONS} guilds can be watched on one connection`,
      );
    }
    watched.add(guildId);
    subscriptions.add('GUILD_STATUS');
  } else {
    watched.delete(guildId);
    if (watched.size === 0) subscriptions.delete('GUILD_STATUS');
  }
  return { evt: 'GUILD_STATUS' };
}

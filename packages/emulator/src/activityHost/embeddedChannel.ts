import { fail } from '../localClient/commands.js';
import { RpcErrorCode } from '../localClient/protocol.js';
import { hasAll, Permission } from '../platform/permissions.js';
import type { EmbeddedScope } from './embeddedScope.js';
import { activityLink } from './embeddedShare.js';
import { embeddedVoiceState } from './embeddedVoice.js';

/** The scope GET_CHANNEL needs for a guild channel (the SDK's "Required scopes"). */
export const GUILDS_SCOPE = 'guilds';

/**
 * GET_CHANNEL (`getChannel`): a guild channel the player can see, with the voice states of who is in it. Needs
 * an AUTHENTICATE with `guilds` (4006); a channel that is not there or not visible to the player is 4005.
 * `messages` is empty: the emulated client keeps no message cache for Activities.
 */
export function getChannel(scope: EmbeddedScope, args: Record<string, unknown>): unknown {
  const { ctx, user } = scope;
  if (typeof args.channel_id !== 'string' || !/^\d{1,20}$/.test(args.channel_id))
    fail(RpcErrorCode.InvalidPayload, '"channel_id" must be a snowflake');
  if (!scope.authenticated?.includes(GUILDS_SCOPE))
    fail(RpcErrorCode.InvalidPermissions, `GET_CHANNEL needs an AUTHENTICATE with ${GUILDS_SCOPE}`);
  const channel = ctx.guilds.channel(args.channel_id);
  if (!channel || !ctx.guilds.mayView(user.id, channel.id))
    fail(RpcErrorCode.InvalidChannel, 'Invalid channel');
  const voiceStates = ctx.guilds.voice
    .statesOf(channel.guildId)
    .filter((s) => s.channelId === channel.id)
    .map((s) => embeddedVoiceState(ctx, s))
    .filter((s) => s !== null);
  return {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guildId,
    name: channel.name,
    topic: channel.topic ?? null,
    bitrate: channel.type === 2 ? (channel.bitrate ?? 64_000) : null,
    user_limit: channel.type === 2 ? (channel.userLimit ?? 0) : null,
    position: channel.position,
    voice_states: voiceStates,
    messages: [],
  };
}

/**
 * OPEN_INVITE_DIALOG (`openInviteDialog`): the client's invite dialog, in the host page, with the Activity's
 * link. As the SDK documents: in a private launch (no guild channel) it is 4005, and without
 * CREATE_INSTANT_INVITE in the channel 4006. The reply is null once the dialog shows.
 */
export function openInviteDialog(scope: EmbeddedScope): unknown {
  const { ctx, instance, user } = scope;
  if (instance.channelId === null)
    fail(RpcErrorCode.InvalidChannel, 'Invalid channel: not in a guild channel');
  if (!hasAll(ctx.guilds.permissions(user.id, instance.channelId), Permission.CREATE_INSTANT_INVITE))
    fail(RpcErrorCode.InvalidPermissions, 'The player may not create invites in this channel');
  scope.showDialog({ kind: 'invite', url: activityLink(ctx, null) });
  ctx.log.line('activity', `${user.username} opened the invite dialog`);
  return null;
}

import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import { fail } from '../localClient/commands.js';
import { RpcErrorCode, type RpcCommand } from '../localClient/protocol.js';
import type { GuildVoiceState } from '../social/GuildVoice.js';
import type { UserRecord } from '../store/types.js';
import type { EmbeddedScope } from './embeddedScope.js';

/** The scope VOICE_STATE_UPDATE, SPEAKING_START and SPEAKING_STOP need (the SDK's "Required scopes"). */
export const VOICE_READ_SCOPE = 'rpc.voice.read';

/** The scope CURRENT_GUILD_MEMBER_UPDATE needs. */
export const MEMBERS_READ_SCOPE = 'guilds.members.read';

/** The events that need a scope, and which. */
export const EVENT_SCOPES: Readonly<Record<string, string>> = {
  VOICE_STATE_UPDATE: VOICE_READ_SCOPE,
  SPEAKING_START: VOICE_READ_SCOPE,
  SPEAKING_STOP: VOICE_READ_SCOPE,
  CURRENT_GUILD_MEMBER_UPDATE: MEMBERS_READ_SCOPE,
};

/** A user as the SDK's `User` schema reads it (in voice states). */
export function embeddedUser(user: UserRecord): Record<string, unknown> {
  const wire = wireUser(user);
  return {
    id: wire.id,
    username: wire.username,
    discriminator: wire.discriminator,
    global_name: wire.global_name,
    avatar: wire.avatar,
    avatar_decoration_data: null,
    bot: false,
    flags: wire.flags,
  };
}

/** A voice state as VOICE_STATE_UPDATE and GET_CHANNEL send it (the SDK's `UserVoiceState`). */
export function embeddedVoiceState(
  ctx: EmulatorContext,
  state: GuildVoiceState,
): Record<string, unknown> | null {
  const user = ctx.store.user(state.userId);
  if (!user) return null;
  const member = ctx.guilds.member(state.guildId, state.userId);
  return {
    mute: state.mute,
    nick: member?.nick ?? user.globalName ?? user.username,
    user: embeddedUser(user),
    voice_state: {
      mute: state.mute,
      deaf: state.deaf,
      self_mute: state.selfMute,
      self_deaf: state.selfDeaf,
      suppress: false,
    },
    // The player's local volume for that user: the emulated client leaves everyone at 100 %.
    volume: 100,
  };
}

/** A member as CURRENT_GUILD_MEMBER_UPDATE sends it (the SDK's `GuildMemberRPC`). */
export function embeddedMember(
  ctx: EmulatorContext,
  guildId: string,
  userId: string,
): Record<string, unknown> {
  const member = ctx.guilds.member(guildId, userId);
  return {
    user_id: userId,
    nick: member?.nick ?? null,
    guild_id: guildId,
    avatar: member?.avatar ?? null,
    avatar_decoration_data: null,
    color_string: null,
  };
}

function idArg(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !/^\d{1,20}$/.test(value))
    fail(RpcErrorCode.InvalidPayload, `"${name}" must be a snowflake`);
  return value;
}

/**
 * The arguments a SUBSCRIBE to a voice or member event is kept with, checked: the scope it needs, and a
 * channel the player can see (`channel_id`; the instance's channel when a speaking subscription names none) or
 * a guild the player is in (`guild_id`). Other events keep no arguments.
 */
export function subscribeArgs(scope: EmbeddedScope, command: RpcCommand): Record<string, string> {
  const evt = command.evt ?? '';
  const needed = EVENT_SCOPES[evt];
  if (needed === undefined) return {};
  if (!scope.authenticated?.includes(needed))
    fail(RpcErrorCode.InvalidPermissions, `${evt} needs an AUTHENTICATE with ${needed}`);
  const { ctx, user } = scope;
  if (evt === 'CURRENT_GUILD_MEMBER_UPDATE') {
    const guildId = idArg(command.args, 'guild_id');
    if (guildId === undefined) fail(RpcErrorCode.InvalidPayload, '"guild_id" is required');
    if (!ctx.guilds.isMember(guildId, user.id)) fail(RpcErrorCode.InvalidGuild, 'Invalid guild');
    return { guild_id: guildId };
  }
  const channelId =
    idArg(command.args, 'channel_id') ??
    (evt === 'VOICE_STATE_UPDATE' ? undefined : scope.instance.channelId);
  if (channelId === undefined || channelId === null)
    fail(RpcErrorCode.InvalidPayload, '"channel_id" is required');
  if (!ctx.guilds.channel(channelId) || !ctx.guilds.mayView(user.id, channelId))
    fail(RpcErrorCode.InvalidChannel, 'Invalid channel');
  return { channel_id: channelId };
}

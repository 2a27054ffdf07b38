import { optionalBoolean, optionalString, type FieldErrors } from '../bodies/fieldErrors.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, invalidFormBody, missingPermissions } from '../platform/errors.js';
import { Permission, hasAll } from '../platform/permissions.js';
import { ChannelKind } from '../social/Guilds.js';
import type { GuildRecord } from '../store/types.js';

/** The voice fields of Modify Guild Member: server mute, server deafen, and a move (`channel_id`). */
export interface MemberVoiceChange {
  mute?: boolean;
  deaf?: boolean;
  /** Another voice channel of the guild, or null to disconnect; absent: no move. */
  channelId?: string | null;
}

/** Reads `mute`, `deaf` and `channel_id` of a Modify Guild Member body. */
export function readMemberVoiceChange(errors: FieldErrors, body: Record<string, unknown>): MemberVoiceChange {
  const mute = optionalBoolean(errors, ['mute'], body.mute);
  const deaf = optionalBoolean(errors, ['deaf'], body.deaf);
  const channelId = Object.hasOwn(body, 'channel_id')
    ? body.channel_id === null
      ? null
      : optionalString(errors, ['channel_id'], body.channel_id, 20, 1)
    : undefined;
  return {
    ...(mute === undefined ? {} : { mute }),
    ...(deaf === undefined ? {} : { deaf }),
    ...(channelId === undefined ? {} : { channelId }),
  };
}

/**
 * Checks a member voice change against the bot's permissions: MUTE_MEMBERS for `mute`, DEAFEN_MEMBERS for
 * `deaf`, MOVE_MEMBERS for `channel_id` (and CONNECT in the channel moved to, which must be one of the
 * guild's voice channels); a move of a user who is not in voice is 400 40032, as on the platform.
 */
export function checkMemberVoiceChange(
  ctx: EmulatorContext,
  guild: GuildRecord,
  userId: string,
  botId: string,
  change: MemberVoiceChange,
): void {
  const { guilds } = ctx;
  const held = guilds.guildPermissions(guild.id, botId);
  const missing = [
    ...(change.mute !== undefined && !hasAll(held, Permission.MUTE_MEMBERS) ? ['MUTE_MEMBERS'] : []),
    ...(change.deaf !== undefined && !hasAll(held, Permission.DEAFEN_MEMBERS) ? ['DEAFEN_MEMBERS'] : []),
    ...(change.channelId !== undefined && !hasAll(held, Permission.MOVE_MEMBERS) ? ['MOVE_MEMBERS'] : []),
  ];
  if (missing.length > 0) throw missingPermissions(missing);
  if (change.channelId === undefined) return;
  if (!guilds.voice.state(guild.id, userId)) {
    throw new ApiError(400, 40032, 'Target user is not connected to voice.');
  }
  if (change.channelId === null) return;
  const channel = guilds.channel(change.channelId);
  if (channel?.guildId !== guild.id || channel.type !== ChannelKind.VOICE) {
    throw invalidFormBody({
      channel_id: { code: 'CHANNEL_TYPE_INVALID', message: 'Must be a voice channel of the guild.' },
    });
  }
  if (!hasAll(guilds.permissions(botId, channel.id), Permission.VIEW_CHANNEL | Permission.CONNECT)) {
    throw missingPermissions(['CONNECT']);
  }
}

/** Applies a checked member voice change: the member's server flags, then the move. */
export function applyMemberVoiceChange(
  ctx: EmulatorContext,
  guild: GuildRecord,
  userId: string,
  change: MemberVoiceChange,
): void {
  const { guilds, guildVoice } = ctx;
  if (change.mute !== undefined || change.deaf !== undefined) {
    guilds.updateMember(guild.id, userId, {
      ...(change.mute === undefined ? {} : { mute: change.mute }),
      ...(change.deaf === undefined ? {} : { deaf: change.deaf }),
    });
  }
  if (change.channelId !== undefined) guildVoice.move(guild.id, userId, change.channelId);
}

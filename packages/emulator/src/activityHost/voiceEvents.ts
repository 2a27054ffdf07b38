import type { EmulatorContext } from '../context.js';
import type { VoiceCalls } from '../voice/VoiceCalls.js';
import { embeddedMember, embeddedVoiceState } from './embeddedVoice.js';

/** Sends an event to the frames subscribed with matching arguments (see ActivityHost.dispatchWhere). */
export type DispatchWhere = (
  evt: string,
  match: Record<string, string>,
  data: () => unknown,
  userId?: string,
) => number;

/**
 * Voice states (VOICE_STATE_UPDATE), speaking (SPEAKING_START / SPEAKING_STOP, from the voice server's speaking
 * ops) and the player's own member changes (CURRENT_GUILD_MEMBER_UPDATE) reach the frames that subscribed to
 * them for that channel or guild.
 */
export function wireVoiceEvents(ctx: EmulatorContext, calls: VoiceCalls, dispatch: DispatchWhere): void {
  ctx.guilds.voice.on('voiceState', (state) => {
    if (state.channelId === null) return;
    const joined = { ...state, channelId: state.channelId };
    dispatch('VOICE_STATE_UPDATE', { channel_id: state.channelId }, () => embeddedVoiceState(ctx, joined));
  });
  calls.on('speaking', (channelId, userId, speaking) => {
    dispatch(speaking === 0 ? 'SPEAKING_STOP' : 'SPEAKING_START', { channel_id: channelId }, () => ({
      channel_id: channelId,
      user_id: userId,
    }));
  });
  ctx.guilds.on('memberUpdated', (guildId, userId) => {
    dispatch(
      'CURRENT_GUILD_MEMBER_UPDATE',
      { guild_id: guildId },
      () => embeddedMember(ctx, guildId, userId),
      userId,
    );
  });
}

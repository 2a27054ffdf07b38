import type { VoiceStateChange } from '../social/GuildVoice.js';

/** A guild voice state as the API and VOICE_STATE_UPDATE send it (`channel_id` null on leave). */
export function wireGuildVoiceState(
  state: VoiceStateChange,
  member: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return {
    guild_id: state.guildId,
    channel_id: state.channelId,
    user_id: state.userId,
    ...(member ? { member } : {}),
    session_id: state.sessionId,
    deaf: state.deaf,
    mute: state.mute,
    self_deaf: state.selfDeaf,
    self_mute: state.selfMute,
    self_stream: false,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

import { GatewayClose, GatewayOpcode } from '@sdkpp/protocol';

/**
 * Client opcodes that are valid after Identify but have no handler yet: they are accepted and ignored, not
 * refused with 4001, so an SDK that already sends them keeps working while later features fill them in.
 */
export const ACCEPTED_CLIENT_OPS: ReadonlySet<number> = new Set([
  GatewayOpcode.PresenceUpdate,
  GatewayOpcode.VoiceStateUpdate,
  GatewayOpcode.RequestGuildMembers,
  GatewayOpcode.LobbyVoiceStates,
  GatewayOpcode.RequestSoundboardSounds,
  GatewayOpcode.LobbyVoiceServerPing,
  GatewayOpcode.RequestChannelInfo,
]);

/**
 * Codes after which the server ends the session instead of keeping it resumable: the documented "new
 * session" and terminal codes. A server close with any other code (4000, 4001, 4002, …) keeps the
 * session open for a resume, as does a dropped connection.
 */
export const SESSION_ENDING_CODES: ReadonlySet<number> = new Set([
  GatewayClose.Normal,
  GatewayClose.GoingAway,
  GatewayClose.NotAuthenticated,
  GatewayClose.AuthenticationFailed,
  GatewayClose.AlreadyAuthenticated,
  GatewayClose.InvalidSeq,
  GatewayClose.RateLimited,
  GatewayClose.SessionTimedOut,
  GatewayClose.InvalidShard,
  GatewayClose.ShardingRequired,
  GatewayClose.InvalidApiVersion,
  GatewayClose.InvalidIntents,
  GatewayClose.DisallowedIntents,
]);

/** Gateway opcodes the emulator sends or reads (reference §1.2). */
export const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
  LobbyVoiceStates: 17,
  RequestSoundboardSounds: 31,
  LobbyVoiceServerPing: 42,
  RequestChannelInfo: 43,
} as const;

/**
 * Client opcodes that are valid after Identify but have no handler yet: they are accepted and ignored, not
 * refused with 4001, so an SDK that already sends them keeps working while later features fill them in.
 */
export const ACCEPTED_CLIENT_OPS: ReadonlySet<number> = new Set([
  Op.PresenceUpdate,
  Op.VoiceStateUpdate,
  Op.RequestGuildMembers,
  Op.LobbyVoiceStates,
  Op.RequestSoundboardSounds,
  Op.LobbyVoiceServerPing,
  Op.RequestChannelInfo,
]);

/** Gateway close codes (reference §1.6). */
export const Close = {
  Normal: 1000,
  GoingAway: 1001,
  UnknownError: 4000,
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  InvalidSeq: 4007,
  RateLimited: 4008,
  SessionTimedOut: 4009,
  InvalidShard: 4010,
  InvalidApiVersion: 4012,
  InvalidIntents: 4013,
} as const;

/**
 * Codes after which the server ends the session instead of keeping it resumable: the documented "new
 * session" and terminal codes. A server close with any other code (4000, 4001, 4002, …) keeps the
 * session open for a resume, as does a dropped connection.
 */
export const SESSION_ENDING_CODES: ReadonlySet<number> = new Set([
  1000, 1001, 4003, 4004, 4005, 4007, 4008, 4009, 4010, 4011, 4012, 4013, 4014,
]);

/** The largest payload a client may send (bytes). */
export const MAX_CLIENT_PAYLOAD_BYTES = 4096;

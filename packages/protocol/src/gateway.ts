/**
 * The main gateway's wire (wire-protocols §1): opcodes, the payload envelope, close codes and limits. The
 * SDK's gateway client and the emulator's gateway server both read it, so each number is written once.
 */

/** Main gateway opcodes the SDK sends or the emulator serves (wire-protocols §1.2). */
export enum GatewayOpcode {
  Dispatch = 0,
  Heartbeat = 1,
  Identify = 2,
  PresenceUpdate = 3,
  VoiceStateUpdate = 4,
  Resume = 6,
  Reconnect = 7,
  RequestGuildMembers = 8,
  InvalidSession = 9,
  Hello = 10,
  HeartbeatAck = 11,
  LobbyVoiceStates = 17,
  RequestSoundboardSounds = 31,
  LobbyVoiceServerPing = 42,
  RequestChannelInfo = 43,
}

/** The envelope of every gateway message. */
export interface GatewayPayload {
  op: number;
  d?: unknown;
  s?: number | null;
  t?: string | null;
}

/** The gateway API version the SDK speaks. */
export const GATEWAY_VERSION = 10;

/**
 * The largest payload a client may send (bytes): a larger one closes the connection with 4002, so the SDK
 * refuses to send one and the emulator closes as the platform does.
 */
export const MAX_CLIENT_PAYLOAD_BYTES = 4096;

/** Gateway close codes (wire-protocols §1.6). */
export const GatewayClose = {
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
  ShardingRequired: 4011,
  InvalidApiVersion: 4012,
  InvalidIntents: 4013,
  DisallowedIntents: 4014,
} as const;

/** Close codes after which reconnecting cannot help: authentication failed, invalid shard, version or intents. */
export const TERMINAL_CLOSE_CODES: ReadonlySet<number> = new Set([
  GatewayClose.AuthenticationFailed,
  GatewayClose.InvalidShard,
  GatewayClose.ShardingRequired,
  GatewayClose.InvalidApiVersion,
  GatewayClose.InvalidIntents,
  GatewayClose.DisallowedIntents,
]);

/** Close codes after which the session is gone and a fresh Identify is needed. */
export const NEW_SESSION_CLOSE_CODES: ReadonlySet<number> = new Set([
  GatewayClose.Normal,
  GatewayClose.NotAuthenticated,
  GatewayClose.AlreadyAuthenticated,
  GatewayClose.InvalidSeq,
  GatewayClose.RateLimited,
  GatewayClose.SessionTimedOut,
]);

/** What the platform's close codes mean, for log lines and status details. */
export const CLOSE_CODE_NAMES: Readonly<Record<number, string>> = {
  4000: 'Unknown error',
  4001: 'Unknown opcode',
  4002: 'Decode error',
  4003: 'Not authenticated',
  4004: 'Authentication failed',
  4005: 'Already authenticated',
  4007: 'Invalid seq',
  4008: 'Rate limited',
  4009: 'Session timed out',
  4010: 'Invalid shard',
  4011: 'Sharding required',
  4012: 'Invalid API version',
  4013: 'Invalid intents',
  4014: 'Disallowed intents',
};

/** Gateway capability: READY lists the user's lobbies instead of replaying LOBBY_CREATE (wire-protocols §1.4). */
export const CAPABILITY_AUTO_LOBBY_CONNECT = 1 << 16;

/** Describes a close code for a log line, e.g. `4004 (Authentication failed)`. */
export function describeCloseCode(code: number): string {
  const name = CLOSE_CODE_NAMES[code];
  return name ? `${code} (${name})` : String(code);
}

/** Main gateway opcodes the SDK uses (wire-protocols §1.2). */
export enum GatewayOpcode {
  Dispatch = 0,
  Heartbeat = 1,
  Identify = 2,
  PresenceUpdate = 3,
  VoiceStateUpdate = 4,
  Resume = 6,
  Reconnect = 7,
  InvalidSession = 9,
  Hello = 10,
  HeartbeatAck = 11,
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

/** A client payload larger than this closes the connection with 4002, so the SDK refuses to send one. */
export const MAX_CLIENT_PAYLOAD_BYTES = 4096;

/** Close codes after which reconnecting cannot help: authentication failed, invalid shard, version or intents. */
export const TERMINAL_CLOSE_CODES: ReadonlySet<number> = new Set([4004, 4010, 4011, 4012, 4013, 4014]);

/** Close codes after which the session is gone and a fresh Identify is needed. */
export const NEW_SESSION_CLOSE_CODES: ReadonlySet<number> = new Set([1000, 4003, 4005, 4007, 4008, 4009]);

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

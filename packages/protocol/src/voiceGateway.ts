/**
 * The voice gateway v8 wire format (wire-protocols.md §2.2–2.3): opcodes, close codes, and the framing of
 * JSON and binary (DAVE) messages. The SDK's voice client and the emulator's voice server both read it, so
 * each number is written once. Pure functions, so each piece is unit-tested on its own.
 */

/** Voice gateway opcodes (wire-protocols.md §2.2). */
export const VoiceOpcode = {
  Identify: 0,
  SelectProtocol: 1,
  Ready: 2,
  Heartbeat: 3,
  SessionDescription: 4,
  Speaking: 5,
  HeartbeatAck: 6,
  Resume: 7,
  Hello: 8,
  Resumed: 9,
  ClientsConnect: 11,
  ClientDisconnect: 13,
  DavePrepareTransition: 21,
  DaveExecuteTransition: 22,
  DaveTransitionReady: 23,
  DavePrepareEpoch: 24,
  DaveMlsExternalSender: 25,
  DaveMlsKeyPackage: 26,
  DaveMlsProposals: 27,
  DaveMlsCommitWelcome: 28,
  DaveMlsAnnounceCommitTransition: 29,
  DaveMlsWelcome: 30,
  DaveMlsInvalidCommitWelcome: 31,
} as const;

/** Voice gateway close codes (wire-protocols.md §2.3). */
export const VoiceClose = {
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  SessionInvalid: 4006,
  SessionTimeout: 4009,
  ServerNotFound: 4011,
  UnknownProtocol: 4012,
  Disconnected: 4014,
  ServerCrashed: 4015,
  UnknownEncryptionMode: 4016,
  DaveRequired: 4017,
  BadRequest: 4020,
  RateLimited: 4021,
  CallTerminated: 4022,
} as const;

/** The voice gateway version the SDK speaks. */
export const VOICE_GATEWAY_VERSION = 8;

/** The highest DAVE protocol version the SDK offers in Identify. */
export const MAX_DAVE_PROTOCOL_VERSION = 1;

/** Transport encryption modes in the SDK's order of preference (§2.6: AES-GCM when offered). */
export const PREFERRED_TRANSPORT_MODES = [
  'aead_aes256_gcm_rtpsize',
  'aead_xchacha20_poly1305_rtpsize',
] as const;

/** Speaking flags (§2.2): microphone. */
export const SPEAKING_MICROPHONE = 1;

/** Heartbeat ACKs that may be missing before the connection is considered dead (as discord.js does). */
export const MAX_MISSED_HEARTBEAT_ACKS = 3;

/** Voice close codes that end the connection for good (§2.3): kicked, rate limited, call terminated. */
export const TERMINAL_VOICE_CLOSE_CODES: ReadonlySet<number> = new Set([
  VoiceClose.Disconnected,
  VoiceClose.RateLimited,
  VoiceClose.CallTerminated,
]);

/**
 * What to do after the voice socket closed with `code`: resume (4015, or any code below 4000, which
 * includes an abnormal 1006), never come back (4014/4021/4022), or reconnect from scratch (everything
 * else, e.g. 4006 "session no longer valid").
 */
export function voiceCloseAction(code: number): 'resume' | 'terminal' | 'reconnect' {
  if (TERMINAL_VOICE_CLOSE_CODES.has(code)) return 'terminal';
  if (code === VoiceClose.ServerCrashed || code < 4000) return 'resume';
  return 'reconnect';
}

/** The voice gateway URL for an endpoint (`host:port`, no scheme), per the API base's scheme. */
export function voiceGatewayUrl(endpoint: string, secure: boolean): string {
  const host = endpoint.replace(/^wss?:\/\//, '').replace(/\/.*$/, '');
  return `${secure ? 'wss' : 'ws'}://${host}/?v=${VOICE_GATEWAY_VERSION}`;
}

/** The transport mode to ask for among those the server offered, or undefined when none is usable. */
export function chooseTransportMode(offered: readonly unknown[]): string | undefined {
  return PREFERRED_TRANSPORT_MODES.find((mode) => offered.includes(mode));
}

/** A decoded server message. */
export type VoiceServerMessage =
  | { kind: 'json'; op: number; d: unknown; seq: number | undefined }
  | { kind: 'binary'; op: number; payload: Uint8Array; seq: number };

/**
 * Decodes one server message: JSON text `{op, d, seq?}`, or binary `u16 BE seq ‖ u8 op ‖ payload`.
 * Returns undefined for anything malformed (the caller logs and ignores it).
 */
export function decodeServerMessage(
  data: Uint8Array | string,
  isBinary: boolean,
): VoiceServerMessage | undefined {
  if (isBinary && typeof data !== 'string') {
    if (data.length < 3) return undefined;
    const seq = ((data[0] ?? 0) << 8) | (data[1] ?? 0);
    return { kind: 'binary', seq, op: data[2] ?? 0, payload: data.subarray(3) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { op, d, seq } = parsed as { op?: unknown; d?: unknown; seq?: unknown };
  if (typeof op !== 'number' || !Number.isInteger(op)) return undefined;
  return { kind: 'json', op, d, seq: typeof seq === 'number' && Number.isInteger(seq) ? seq : undefined };
}

/** Encodes a client JSON message. */
export function encodeJson(op: number, d: unknown): string {
  return JSON.stringify({ op, d });
}

/** Encodes a client binary message: `u8 op ‖ payload` (clients send no sequence number). */
export function encodeBinary(op: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + payload.length);
  out[0] = op & 0xff;
  out.set(payload, 1);
  return out;
}

/** The fields of op 2 Ready the SDK uses (its `heartbeat_interval` is ignored, as the reference says). */
export interface VoiceReady {
  ssrc: number;
  ip: string;
  port: number;
  modes: string[];
}

/** Reads op 2 Ready; undefined when a field is missing or out of range. */
export function parseReady(d: unknown): VoiceReady | undefined {
  const r = d as { ssrc?: unknown; ip?: unknown; port?: unknown; modes?: unknown } | null;
  if (!r || typeof r !== 'object') return undefined;
  const { ssrc, ip, port, modes } = r;
  if (typeof ssrc !== 'number' || !Number.isInteger(ssrc) || ssrc < 0 || ssrc > 0xffffffff) return undefined;
  if (
    typeof ip !== 'string' ||
    typeof port !== 'number' ||
    !Number.isInteger(port) ||
    port < 1 ||
    port > 65535
  )
    return undefined;
  if (!Array.isArray(modes)) return undefined;
  return { ssrc, ip, port, modes: modes.filter((m): m is string => typeof m === 'string') };
}

/** The fields of op 4 Session Description. */
export interface SessionDescription {
  mode: string;
  secretKey: Uint8Array;
  daveProtocolVersion: number;
}

/** Reads op 4; undefined unless the key is exactly 32 bytes. */
export function parseSessionDescription(d: unknown): SessionDescription | undefined {
  const r = d as { mode?: unknown; secret_key?: unknown; dave_protocol_version?: unknown } | null;
  if (!r || typeof r !== 'object' || typeof r.mode !== 'string' || !Array.isArray(r.secret_key))
    return undefined;
  const key = r.secret_key as unknown[];
  if (
    key.length !== 32 ||
    !key.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255)
  )
    return undefined;
  const version = typeof r.dave_protocol_version === 'number' ? r.dave_protocol_version : 0;
  return { mode: r.mode, secretKey: Uint8Array.from(key as number[]), daveProtocolVersion: version };
}

/** Reads server op 5 `{speaking, ssrc, user_id}`. */
export function parseSpeaking(d: unknown): { userId: string; ssrc: number; speaking: number } | undefined {
  const r = d as { user_id?: unknown; ssrc?: unknown; speaking?: unknown } | null;
  if (!r || typeof r !== 'object' || typeof r.user_id !== 'string') return undefined;
  if (typeof r.ssrc !== 'number' || !Number.isInteger(r.ssrc) || r.ssrc < 0 || r.ssrc > 0xffffffff)
    return undefined;
  return { userId: r.user_id, ssrc: r.ssrc, speaking: typeof r.speaking === 'number' ? r.speaking : 0 };
}

/** Reads op 11 `{user_ids}`. */
export function parseClientsConnect(d: unknown): string[] {
  const ids = (d as { user_ids?: unknown } | null)?.user_ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** Reads op 13 `{user_id}`. */
export function parseClientDisconnect(d: unknown): string | undefined {
  const id = (d as { user_id?: unknown } | null)?.user_id;
  return typeof id === 'string' ? id : undefined;
}

import { isTransportEncryptionMode, type TransportEncryptionMode } from 'sdkpp/media';
import { VoiceClose } from '@sdkpp/protocol';
import { isObject, isU16, type FrameError } from './frames.js';

// The shape checks of the client's requests, apart from what they mean for the call: a connection first
// needs to know a request is well-formed, then looks up calls and sessions. Each parser returns the
// request's fields or the close code and reason for a malformed one.

/** Op 0 Identify's fields. */
export interface IdentifyRequest {
  /** The lobby id. */
  serverId: string;
  /** The user identifying. */
  userId: string;
  /** The main gateway session. */
  sessionId: string;
  /** The voice token from VOICE_SERVER_UPDATE. */
  token: string;
  /** `max_dave_protocol_version` as sent: checked by {@link parseMaxDaveVersion} once the user is known. */
  maxDaveProtocolVersion: unknown;
}

/** Op 0 Identify's string fields, or a bad request. */
export function parseIdentify(d: unknown): IdentifyRequest | FrameError {
  if (
    !isObject(d) ||
    typeof d.server_id !== 'string' ||
    typeof d.user_id !== 'string' ||
    typeof d.session_id !== 'string' ||
    typeof d.token !== 'string'
  ) {
    return {
      code: VoiceClose.BadRequest,
      reason: 'bad request: Identify needs server_id, user_id, session_id and token',
    };
  }
  return {
    serverId: d.server_id,
    userId: d.user_id,
    sessionId: d.session_id,
    token: d.token,
    maxDaveProtocolVersion: d.max_dave_protocol_version,
  };
}

/** Identify's `max_dave_protocol_version` (absent: 0), or a bad request. */
export function parseMaxDaveVersion(value: unknown): { max: number } | FrameError {
  const max = value ?? 0;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) {
    return {
      code: VoiceClose.BadRequest,
      reason: 'bad request: max_dave_protocol_version must be an integer ≥ 0',
    };
  }
  return { max };
}

/** Op 7 Resume's fields. */
export interface ResumeRequest {
  /** The lobby id. */
  serverId: string;
  /** The main gateway session the voice session was identified with. */
  sessionId: string;
  /** The voice token. */
  token: string;
  /** The last sequence number the client received (-1: none). */
  seqAck: number;
}

/** Op 7 Resume's fields, or a bad request. */
export function parseResume(d: unknown): ResumeRequest | FrameError {
  if (
    !isObject(d) ||
    typeof d.server_id !== 'string' ||
    typeof d.session_id !== 'string' ||
    typeof d.token !== 'string'
  ) {
    return {
      code: VoiceClose.BadRequest,
      reason: 'bad request: Resume needs server_id, session_id and token',
    };
  }
  const seqAck = d.seq_ack ?? -1;
  if (typeof seqAck !== 'number' || !Number.isInteger(seqAck) || seqAck < -1 || seqAck > 0xffff) {
    return { code: VoiceClose.BadRequest, reason: 'bad request: seq_ack must be -1 or a u16' };
  }
  return { serverId: d.server_id, sessionId: d.session_id, token: d.token, seqAck };
}

/** Op 1 Select Protocol's fields. */
export interface SelectProtocolRequest {
  /** The client's address as IP discovery found it. */
  address: string;
  /** The client's UDP port. */
  port: number;
  /** The transport encryption mode chosen. */
  mode: TransportEncryptionMode;
}

/** Op 1 Select Protocol's fields, or why it is refused (bad request, protocol or mode). */
export function parseSelectProtocol(d: unknown): SelectProtocolRequest | FrameError {
  if (!isObject(d) || !isObject(d.data)) {
    return { code: VoiceClose.BadRequest, reason: 'bad request: Select Protocol needs {protocol, data}' };
  }
  if (d.protocol !== 'udp') return { code: VoiceClose.UnknownProtocol, reason: 'unknown protocol' };
  const { address, port, mode } = d.data;
  if (typeof address !== 'string' || !isU16(port)) {
    return { code: VoiceClose.BadRequest, reason: 'bad request: data needs address and port' };
  }
  if (!isTransportEncryptionMode(mode)) {
    return { code: VoiceClose.UnknownEncryptionMode, reason: 'unknown encryption mode' };
  }
  return { address, port, mode };
}

/** Op 5 Speaking's flags (a u8), or a bad request. */
export function parseSpeaking(d: unknown): { speaking: number } | FrameError {
  const speaking = isObject(d) ? d.speaking : undefined;
  if (typeof speaking !== 'number' || !Number.isInteger(speaking) || speaking < 0 || speaking > 0xff) {
    return { code: VoiceClose.BadRequest, reason: 'bad request: Speaking needs speaking flags' };
  }
  return { speaking };
}

import type { RawData } from 'ws';

import { VoiceClose } from '@sdkpp/protocol';
import { JsonBoundsError, MAX_JSON_DEPTH, parseBoundedJson } from '@sdkpp/protocol';
import { BINARY_CLIENT_OPS, IGNORED_CLIENT_OPS, JSON_CLIENT_OPS } from './opcodes.js';

/** Why a client frame cannot be handled: the close code and reason the socket gets. */
export interface FrameError {
  /** The voice close code. */
  code: number;
  /** The close reason. */
  reason: string;
}

/** Whether `value` is a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` is an integer in 0…65535. */
export const isU16 = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffff;

/** One buffer from whatever shape ws delivered a message in. */
export function toBuffer(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? Buffer.from(data) : data;
}

/**
 * A text frame as `{op, d}`, or why it is refused: not JSON, not `{op}`, a binary-only op, or an op the
 * gateway does not know.
 */
export function decodeText(data: Buffer): { op: number; d: unknown } | FrameError {
  let payload: unknown;
  try {
    payload = parseBoundedJson(data.toString('utf8'));
  } catch (error) {
    const deep = error instanceof JsonBoundsError && error.problem === 'too_deep';
    return {
      code: VoiceClose.DecodeError,
      reason: `failed to decode payload: ${deep ? `nested deeper than ${MAX_JSON_DEPTH} levels` : 'invalid JSON'}`,
    };
  }
  if (!isObject(payload) || typeof payload.op !== 'number' || !Number.isInteger(payload.op)) {
    return { code: VoiceClose.DecodeError, reason: 'failed to decode payload: {op, d} expected' };
  }
  const op = payload.op;
  if (BINARY_CLIENT_OPS.has(op)) {
    return { code: VoiceClose.DecodeError, reason: `failed to decode payload: op ${op} is binary` };
  }
  if (!JSON_CLIENT_OPS.has(op) && !IGNORED_CLIENT_OPS.has(op)) {
    return { code: VoiceClose.UnknownOpcode, reason: `unknown opcode ${op}` };
  }
  return { op, d: payload.d };
}

/**
 * A binary frame's opcode (its first byte, as clients send no sequence number), or why it is refused:
 * empty, a JSON-only op, or an op the gateway does not know.
 */
export function decodeBinaryOp(data: Buffer): { op: number } | FrameError {
  const op = data[0];
  if (op === undefined) {
    return { code: VoiceClose.DecodeError, reason: 'failed to decode payload: empty binary frame' };
  }
  if (!BINARY_CLIENT_OPS.has(op)) {
    if (JSON_CLIENT_OPS.has(op) || IGNORED_CLIENT_OPS.has(op)) {
      return { code: VoiceClose.DecodeError, reason: `failed to decode payload: op ${op} is JSON` };
    }
    return { code: VoiceClose.UnknownOpcode, reason: `unknown opcode ${op}` };
  }
  return { op };
}

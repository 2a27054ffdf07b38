import { JsonBoundsError, MAX_JSON_DEPTH, parseBoundedJson } from '@sdkpp/protocol';
import { readCommand, type RpcCommand } from '../localClient/protocol.js';

/**
 * What the Activity host page sends over its WebSocket: the frame's postMessage traffic (`frame`, an
 * `[opcode, payload]` pair as the Embedded App SDK posts it) and the player's answer to the OAuth2 modal.
 */
export type HostMessage =
  | { t: 'frame'; d: [op: number, payload: unknown] }
  | { t: 'consent'; id: string; approve: boolean; choice?: string };

/** A host message that is not one of {@link HostMessage}. */
export class HostMessageError extends Error {
  constructor(
    message: string,
    /**
     * The command the message carried, when it could still be read: such a message is answered with an ERROR
     * rather than closing the frame.
     */
    readonly command?: RpcCommand,
  ) {
    super(message);
    this.name = 'HostMessageError';
  }
}

/** The FRAME opcode of the Embedded App SDK (a command or its reply). */
const FRAME_OP = 1;

/** Reads one text message of the host page; throws {@link HostMessageError} saying what is wrong. */
export function hostMessage(text: string | null): HostMessage {
  if (text === null) throw new HostMessageError('binary messages are not part of the protocol');
  let value: unknown;
  try {
    value = parseBoundedJson(text);
  } catch (error) {
    if (error instanceof JsonBoundsError && error.problem === 'too_deep') {
      throw new HostMessageError(
        `the message nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`,
        tooDeepCommand(text),
      );
    }
    throw new HostMessageError('a message must be JSON');
  }
  return hostMessageOf(value);
}

function hostMessageOf(value: unknown): HostMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HostMessageError('a message must be an object');
  const m = value as Record<string, unknown>;
  if (m.t === 'consent') {
    if (typeof m.id !== 'string' || typeof m.approve !== 'boolean')
      throw new HostMessageError('a consent answer needs "id" and "approve"');
    // Which button of a modal with more than one way to say yes (the share modal's copy or send).
    if (m.choice !== undefined && (typeof m.choice !== 'string' || m.choice.length > 16))
      throw new HostMessageError('a consent answer\'s "choice" is a short string');
    return {
      t: 'consent',
      id: m.id,
      approve: m.approve,
      ...(m.choice === undefined ? {} : { choice: m.choice }),
    };
  }
  if (m.t === 'frame') {
    const d = m.d;
    if (!Array.isArray(d) || d.length !== 2 || !Number.isInteger(d[0]))
      throw new HostMessageError('a frame message is an [opcode, payload] pair');
    return { t: 'frame', d: [d[0] as number, d[1]] };
  }
  throw new HostMessageError('unknown message type');
}

/**
 * The command (its name and nonce, without arguments) of a FRAME message too deep to parse, so the game
 * learns which of its commands was refused; undefined for anything else. Only the message's outer three
 * levels are parsed (message, pair, command), so nothing deep is ever built.
 */
function tooDeepCommand(text: string): RpcCommand | undefined {
  let outer: unknown;
  try {
    outer = parseBoundedJson(outerLevels(text, 3));
  } catch {
    return undefined;
  }
  let message: HostMessage;
  try {
    message = hostMessageOf(outer);
  } catch {
    return undefined;
  }
  if (message.t !== 'frame' || message.d[0] !== FRAME_OP) return undefined;
  const command = readCommand(message.d[1]);
  return typeof command === 'string' ? undefined : { ...command, args: {} };
}

/**
 * `text` with each object or array that opens below the first `keep` levels replaced by `null`. Linear in the
 * text, and copies of its outer parts only; unbalanced text stays invalid JSON.
 */
function outerLevels(text: string, keep: number): string {
  const parts: string[] = [];
  let copyFrom = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth === keep + 1) {
        parts.push(text.slice(copyFrom, i), 'null');
        copyFrom = -1;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
      if (depth === keep && copyFrom === -1) copyFrom = i + 1;
    }
  }
  if (copyFrom !== -1) parts.push(text.slice(copyFrom));
  return parts.join('');
}

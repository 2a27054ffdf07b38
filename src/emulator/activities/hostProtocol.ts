/**
 * What the Activity host page sends over its WebSocket: the frame's postMessage traffic (`frame`, an
 * `[opcode, payload]` pair as the Embedded App SDK posts it) and the player's answer to the OAuth2 modal.
 */
export type HostMessage =
  { t: 'frame'; d: [op: number, payload: unknown] } | { t: 'consent'; id: string; approve: boolean };

/** A host message that is not one of {@link HostMessage}. */
export class HostMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostMessageError';
  }
}

/** Reads one text message of the host page; throws {@link HostMessageError} saying what is wrong. */
export function hostMessage(text: string | null): HostMessage {
  if (text === null) throw new HostMessageError('binary messages are not part of the protocol');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HostMessageError('a message must be JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HostMessageError('a message must be an object');
  const m = value as Record<string, unknown>;
  if (m.t === 'consent') {
    if (typeof m.id !== 'string' || typeof m.approve !== 'boolean')
      throw new HostMessageError('a consent answer needs "id" and "approve"');
    return { t: 'consent', id: m.id, approve: m.approve };
  }
  if (m.t === 'frame') {
    const d = m.d;
    if (!Array.isArray(d) || d.length !== 2 || !Number.isInteger(d[0]))
      throw new HostMessageError('a frame message is an [opcode, payload] pair');
    return { t: 'frame', d: [d[0] as number, d[1]] };
  }
  throw new HostMessageError('unknown message type');
}

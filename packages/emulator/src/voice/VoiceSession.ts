import type { WebSocket } from 'ws';

import type { TimerHandle } from '@sdkpp/protocol';
import type { TransportEncryptionMode } from 'sdkpp/media';
import type { RelayMember } from './MediaRelay.js';

/** How many sequenced server messages a voice session keeps for a resume. */
export const VOICE_REPLAY_BUFFER_SIZE = 512;

/** One sequenced message as sent: a JSON text or a binary frame. */
interface Sequenced {
  seq: number;
  frame: string | Buffer;
}

/**
 * One participant's voice connection state, which outlives any one socket: SSRC, mode and key, the DAVE
 * version, speaking flags, and the sequence counter with its replay buffer. JSON `seq` and the binary
 * frames' u16 seq share one counter, which wraps at 2^16.
 */
export class VoiceSession {
  readonly channelId: string;
  readonly userId: string;
  /** The main gateway session it was identified with. */
  readonly gatewaySessionId: string;
  /** What the forwarding unit knows of it. */
  readonly relay: RelayMember;
  /** What the client offered in Identify. */
  readonly maxDaveProtocolVersion: number;
  /** The socket, or null while it waits for a resume. */
  socket: WebSocket | null = null;
  mode: TransportEncryptionMode | null = null;
  /** The DAVE version op 4 announced (null before op 4). */
  daveProtocolVersion: number | null = null;
  /** The last speaking flags the client sent. */
  speaking = 0;
  /** Ends the session when no resume came in time. */
  expiry: TimerHandle | undefined;
  ended = false;
  /** The last sequence number used (0 before any). */
  seq = 0;
  readonly #buffer: Sequenced[] = [];
  /** Whether a sequenced message ever left the buffer (then `seq_ack: -1` cannot be served). */
  #evicted = false;

  constructor(init: {
    channelId: string;
    userId: string;
    gatewaySessionId: string;
    relay: RelayMember;
    maxDaveProtocolVersion: number;
  }) {
    this.channelId = init.channelId;
    this.userId = init.userId;
    this.gatewaySessionId = init.gatewaySessionId;
    this.relay = init.relay;
    this.maxDaveProtocolVersion = init.maxDaveProtocolVersion;
  }

  /** Whether op 4 went out (the member has a key and counts as connected in the call). */
  get described(): boolean {
    return this.daveProtocolVersion !== null;
  }

  /** Sends a JSON message without a sequence number (Hello, Ready, op 4, heartbeat ACKs, Resumed). */
  sendPlain(op: number, d: unknown): void {
    this.#send(JSON.stringify({ op, d }));
  }

  /** Numbers, buffers and sends a JSON message. */
  sendJson(op: number, d: unknown): void {
    const seq = this.#next();
    this.#record(seq, JSON.stringify({ op, d, seq }));
  }

  /** Numbers, buffers and sends a binary message: `u16 seq ‖ u8 op ‖ payload`. */
  sendBinary(op: number, payload: Uint8Array): void {
    const seq = this.#next();
    const frame = Buffer.alloc(3 + payload.length);
    frame.writeUInt16BE(seq, 0);
    frame[2] = op;
    frame.set(payload, 3);
    this.#record(seq, frame);
  }

  /**
   * The buffered messages after `seqAck` (-1: everything since the start), in order; null when they are
   * no longer all in the buffer, or `seqAck` was never sent.
   */
  replayAfter(seqAck: number): (string | Buffer)[] | null {
    if (seqAck === this.seq) return [];
    if (seqAck < 0) return this.#evicted ? null : this.#buffer.map((m) => m.frame);
    // Search from the end: after a wrap, an old entry may carry the same number.
    for (let i = this.#buffer.length - 1; i >= 0; i -= 1) {
      if (this.#buffer[i]?.seq === seqAck) return this.#buffer.slice(i + 1).map((m) => m.frame);
    }
    return null;
  }

  /** Sends a frame to the socket as is (a replay). */
  sendRaw(frame: string | Buffer): void {
    this.#send(frame);
  }

  #next(): number {
    this.seq = (this.seq + 1) & 0xffff;
    return this.seq;
  }

  #record(seq: number, frame: string | Buffer): void {
    this.#buffer.push({ seq, frame });
    if (this.#buffer.length > VOICE_REPLAY_BUFFER_SIZE) {
      this.#buffer.shift();
      this.#evicted = true;
    }
    this.#send(frame);
  }

  #send(frame: string | Buffer): void {
    const ws = this.socket;
    if (ws && ws.readyState === ws.OPEN) ws.send(frame);
  }
}

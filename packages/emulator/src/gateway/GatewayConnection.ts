import type { RawData, WebSocket } from 'ws';

import { GatewayClose, GatewayOpcode, MAX_CLIENT_PAYLOAD_BYTES } from '@sdkpp/protocol';
import { JsonBoundsError, MAX_JSON_DEPTH, parseBoundedJson } from '@sdkpp/protocol';
import type { Clock, TimerHandle } from '@sdkpp/protocol';
import type { FrameEncoder } from './compression.js';
import { SlidingWindowLimiter } from './RateLimiter.js';

/** What a connection asks of the hub that owns it. */
export interface ConnectionHost {
  readonly clock: Clock;
  readonly heartbeatIntervalMs: number;
  readonly rateLimit: { count: number; windowMs: number };
  /** How long a socket may go without a session before it is closed with 4003. */
  readonly identifyTimeoutMs: number;
  /** The most bytes a socket may have queued for sending before it is closed as a slow consumer. */
  readonly maxOutboundBufferBytes: number;
  /** Receives a log line (the hub's log). */
  logLine(line: string): void;
  /** Handles op 2 on a connection that has no session yet. */
  identify(connection: GatewayConnection, data: unknown): void;
  /** Handles op 6 on a connection that has no session yet. */
  resume(connection: GatewayConnection, data: unknown): void;
  /** Whether a client may send `op` at all (after Identify); other ops close with 4001. */
  knowsOp(op: number): boolean;
  /** Handles an op that {@link ConnectionHost.knowsOp} accepted, on an identified connection. */
  handleOp(connection: GatewayConnection, op: number, data: unknown): void;
  /**
   * The socket is gone. `code` is the code the server chose when it closed the socket, else the client's
   * code (1006 for a drop); `byServer` tells which.
   */
  connectionClosed(connection: GatewayConnection, code: number, byServer: boolean): void;
}

/** How long after op 7 the server closes a socket whose client did not reconnect by itself. */
export const RECONNECT_GRACE_MS = 2000;

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function toText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return data instanceof ArrayBuffer ? Buffer.from(data).toString('utf8') : data.toString('utf8');
}

/**
 * The protocol of one gateway socket: Hello, heartbeats and their deadline, the size and rate limits,
 * decoding, and the rule that only Heartbeat, Identify and Resume are allowed before a session exists.
 * What Identify and Resume mean is the hub's business.
 */
export class GatewayConnection {
  readonly #ws: WebSocket;
  readonly #host: ConnectionHost;
  readonly #encoder: FrameEncoder;
  readonly #limiter: SlidingWindowLimiter;
  #outbox: Promise<void> = Promise.resolve();
  #closing = false;
  #closeReported = false;
  #serverCloseCode: number | null = null;
  #heartbeatTimer: TimerHandle | undefined;
  #reconnectTimer: TimerHandle | undefined;
  #identifyTimer: TimerHandle | undefined;
  /** A session was attached (Identify or Resume succeeded); which one is the hub's business. */
  #authenticated = false;

  constructor(ws: WebSocket, host: ConnectionHost, encoder: FrameEncoder) {
    this.#ws = ws;
    this.#host = host;
    this.#encoder = encoder;
    this.#limiter = new SlidingWindowLimiter(host.rateLimit.count, host.rateLimit.windowMs);
  }

  /** Whether frames sent now will reach the client. */
  get open(): boolean {
    return !this.#closing && this.#ws.readyState === this.#ws.OPEN;
  }

  /** Sends Hello and starts listening. */
  start(): void {
    this.#ws.on('message', (data, isBinary) => {
      this.#onMessage(data, isBinary);
    });
    this.#ws.on('close', (code) => {
      this.#onClose(code);
    });
    this.#ws.on('error', () => {
      // ws reports protocol errors (bad frames, invalid UTF-8) here and closes the socket itself.
    });
    this.sendPayload(GatewayOpcode.Hello, { heartbeat_interval: this.#host.heartbeatIntervalMs });
    this.#armHeartbeatDeadline();
    // Heartbeats alone do not keep a socket: one that never identifies would otherwise live forever.
    this.#identifyTimer = this.#host.clock.setTimeout(() => {
      if (this.#authenticated) return;
      this.#host.logLine(`connection closed: no Identify within ${this.#host.identifyTimeoutMs} ms`);
      this.close(GatewayClose.NotAuthenticated, 'Not authenticated: no Identify in time');
    }, this.#host.identifyTimeoutMs);
  }

  /** A session is attached (Identify or Resume succeeded): the identify deadline no longer applies. */
  authenticated(): void {
    this.#authenticated = true;
    this.#host.clock.clearTimeout(this.#identifyTimer);
    this.#identifyTimer = undefined;
  }

  /** Bytes queued for this socket and not yet handed to the kernel. */
  get bufferedBytes(): number {
    return this.#ws.bufferedAmount;
  }

  /** Sends a non-dispatch payload (`s` and `t` are null). */
  sendPayload(op: number, data: unknown): void {
    this.sendFrame(JSON.stringify({ op, d: data, s: null, t: null }));
  }

  /** Sends a ready-made frame; frames go out in the order of these calls. */
  sendFrame(text: string): void {
    if (!this.open) return;
    this.#outbox = this.#outbox
      .then(() => this.#encoder.encode(text))
      .then((frame) => {
        if (this.#ws.readyState !== this.#ws.OPEN || this.#closing) return;
        this.#ws.send(frame);
        this.#checkBackpressure();
      })
      .catch(() => {
        // A socket that failed mid-send is closing anyway; its close handler does the bookkeeping.
      });
  }

  /** Closes with a code once queued frames are out. Later frames and messages are ignored. */
  close(code: number, reason = ''): void {
    if (this.#closing) return;
    this.#closing = true;
    this.#serverCloseCode = code;
    this.#stopTimers();
    void this.#outbox.then(() => {
      if (this.#ws.readyState === this.#ws.OPEN || this.#ws.readyState === this.#ws.CONNECTING) {
        this.#ws.close(code, reason);
      }
    });
  }

  /**
   * Destroys the socket without a close frame, as a network failure would. The session learns of it at once
   * (1006, resumable) rather than when ws emits its close a few ticks later, so what an admin hook such as
   * `dropGatewayConnections()` did is visible as soon as it returns (a member's `connected`, idle lobbies).
   */
  terminate(): void {
    this.#closing = true;
    this.#stopTimers();
    this.#ws.terminate();
    this.#onClose(1006);
  }

  /** Sends op 7 Reconnect, and closes with 4000 (resumable) if the client has not gone by the grace time. */
  requestReconnect(): void {
    if (!this.open) return;
    this.sendPayload(GatewayOpcode.Reconnect, null);
    this.#reconnectTimer = this.#host.clock.setTimeout(() => {
      this.close(GatewayClose.UnknownError, 'Reconnect requested');
    }, RECONNECT_GRACE_MS);
  }

  /**
   * A client that stops reading while it heartbeats would make every frame for it pile up in memory. Past
   * the cap it is closed as a slow consumer: 4008 (the close frame waits behind what is queued, and ws
   * destroys the socket when no answer comes within its close timeout), and nothing more is queued.
   */
  #checkBackpressure(): void {
    const buffered = this.#ws.bufferedAmount;
    if (buffered <= this.#host.maxOutboundBufferBytes) return;
    this.#host.logLine(
      `slow consumer: ${buffered} bytes queued (limit ${this.#host.maxOutboundBufferBytes}); closing with ${GatewayClose.RateLimited}`,
    );
    this.close(GatewayClose.RateLimited, 'Slow consumer');
  }

  #armHeartbeatDeadline(): void {
    this.#host.clock.clearTimeout(this.#heartbeatTimer);
    // The interval plus half of it plus a second: a client heartbeating with jitter is never cut off.
    const deadline = this.#host.heartbeatIntervalMs * 1.5 + 1000;
    this.#heartbeatTimer = this.#host.clock.setTimeout(() => {
      this.close(GatewayClose.SessionTimedOut, 'Session timed out');
    }, deadline);
  }

  #stopTimers(): void {
    this.#host.clock.clearTimeout(this.#heartbeatTimer);
    this.#host.clock.clearTimeout(this.#reconnectTimer);
    this.#host.clock.clearTimeout(this.#identifyTimer);
  }

  #onClose(code: number): void {
    // terminate() reports the close itself; the socket's own close event then has nothing left to say.
    if (this.#closeReported) return;
    this.#closeReported = true;
    this.#closing = true;
    this.#stopTimers();
    this.#encoder.close();
    const byServer = this.#serverCloseCode !== null;
    this.#host.connectionClosed(this, this.#serverCloseCode ?? code, byServer);
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    if (this.#closing) return;
    if (byteLength(data) > MAX_CLIENT_PAYLOAD_BYTES) {
      this.close(GatewayClose.DecodeError, `Payload too large (max ${MAX_CLIENT_PAYLOAD_BYTES} bytes)`);
      return;
    }
    if (isBinary) {
      this.close(GatewayClose.DecodeError, 'Binary frames are not accepted; send JSON text');
      return;
    }
    if (!this.#limiter.take(this.#host.clock.now())) {
      this.close(GatewayClose.RateLimited, 'Rate limited');
      return;
    }
    let payload: unknown;
    try {
      payload = parseBoundedJson(toText(data));
    } catch (error) {
      const deep = error instanceof JsonBoundsError && error.problem === 'too_deep';
      this.close(
        GatewayClose.DecodeError,
        deep
          ? `Decode error: the payload nests deeper than ${MAX_JSON_DEPTH} levels`
          : 'Decode error: invalid JSON',
      );
      return;
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      this.close(GatewayClose.DecodeError, 'Decode error: the payload must be a JSON object');
      return;
    }
    const { op, d } = payload as { op?: unknown; d?: unknown };
    if (typeof op !== 'number' || !Number.isInteger(op)) {
      this.close(GatewayClose.UnknownOpcode, 'Invalid payload: "op" must be an integer');
      return;
    }
    this.#dispatchOp(op, d);
  }

  #dispatchOp(op: number, data: unknown): void {
    if (op === GatewayOpcode.Heartbeat) {
      this.#armHeartbeatDeadline();
      this.sendPayload(GatewayOpcode.HeartbeatAck, null);
      return;
    }
    if (op === GatewayOpcode.Identify || op === GatewayOpcode.Resume) {
      if (this.#authenticated) {
        this.close(GatewayClose.AlreadyAuthenticated, 'Already authenticated');
        return;
      }
      if (op === GatewayOpcode.Identify) this.#host.identify(this, data);
      else this.#host.resume(this, data);
      return;
    }
    if (!this.#host.knowsOp(op)) {
      this.close(GatewayClose.UnknownOpcode, `Unknown opcode ${op}`);
      return;
    }
    if (!this.#authenticated) {
      this.close(GatewayClose.NotAuthenticated, 'Not authenticated');
      return;
    }
    this.#host.handleOp(this, op, data);
  }
}

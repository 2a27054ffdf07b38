import WebSocket from 'ws';

import type { GatewaySocket, GatewaySocketData } from '../../gateway/GatewaySocket.js';
import type { LogWriter } from '../../logging/index.js';
import { systemClock, type Clock, type TimerHandle } from '@sdkpp/protocol';
import { TypedEmitter } from '@sdkpp/protocol';
import {
  decodeServerMessage,
  encodeBinary,
  encodeJson,
  MAX_DAVE_PROTOCOL_VERSION,
  MAX_MISSED_HEARTBEAT_ACKS,
  parseReady,
  parseSessionDescription,
  voiceCloseAction,
  VoiceOpcode,
  type SessionDescription,
  type VoiceReady,
} from '@sdkpp/protocol';

/** The part of a `ws` WebSocket the voice gateway client uses: the main gateway's, plus binary frames. */
export interface VoiceSocket extends Omit<GatewaySocket, 'send'> {
  /** Sends a text (JSON) or binary (DAVE) message. */
  send(data: string | Uint8Array): void;
}

/** Opens a voice socket to a URL. */
export type VoiceSocketFactory = (url: string) => VoiceSocket;

/** The default factory: a `ws` WebSocket with a bounded message size and handshake time. */
export const defaultVoiceSocketFactory: VoiceSocketFactory = (url) =>
  new WebSocket(url, { maxPayload: 4 * 1024 * 1024, handshakeTimeout: 10_000 });

/** Who the client is on the voice server: the Identify and Resume fields. */
export interface VoiceIdentity {
  /** The lobby id (the voice `server_id`). */
  serverId: string;
  userId: string;
  /** The main gateway session id. */
  sessionId: string;
  /** The voice token from the server update (never logged). */
  token: string;
}

/** Options of a {@link VoiceGatewayClient}. */
export interface VoiceGatewayClientOptions extends VoiceIdentity {
  /** `ws://…/?v=8` or `wss://…/?v=8`. */
  url: string;
  log: LogWriter;
  /** @defaultValue the system clock */
  clock?: Clock;
  /** @defaultValue {@link defaultVoiceSocketFactory} */
  socketFactory?: VoiceSocketFactory;
  /** Offered in Identify. @defaultValue {@link MAX_DAVE_PROTOCOL_VERSION} */
  maxDaveProtocolVersion?: number;
  /** Reconnect or resume attempts in a row before giving up. @defaultValue 5 */
  maxReconnectAttempts?: number;
  /** The delay before attempt `n` (0-based). @defaultValue 250 ms doubling, at most 4 s */
  reconnectDelayMs?: (attempt: number) => number;
}

/** Where the voice gateway connection is. */
export type VoiceGatewayState =
  'idle' | 'connecting' | 'identifying' | 'resuming' | 'ready' | 'backoff' | 'closed';

/** Why the connection ended for good. */
export type VoiceGatewayEnd =
  /** close() was called. */
  | 'local'
  /** The server closed with a code that forbids coming back (4014, 4021, 4022). */
  | 'terminal'
  /** The server refused us (4004 authentication failed, 4017 DAVE required, …) or never answered. */
  | 'failed';

/** Events of a {@link VoiceGatewayClient}. */
export interface VoiceGatewayEvents {
  state: [state: VoiceGatewayState];
  /** op 2 after a fresh Identify (again after a reconnect from scratch: UDP must start over). */
  ready: [ready: VoiceReady];
  /** op 4: the transport key and DAVE version. */
  sessionDescription: [description: SessionDescription];
  /** op 9 after a resume; the missed messages follow. */
  resumed: [];
  /** Every other JSON message (5, 11, 13, 21, 22, 24, …). */
  json: [op: number, d: unknown];
  /** Every binary message (DAVE 25, 27, 29, 30), without its sequence number and opcode. */
  binary: [op: number, payload: Uint8Array];
  /** The connection ended for good; `code` is the last close code (0 when none). */
  closed: [end: VoiceGatewayEnd, code: number, reason: string];
}

const DEFAULT_RECONNECT_ATTEMPTS = 5;
/** Messages kept for after a resume at most. */
const MAX_PENDING_MESSAGES = 64;

/**
 * One voice gateway v8 session: Hello → Identify (with `max_dave_protocol_version`) → Ready; Select Protocol
 * when the owner has done IP discovery; Session Description; heartbeats carrying `seq_ack` (three missed ACKs
 * close the socket and resume); resume with `seq_ack` after close code 4015 or any code below 4000; a fresh
 * Identify after other codes; never again after 4014, 4021 or 4022. Server JSON `seq` and binary u16 seq
 * share one counter; the last one seen is acknowledged. Binary frames arrive as `u16 seq ‖ op ‖ payload`
 * and leave as `op ‖ payload`.
 */
export class VoiceGatewayClient extends TypedEmitter<VoiceGatewayEvents> {
  readonly #o: VoiceGatewayClientOptions;
  readonly #clock: Clock;
  readonly #log: LogWriter;
  #socket: VoiceSocket | undefined;
  #state: VoiceGatewayState = 'idle';
  #seqAck = -1;
  #identified = false;
  #heartbeatTimer: TimerHandle | undefined;
  #reconnectTimer: TimerHandle | undefined;
  #missedAcks = 0;
  #attempt = 0;
  #resumeNext = false;
  #lastCode = 0;
  #lastReason = '';
  /** Messages said while a resume was under way, sent once it succeeded. */
  readonly #pending: { data: string | Uint8Array; op: number }[] = [];

  constructor(options: VoiceGatewayClientOptions) {
    super();
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#log = options.log;
    this.#log.secret(options.token);
  }

  /** The current state. */
  get state(): VoiceGatewayState {
    return this.#state;
  }

  /** The last sequence number received (what the next heartbeat acknowledges), or -1. */
  get seqAck(): number {
    return this.#seqAck;
  }

  /** Opens the socket; Identify follows Hello. */
  open(): void {
    if (this.#state !== 'idle') return;
    this.#connect(false);
  }

  /** Sends op 1 Select Protocol with the address IP discovery found. */
  selectProtocol(address: string, port: number, mode: string): void {
    this.sendJson(VoiceOpcode.SelectProtocol, { protocol: 'udp', data: { address, port, mode } });
  }

  /** Sends a JSON message (dropped, with a log line, when the socket is not open). */
  sendJson(op: number, d: unknown): void {
    this.#send(encodeJson(op, d), op);
  }

  /** Sends a binary message `op ‖ payload`. */
  sendBinary(op: number, payload: Uint8Array): void {
    this.#send(encodeBinary(op, payload), op);
  }

  /**
   * Closes for good (code 1000 by default) and emits `closed` with end `'local'`. Resolves once the socket is
   * closed or after 1 s.
   */
  async close(code = 1000, reason = 'closing'): Promise<void> {
    if (this.#state === 'closed') return;
    const socket = this.#socket;
    this.#end('local', code, reason);
    if (!socket) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        socket.terminate();
        resolve();
      }, 1000);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.close(code, reason);
    });
  }

  /**
   * Leaves the current voice session and identifies afresh on a new socket: a new session on the voice
   * server, so the owner starts a new UDP transport with its own IP discovery. For a media path that broke
   * while the socket stayed up, which a resume (same session, same UDP address) would not mend. Does
   * nothing once closed or before {@link VoiceGatewayClient.open}.
   */
  reidentify(reason: string): void {
    if (this.#state === 'closed' || this.#state === 'idle') return;
    this.#log.info(`voice gateway: identifying afresh (${reason})`);
    this.#clock.clearTimeout(this.#heartbeatTimer);
    this.#clock.clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket) {
      socket.removeAllListeners();
      socket.on('error', () => {
        // The socket is being left; its errors no longer matter.
      });
      // Not 1000: that would tell the server the user left the call. 4000 keeps the voice state.
      socket.close(4000, 'identifying afresh');
    }
    this.#identified = false;
    this.#pending.length = 0;
    this.#connect(false);
  }

  #send(data: string | Uint8Array, op: number): void {
    if (this.#socket && this.#state === 'ready') {
      try {
        this.#socket.send(data);
      } catch (error) {
        this.#log.warn(`voice op ${op} send failed: ${(error as Error).message}`);
      }
      return;
    }
    // While a resume is under way the session goes on: what we say (a DAVE transition ready, speaking)
    // is said once it has resumed. A fresh Identify drops it (a new session starts from scratch).
    if (this.#identified && this.#state !== 'closed' && this.#state !== 'idle') {
      if (this.#pending.length < MAX_PENDING_MESSAGES) this.#pending.push({ data, op });
      else
        this.#log.warn(
          `voice op ${op} dropped: ${MAX_PENDING_MESSAGES} messages already wait for the resume`,
        );
      return;
    }
    this.#log.verbose(`voice op ${op} not sent: the socket is ${this.#state}`);
  }

  #flushPending(): void {
    const pending = this.#pending.splice(0);
    for (const { data, op } of pending) this.#send(data, op);
  }

  #setState(state: VoiceGatewayState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.emit('state', state);
  }

  #connect(resume: boolean): void {
    this.#resumeNext = resume;
    this.#setState('connecting');
    let socket: VoiceSocket;
    try {
      socket = (this.#o.socketFactory ?? defaultVoiceSocketFactory)(this.#o.url);
    } catch (error) {
      this.#log.warn(`voice gateway: could not open the socket: ${(error as Error).message}`);
      this.#afterClose(1006, 'socket not opened');
      return;
    }
    this.#socket = socket;
    socket.on('message', (data, isBinary) => {
      if (this.#socket === socket) this.#onMessage(data, isBinary);
    });
    socket.on('close', (code, reason) => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      this.#afterClose(code, reason.toString('utf8'));
    });
    socket.on('error', (error) => {
      if (this.#socket === socket) this.#log.warn(`voice gateway socket error: ${error.message}`);
    });
  }

  #onMessage(data: GatewaySocketData, isBinary: boolean): void {
    const bytes = Array.isArray(data)
      ? Buffer.concat(data)
      : data instanceof ArrayBuffer
        ? new Uint8Array(data)
        : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const message = decodeServerMessage(isBinary ? bytes : Buffer.from(bytes).toString('utf8'), isBinary);
    if (!message) {
      this.#log.warn(`voice gateway: a malformed ${isBinary ? 'binary' : 'text'} message was ignored`);
      return;
    }
    if (message.seq !== undefined) this.#seqAck = message.seq;
    if (message.kind === 'binary') {
      this.emit('binary', message.op, message.payload);
      return;
    }
    const { op, d } = message;
    switch (op) {
      case VoiceOpcode.Hello:
        this.#onHello(d);
        return;
      case VoiceOpcode.HeartbeatAck:
        this.#missedAcks = 0;
        return;
      case VoiceOpcode.Ready: {
        const ready = parseReady(d);
        if (!ready) {
          this.#log.warn('voice gateway: Ready without a usable ssrc, ip, port or modes');
          this.#socket?.close(4002, 'bad ready');
          return;
        }
        this.#identified = true;
        this.#attempt = 0;
        this.#setState('ready');
        this.#log.info(`voice ready: ssrc ${ready.ssrc}, udp ${ready.ip}:${ready.port}`);
        this.emit('ready', ready);
        return;
      }
      case VoiceOpcode.SessionDescription: {
        const description = parseSessionDescription(d);
        if (!description) {
          this.#log.warn('voice gateway: a session description without a 32-byte key was ignored');
          return;
        }
        this.#log.info(
          `voice session: mode ${description.mode}, DAVE protocol version ${description.daveProtocolVersion}`,
        );
        this.emit('sessionDescription', description);
        return;
      }
      case VoiceOpcode.Resumed:
        this.#attempt = 0;
        this.#setState('ready');
        this.#log.info(`voice session resumed after seq ${this.#seqAck}`);
        this.#flushPending();
        this.emit('resumed');
        return;
      default:
        this.emit('json', op, d);
    }
  }

  #onHello(d: unknown): void {
    const interval = (d as { heartbeat_interval?: unknown } | null)?.heartbeat_interval;
    const ms = typeof interval === 'number' && interval >= 50 && interval <= 600_000 ? interval : 13_750;
    this.#startHeartbeat(ms);
    const { serverId, userId, sessionId, token } = this.#o;
    if (this.#resumeNext && this.#identified) {
      this.#setState('resuming');
      this.#log.info(`voice resume with seq_ack ${this.#seqAck}`);
      this.#socket?.send(
        encodeJson(VoiceOpcode.Resume, {
          server_id: serverId,
          session_id: sessionId,
          token,
          seq_ack: this.#seqAck,
        }),
      );
      return;
    }
    this.#identified = false;
    this.#seqAck = -1;
    this.#pending.length = 0;
    this.#setState('identifying');
    this.#socket?.send(
      encodeJson(VoiceOpcode.Identify, {
        server_id: serverId,
        user_id: userId,
        session_id: sessionId,
        token,
        max_dave_protocol_version: this.#o.maxDaveProtocolVersion ?? MAX_DAVE_PROTOCOL_VERSION,
      }),
    );
  }

  #startHeartbeat(intervalMs: number): void {
    this.#clock.clearTimeout(this.#heartbeatTimer);
    this.#missedAcks = 0;
    const beat = (): void => {
      const socket = this.#socket;
      if (!socket) return;
      if (this.#missedAcks >= MAX_MISSED_HEARTBEAT_ACKS) {
        this.#log.warn(`voice gateway: ${this.#missedAcks} heartbeats without an ACK; resuming`);
        this.#socket = undefined;
        socket.removeAllListeners();
        socket.terminate();
        this.#afterClose(1006, 'heartbeat ACKs missed');
        return;
      }
      this.#missedAcks++;
      try {
        socket.send(encodeJson(VoiceOpcode.Heartbeat, { t: this.#clock.now(), seq_ack: this.#seqAck }));
      } catch (error) {
        this.#log.warn(`voice heartbeat send failed: ${(error as Error).message}`);
      }
      this.#heartbeatTimer = this.#clock.setTimeout(beat, intervalMs);
    };
    this.#heartbeatTimer = this.#clock.setTimeout(beat, intervalMs);
  }

  #afterClose(code: number, reason: string): void {
    this.#clock.clearTimeout(this.#heartbeatTimer);
    this.#lastCode = code;
    this.#lastReason = reason;
    if (this.#state === 'closed') return;
    const action = voiceCloseAction(code);
    this.#log.info(`voice gateway closed (${code}${reason ? ` ${reason}` : ''}): ${action}`);
    if (action === 'terminal') {
      this.#end('terminal', code, reason);
      return;
    }
    // A refusal during Identify (bad token, DAVE required, bad request) would only be refused again.
    if (action === 'reconnect' && !this.#identified && code !== 4006 && code !== 4009) {
      this.#end('failed', code, reason);
      return;
    }
    const attempts = this.#o.maxReconnectAttempts ?? DEFAULT_RECONNECT_ATTEMPTS;
    if (this.#attempt >= attempts) {
      this.#end('failed', code, reason);
      return;
    }
    const delay = (this.#o.reconnectDelayMs ?? ((n) => Math.min(4000, 250 * 2 ** n)))(this.#attempt);
    this.#attempt++;
    const resume = action === 'resume' && this.#identified;
    this.#setState('backoff');
    this.#reconnectTimer = this.#clock.setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#state === 'backoff') this.#connect(resume);
    }, delay);
  }

  #end(end: VoiceGatewayEnd, code: number, reason: string): void {
    this.#clock.clearTimeout(this.#heartbeatTimer);
    this.#clock.clearTimeout(this.#reconnectTimer);
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket && end !== 'local') {
      socket.removeAllListeners();
      socket.terminate();
    }
    this.#setState('closed');
    this.emit('closed', end, code || this.#lastCode, reason || this.#lastReason);
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#log.error(
      `a voice ${event} listener threw: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

import { ValidationError } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import type { Clock, TimerHandle } from '@sdkpp/protocol';
import { TypedEmitter } from '@sdkpp/protocol';
import type { GatewaySocket, GatewaySocketFactory } from './GatewaySocket.js';
import {
  CAPABILITY_AUTO_LOBBY_CONNECT,
  GATEWAY_VERSION,
  GatewayOpcode,
  MAX_CLIENT_PAYLOAD_BYTES,
  NEW_SESSION_CLOSE_CODES,
  TERMINAL_CLOSE_CODES,
  describeCloseCode,
  type GatewayPayload,
} from '@sdkpp/protocol';
import { SendBudget } from './SendBudget.js';

/**
 * Where a gateway connection is. Transitions:
 * Idle → Connecting → Identifying | Resuming → Ready;
 * any open state → Backoff (socket lost, will resume or re-identify) → Connecting;
 * any state → Closed (by {@link GatewayConnection.close} or a terminal close code). Closed is final.
 */
export enum GatewayState {
  Idle = 'idle',
  Connecting = 'connecting',
  Identifying = 'identifying',
  Resuming = 'resuming',
  Ready = 'ready',
  Backoff = 'backoff',
  Closed = 'closed',
}

/** Why the connection left the open states; carried by `state` events. */
export interface GatewayStateDetail {
  /** The close code of the socket that was lost, when there was one. */
  closeCode?: number;
  /** True when the socket never reached Hello (connection refused, handshake failed). */
  connectFailed?: boolean;
}

/** Events of a {@link GatewayConnection}. */
export interface GatewayConnectionEvents {
  state: [state: GatewayState, detail: GatewayStateDetail];
  /** READY: a new session. */
  ready: [data: Record<string, unknown>];
  /** RESUMED: every missed dispatch was replayed. */
  resumed: [];
  /** Every dispatch, READY and RESUMED included, in sequence order. */
  dispatch: [event: string, data: unknown];
}

/** Options of a {@link GatewayConnection}. */
export interface GatewayConnectionOptions {
  /** The gateway URL without query, from `GET /gateway`. */
  url: string;
  /** The access token to identify with; read at each Identify so a refreshed token is used. */
  token: () => string;
  log: LogWriter;
  clock: Clock;
  socketFactory: GatewaySocketFactory;
  /** Delay before reconnect attempt `n` (0-based). @defaultValue exponential from 1 s to 30 s with jitter */
  reconnectDelayMs?: (attempt: number) => number;
  /** Delay before identifying again after Invalid Session. @defaultValue 1–5 s, as the platform asks */
  invalidSessionDelayMs?: () => number;
  /** Random numbers in [0, 1) for heartbeat jitter. @defaultValue `Math.random` */
  random?: () => number;
  /** How long to wait for Hello after opening a socket. @defaultValue 20 s */
  helloTimeoutMs?: number;
}

/**
 * The largest forward jump of the dispatch sequence number that is believed. The gateway numbers dispatches
 * one by one; a resume replays at most what the server buffered, far fewer than this.
 */
const MAX_SEQUENCE_GAP = 100_000;
/** Our own close code when a heartbeat went unanswered; any code but 1000/1001 keeps the session resumable. */
const ZOMBIE_CLOSE_CODE = 4200;
/** Our close code when the server asked us to reconnect (op 7) or invalidated a resumable session. */
const RECONNECT_CLOSE_CODE = 4900;

const defaultReconnectDelay = (attempt: number): number => {
  const base = Math.min(30_000, 1_000 * 2 ** Math.min(attempt, 5));
  return base / 2 + (Math.random() * base) / 2;
};

/**
 * One logical gateway session across as many sockets as it takes: Hello, heartbeats with jitter and zombie
 * detection, Identify, Resume with replay after a dropped socket, Invalid Session, and no reconnect after a
 * terminal close code.
 */
export class GatewayConnection extends TypedEmitter<GatewayConnectionEvents> {
  readonly #options: GatewayConnectionOptions;
  readonly #log: LogWriter;
  readonly #clock: Clock;
  #state = GatewayState.Idle;
  #socket: GatewaySocket | undefined;
  #sessionId: string | undefined;
  #resumeUrl: string | undefined;
  #seq = 0;
  #heartbeatTimer: TimerHandle | undefined;
  #reconnectTimer: TimerHandle | undefined;
  #helloTimer: TimerHandle | undefined;
  #heartbeatIntervalMs = 0;
  #awaitingAck = false;
  #lastHeartbeatAt = 0;
  #latencyMs = -1;
  #attempt = 0;
  #sawHello = false;
  /** Set before we close a socket ourselves, so its close event is read as ours. */
  #selfClose: { code: number; newSession: boolean } | undefined;
  #budget: SendBudget;
  #warnedHeartbeatRequests = false;
  #closed: Promise<void> | undefined;

  constructor(options: GatewayConnectionOptions) {
    super();
    this.#options = options;
    this.#log = options.log;
    this.#clock = options.clock;
    this.#budget = new SendBudget(options.clock, (payload) => {
      this.#write(payload);
    });
  }

  /** The current state. */
  get state(): GatewayState {
    return this.#state;
  }

  /** The session id from READY, while a session exists. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The last dispatch sequence number received. */
  get sequence(): number {
    return this.#seq;
  }

  /** Round trip of the last acknowledged heartbeat in ms, or -1 before the first one. */
  get latencyMs(): number {
    return this.#latencyMs;
  }

  /** Opens the first socket. Only valid in the Idle state. */
  open(): void {
    if (this.#state !== GatewayState.Idle)
      throw new Error(`cannot open a gateway connection in state ${this.#state}`);
    this.#connect();
  }

  /**
   * Sends a payload, keeping within the platform's 120-per-minute limit by queueing. Throws
   * {@link ValidationError} when the payload exceeds the 4096-byte limit, which would end the session.
   */
  send(op: GatewayOpcode, d: unknown): void {
    const text = JSON.stringify({ op, d });
    if (Buffer.byteLength(text) > MAX_CLIENT_PAYLOAD_BYTES) {
      throw new ValidationError(`gateway payload of op ${op} exceeds ${MAX_CLIENT_PAYLOAD_BYTES} bytes`);
    }
    this.#budget.enqueue(text);
  }

  /** Ends the session (close code 1000) and stops reconnecting. Resolves once the socket is closed. */
  close(): Promise<void> {
    if (this.#closed) return this.#closed;
    this.#closed = this.#shutdown();
    return this.#closed;
  }

  async #shutdown(): Promise<void> {
    this.#clearTimers();
    this.#budget.clear();
    const socket = this.#socket;
    this.#sessionId = undefined;
    if (socket) {
      this.#selfClose = { code: 1000, newSession: true };
      await new Promise<void>((resolve) => {
        const fallback = setTimeout(() => {
          socket.terminate();
          resolve();
        }, 2_000);
        socket.on('close', () => {
          clearTimeout(fallback);
          resolve();
        });
        socket.close(1000, 'client disconnect');
      });
    }
    this.#detachSocket();
    this.#setState(GatewayState.Closed, {});
  }

  #connect(): void {
    const base = this.#resumeUrl ?? this.#options.url;
    const url = new URL(base);
    url.searchParams.set('v', String(GATEWAY_VERSION));
    url.searchParams.set('encoding', 'json');
    this.#sawHello = false;
    this.#setState(GatewayState.Connecting, {});
    this.#log.verbose(`opening ${url.origin}${url.pathname} (attempt ${this.#attempt + 1})`);
    let socket: GatewaySocket;
    try {
      socket = this.#options.socketFactory(url.toString());
    } catch (error) {
      this.#log.warn(`could not open the gateway socket: ${(error as Error).message}`);
      this.#scheduleReconnect({ connectFailed: true });
      return;
    }
    this.#socket = socket;
    socket.on('message', (data, isBinary) => {
      if (this.#socket !== socket) return;
      this.#onMessage(data, isBinary);
    });
    socket.on('close', (code) => {
      if (this.#socket !== socket) return;
      this.#onClose(code);
    });
    socket.on('error', (error) => {
      if (this.#socket !== socket) return;
      this.#log.warn(`gateway socket error: ${error.message}`);
    });
    this.#helloTimer = this.#clock.setTimeout(() => {
      if (this.#socket !== socket || this.#sawHello) return;
      this.#log.warn('no Hello from the gateway in time; reconnecting');
      this.#selfClose = { code: RECONNECT_CLOSE_CODE, newSession: false };
      socket.terminate();
    }, this.#options.helloTimeoutMs ?? 20_000);
  }

  #onMessage(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
    if (isBinary) {
      this.#log.warn('ignored a binary gateway frame (compression is not negotiated)');
      return;
    }
    let payload: GatewayPayload;
    try {
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data as ArrayBuffer).toString('utf8');
      payload = JSON.parse(text) as GatewayPayload;
      if (typeof payload !== 'object' || payload === null || typeof payload.op !== 'number')
        throw new Error('no op');
    } catch {
      this.#log.warn('ignored an undecodable gateway message');
      return;
    }
    switch (payload.op) {
      case GatewayOpcode.Hello:
        this.#onHello(payload.d);
        break;
      case GatewayOpcode.HeartbeatAck:
        this.#awaitingAck = false;
        this.#latencyMs = this.#clock.now() - this.#lastHeartbeatAt;
        break;
      case GatewayOpcode.Heartbeat:
        // The server may ask for a beat at any time, but each one counts against the 120-per-60 s send
        // limit: beyond the budget's reserve the request is answered by the next scheduled beat instead.
        if (this.#budget.tryUrgent()) this.#heartbeat();
        else if (!this.#warnedHeartbeatRequests) {
          this.#warnedHeartbeatRequests = true;
          this.#log.warn(
            'the gateway asks for heartbeats faster than the send limit allows; ignoring the excess',
          );
        }
        break;
      case GatewayOpcode.Dispatch:
        this.#onDispatch(payload);
        break;
      case GatewayOpcode.Reconnect:
        this.#log.info('gateway asked to reconnect');
        this.#dropSocket(RECONNECT_CLOSE_CODE, false);
        break;
      case GatewayOpcode.InvalidSession:
        this.#onInvalidSession(payload.d === true);
        break;
      default:
        this.#log.verbose(`ignored gateway op ${payload.op}`);
    }
  }

  #onHello(d: unknown): void {
    const interval = (d as { heartbeat_interval?: unknown } | null)?.heartbeat_interval;
    if (typeof interval !== 'number' || !(interval > 0)) {
      this.#log.warn('Hello without a valid heartbeat_interval; reconnecting');
      this.#dropSocket(RECONNECT_CLOSE_CODE, false);
      return;
    }
    this.#sawHello = true;
    this.#clock.clearTimeout(this.#helloTimer);
    this.#heartbeatIntervalMs = interval;
    this.#awaitingAck = false;
    // The first beat waits a random fraction of the interval so many clients do not beat in step.
    const random = this.#options.random ?? Math.random;
    this.#scheduleHeartbeat(Math.floor(interval * random()));
    if (this.#sessionId !== undefined) {
      this.#setState(GatewayState.Resuming, {});
      this.#write(
        JSON.stringify({
          op: GatewayOpcode.Resume,
          d: { token: this.#authToken(), session_id: this.#sessionId, seq: this.#seq },
        }),
      );
      this.#log.info(`resuming session at seq ${this.#seq}`);
    } else {
      this.#setState(GatewayState.Identifying, {});
      this.#write(JSON.stringify({ op: GatewayOpcode.Identify, d: this.#identifyPayload() }));
      this.#log.info('identifying');
    }
  }

  #identifyPayload(): Record<string, unknown> {
    return {
      token: this.#authToken(),
      properties: { os: process.platform, browser: 'sdkpp', device: 'sdkpp' },
      capabilities: CAPABILITY_AUTO_LOBBY_CONNECT,
      presence: { status: 'online', since: null, activities: [], afk: false },
    };
  }

  #authToken(): string {
    return `Bearer ${this.#options.token()}`;
  }

  #onDispatch(payload: GatewayPayload): void {
    const seq = payload.s;
    if (seq !== undefined && seq !== null) {
      if (!Number.isSafeInteger(seq) || seq < 1) {
        this.#log.warn(`ignored a dispatch with an invalid sequence number (${String(seq).slice(0, 24)})`);
        return;
      }
      // A replay after resume never repeats what we already applied; a duplicate is dropped here.
      if (seq <= this.#seq && this.#state === GatewayState.Ready) return;
      if (this.#seq > 0 && seq - this.#seq > MAX_SEQUENCE_GAP) {
        // A sequence number far ahead is a broken or hostile frame: adopting it would make every later,
        // honest dispatch look like a duplicate. The event is delivered; the sequence is not taken.
        this.#log.warn(`dispatch sequence jumped from ${this.#seq} to ${seq}; not adopting it`);
      } else this.#seq = Math.max(this.#seq, seq);
    }
    const event = typeof payload.t === 'string' ? payload.t : '';
    if (event === 'READY') {
      const data = (payload.d ?? {}) as Record<string, unknown>;
      this.#sessionId = typeof data.session_id === 'string' ? data.session_id : undefined;
      this.#resumeUrl = typeof data.resume_gateway_url === 'string' ? data.resume_gateway_url : undefined;
      this.#attempt = 0;
      // Listeners of the Ready state must already see the session's data.
      this.emit('dispatch', event, payload.d);
      this.emit('ready', data);
      this.#setState(GatewayState.Ready, {});
      this.#budget.start();
      return;
    }
    if (event === 'RESUMED') {
      this.#attempt = 0;
      this.emit('dispatch', event, payload.d);
      this.emit('resumed');
      this.#setState(GatewayState.Ready, {});
      this.#budget.start();
      return;
    }
    this.emit('dispatch', event, payload.d);
  }

  #onInvalidSession(resumable: boolean): void {
    if (resumable) {
      this.#log.info('session invalidated but resumable; reconnecting');
      this.#dropSocket(RECONNECT_CLOSE_CODE, false);
      return;
    }
    this.#log.info('session invalidated; identifying anew');
    this.#sessionId = undefined;
    this.#resumeUrl = undefined;
    this.#seq = 0;
    const delay = this.#options.invalidSessionDelayMs?.() ?? 1_000 + Math.random() * 4_000;
    this.#dropSocket(RECONNECT_CLOSE_CODE, true, delay);
  }

  /** Closes the current socket ourselves and reconnects; the session is kept unless `newSession`. */
  #dropSocket(code: number, newSession: boolean, delayMs?: number): void {
    const socket = this.#socket;
    if (!socket) return;
    this.#selfClose = { code, newSession };
    this.#detachSocket();
    socket.on('error', () => undefined);
    socket.close(code);
    this.#scheduleReconnect({ closeCode: code }, delayMs);
  }

  #onClose(code: number): void {
    const self = this.#selfClose;
    this.#selfClose = undefined;
    const hadHello = this.#sawHello;
    this.#detachSocket();
    if (this.#state === GatewayState.Closed || this.#closed) return;
    if (self?.code === ZOMBIE_CLOSE_CODE) {
      this.#scheduleReconnect({ closeCode: ZOMBIE_CLOSE_CODE });
      return;
    }
    if (TERMINAL_CLOSE_CODES.has(code)) {
      this.#log.error(`gateway closed with ${describeCloseCode(code)}; not reconnecting`);
      this.#sessionId = undefined;
      this.#setState(GatewayState.Closed, { closeCode: code });
      return;
    }
    if (NEW_SESSION_CLOSE_CODES.has(code)) {
      this.#log.warn(`gateway closed with ${describeCloseCode(code)}; starting a new session`);
      this.#sessionId = undefined;
      this.#resumeUrl = undefined;
      this.#seq = 0;
    } else {
      this.#log.warn(
        `gateway connection lost (${describeCloseCode(code)}); will ${this.#sessionId ? 'resume' : 'reconnect'}`,
      );
    }
    this.#scheduleReconnect(hadHello ? { closeCode: code } : { closeCode: code, connectFailed: true });
  }

  #scheduleReconnect(detail: GatewayStateDetail, delayMs?: number): void {
    this.#clearTimers();
    const delay = delayMs ?? (this.#options.reconnectDelayMs ?? defaultReconnectDelay)(this.#attempt);
    this.#attempt += 1;
    this.#setState(GatewayState.Backoff, detail);
    this.#log.verbose(`reconnecting in ${Math.round(delay)} ms`);
    this.#reconnectTimer = this.#clock.setTimeout(
      () => {
        this.#reconnectTimer = undefined;
        if (this.#state === GatewayState.Backoff) this.#connect();
      },
      delay,
      // Waiting to reconnect must not keep a game's process alive once nothing else does (a game that
      // forgot destroy() after its platform went away would otherwise never exit).
      { unref: true },
    );
  }

  #scheduleHeartbeat(delayMs: number): void {
    this.#clock.clearTimeout(this.#heartbeatTimer);
    this.#heartbeatTimer = this.#clock.setTimeout(() => {
      if (this.#awaitingAck) {
        // The last beat was never acknowledged: the connection is a zombie. Drop it without a
        // close handshake (which would hang on a dead link) and resume on a fresh socket.
        this.#log.warn('no heartbeat ACK; the connection is a zombie, resuming on a new socket');
        this.#selfClose = { code: ZOMBIE_CLOSE_CODE, newSession: false };
        this.#socket?.terminate();
        return;
      }
      this.#budget.noteUrgent();
      this.#heartbeat();
      this.#scheduleHeartbeat(this.#heartbeatIntervalMs);
    }, delayMs);
  }

  #heartbeat(): void {
    this.#awaitingAck = true;
    this.#lastHeartbeatAt = this.#clock.now();
    this.#write(JSON.stringify({ op: GatewayOpcode.Heartbeat, d: this.#seq === 0 ? null : this.#seq }));
  }

  #write(text: string): void {
    try {
      this.#socket?.send(text);
    } catch (error) {
      this.#log.warn(`gateway send failed: ${(error as Error).message}`);
    }
  }

  #detachSocket(): void {
    this.#clock.clearTimeout(this.#heartbeatTimer);
    this.#clock.clearTimeout(this.#helloTimer);
    this.#heartbeatTimer = undefined;
    this.#helloTimer = undefined;
    this.#budget.reset();
    this.#socket = undefined;
  }

  #clearTimers(): void {
    this.#clock.clearTimeout(this.#heartbeatTimer);
    this.#clock.clearTimeout(this.#reconnectTimer);
    this.#clock.clearTimeout(this.#helloTimer);
    this.#heartbeatTimer = undefined;
    this.#reconnectTimer = undefined;
    this.#helloTimer = undefined;
  }

  #setState(state: GatewayState, detail: GatewayStateDetail): void {
    if (this.#state === GatewayState.Closed) return;
    this.#state = state;
    this.emit('state', state, detail);
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#log.error(`a ${event} listener threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}

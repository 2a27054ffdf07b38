import type { WebSocket } from 'ws';

import { GatewayClose, GatewayOpcode } from '@sdkpp/protocol';
import { TypedEmitter } from '@sdkpp/protocol';
import type { Clock } from '@sdkpp/protocol';
import type { SessionControl } from '../accounts/Accounts.js';
import { wireUser } from '../accounts/userObject.js';
import { shortId, type EmulatorLog } from '../log.js';
import { randomHex, safeEqual } from '../random.js';
import type { EmulatorStore } from '../store/Store.js';
import type { UserRecord } from '../store/types.js';
import type { GatewaySessionInfo } from '../types.js';
import { PlainEncoder, type FrameEncoder } from './compression.js';
import { GatewayConnection, type ConnectionHost } from './GatewayConnection.js';
import { GatewaySession } from './GatewaySession.js';
import { applicationFlags } from '../store/applicationFlags.js';
import { PRIVILEGED_INTENTS } from '../platform/intents.js';
import { ACCEPTED_CLIENT_OPS, SESSION_ENDING_CODES } from './opcodes.js';
import { buildReady } from './ready.js';

/** Events of the {@link GatewayHub}, for features that react to sessions (presence, lobbies, …). */
export type GatewayHubEvents = {
  /** A session was created by Identify (READY has been sent). */
  sessionStarted: [session: GatewaySession];
  /** A session was resumed on a new socket (RESUMED has been sent). */
  sessionResumed: [session: GatewaySession];
  /** A session lost its socket but stays resumable. */
  sessionDisconnected: [session: GatewaySession];
  /** A session is over and can never be resumed. */
  sessionEnded: [session: GatewaySession];
  /** An event was dispatched to a session (sent now, or buffered for its resume). */
  dispatched: [session: GatewaySession, event: string];
};

/** Adds fields to a session's READY (relationships, presences, …); later keys replace earlier ones. */
export type ReadyContributor = (session: GatewaySession) => Record<string, unknown>;

/** Handles one client op of an identified session. */
export type OpHandler = (session: GatewaySession, data: unknown, connection: GatewayConnection) => void;

/** Dependencies of the {@link GatewayHub}. */
export interface GatewayHubDeps {
  store: EmulatorStore;
  clock: Clock;
  log: EmulatorLog;
  /** The gateway URL, sent as `resume_gateway_url`. */
  gatewayUrl: string;
  heartbeatIntervalMs: number;
  resumeWindowMs: number;
  rateLimit: { count: number; windowMs: number };
  /** See `EmulatorOptions.identifyTimeoutMs`. */
  identifyTimeoutMs: number;
  /** See `EmulatorOptions.maxOutboundBufferBytes`. */
  maxOutboundBufferBytes: number;
  /** See `EmulatorOptions.replayBufferBytes`. */
  replayBufferBytes: number;
  /** The bot's Identify budget per day. */
  botSessionLimit: number;
  /** Rate-limit keys of bot Identifies (`shard_id % botMaxConcurrency`). */
  botMaxConcurrency: number;
  /** The pacing window per key, in ms. */
  botIdentifyWindowMs: number;
  /** A child application of the publisher by id (publisher-level linking), for READY of a child token. */
  childApplication?: (id: string) => { id: string; name: string } | undefined;
}

/** Time window of the bot's identify budget. */
const DAY_MS = 24 * 60 * 60_000;
/** How long {@link GatewayHub.shutdown} waits for clients to answer the close frame. */
const SHUTDOWN_GRACE_MS = 500;
/** Bits of valid gateway intents (through 1 << 25). */
const MAX_INTENTS = 2 ** 26;

type Authenticated = {
  user: UserRecord;
  kind: 'oauth' | 'bot';
  scopes: string[];
  /** The child application of a child token; absent for the served application's own tokens. */
  applicationId?: string;
};

/** Identify's `shard: [shard_id, num_shards]`: [0, 1] without one, null when malformed. */
function shardOf(shard: unknown): [number, number] | null {
  if (shard === undefined || shard === null) return [0, 1];
  if (!Array.isArray(shard) || shard.length !== 2) return null;
  const [id, count] = shard as unknown[];
  if (!Number.isInteger(id) || !Number.isInteger(count)) return null;
  const [i, n] = [id as number, count as number];
  return i >= 0 && n >= 1 && i < n ? [i, n] : null;
}

/** Identify's `capabilities`: a non-negative integer bitfield, anything else counts as none. */
function capabilitiesOf(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every gateway session and socket of one emulator. It authenticates Identify and Resume, keeps sessions
 * resumable after a drop, numbers and buffers dispatches, and is the one API other features use to reach
 * users in real time: {@link GatewayHub.dispatch}, {@link GatewayHub.onOp} and the session events.
 */
export class GatewayHub extends TypedEmitter<GatewayHubEvents> implements ConnectionHost, SessionControl {
  readonly clock: Clock;
  readonly heartbeatIntervalMs: number;
  readonly rateLimit: { count: number; windowMs: number };
  readonly identifyTimeoutMs: number;
  readonly maxOutboundBufferBytes: number;
  readonly #d: GatewayHubDeps;
  readonly #sessions = new Map<string, GatewaySession>();
  readonly #connections = new Set<GatewayConnection>();
  /** The session each identified socket carries (the socket itself only knows that it has one). */
  readonly #sessionOf = new Map<GatewayConnection, GatewaySession>();
  readonly #opHandlers = new Map<number, OpHandler>();
  readonly #readyContributors: ReadyContributor[] = [];
  readonly #botIdentifies: number[] = [];
  /** The last bot Identify per rate-limit key. */
  readonly #botBuckets = new Map<number, number>();
  readonly #closeWaiters = new Set<() => void>();

  constructor(deps: GatewayHubDeps) {
    super();
    this.#d = deps;
    this.clock = deps.clock;
    this.heartbeatIntervalMs = deps.heartbeatIntervalMs;
    this.rateLimit = deps.rateLimit;
    this.identifyTimeoutMs = deps.identifyTimeoutMs;
    this.maxOutboundBufferBytes = deps.maxOutboundBufferBytes;
  }

  // ── public API for the emulator and later features ───────────────────────────────────────────────────

  /** Takes a freshly upgraded socket; `encoder` implements the requested transport compression. */
  accept(ws: WebSocket, encoder: FrameEncoder = new PlainEncoder()): void {
    const connection = new GatewayConnection(ws, this, encoder);
    this.#connections.add(connection);
    connection.start();
  }

  /** Registers the handler of a client op (e.g. presence updates); replaces any earlier one. */
  onOp(op: number, handler: OpHandler): void {
    this.#opHandlers.set(op, handler);
  }

  /** Registers a source of READY fields. */
  addReadyContributor(contributor: ReadyContributor): void {
    this.#readyContributors.push(contributor);
  }

  /** Dispatches `event` to every session of the user; sessions without a socket buffer it for the resume. */
  dispatch(userId: string, event: string, data: unknown): void {
    for (const session of this.#sessionsOf(userId)) this.dispatchTo(session, event, data);
  }

  /** The live sessions (connected or resumable) of a user. */
  sessionsOf(userId: string): GatewaySession[] {
    return this.#sessionsOf(userId);
  }

  /** Dispatches `event` to one session. */
  dispatchTo(session: GatewaySession, event: string, data: unknown): void {
    if (session.ended) return;
    const sent = session.record(event, data);
    session.connection?.sendFrame(sent.frame);
    this.emit('dispatched', session, event);
  }

  /** Ends every session of the user, closing their sockets with `code`. */
  endUserSessions(userId: string, code: number, reason: string): number {
    const sessions = this.#sessionsOf(userId);
    for (const session of sessions) this.#endSession(session, code, reason);
    return sessions.length;
  }

  /** Destroys sockets without a close frame (a network drop); their sessions stay resumable. */
  drop(userId?: string): number {
    const targets = this.#targets(userId);
    for (const connection of targets) connection.terminate();
    if (targets.length > 0) this.#d.log.line('gateway', `dropped ${targets.length} connection(s)`);
    return targets.length;
  }

  /** Closes sockets with `code`; whether their sessions survive follows {@link SESSION_ENDING_CODES}. */
  closeConnections(code: number, reason = '', userId?: string): number {
    if (!(code === 1000 || code === 1001 || (code >= 3000 && code <= 4999))) {
      throw new RangeError(`${code} is not a close code a server may send (1000, 1001 or 3000–4999)`);
    }
    if (Buffer.byteLength(reason) > 123) throw new RangeError('a close reason is at most 123 bytes');
    const targets = this.#targets(userId);
    for (const connection of targets) connection.close(code, reason);
    return targets.length;
  }

  /** Sends op 7 Reconnect to the sockets. */
  requestReconnect(userId?: string): number {
    const targets = this.#targets(userId).filter((c) => c.open);
    for (const connection of targets) connection.requestReconnect();
    return targets.length;
  }

  /** The sessions, connected or resumable. */
  list(userId?: string): GatewaySessionInfo[] {
    const sessions = userId === undefined ? [...this.#sessions.values()] : this.#sessionsOf(userId);
    return sessions.map((s) => ({
      sessionId: s.id,
      userId: s.userId,
      seq: s.seq,
      connected: s.connection !== null,
    }));
  }

  /** The live session with this id. */
  session(id: string): GatewaySession | undefined {
    return this.#sessions.get(id);
  }

  /**
   * `session_start_limit` of `GET /gateway/bot`: the day's budget, the identifies left in it, ms until the
   * oldest of them stops counting, and the concurrency.
   */
  botSessionStartLimit(): { total: number; remaining: number; resetAfter: number; maxConcurrency: number } {
    const now = this.clock.now();
    this.#pruneBotIdentifies(now);
    const oldest = this.#botIdentifies[0];
    return {
      total: this.#d.botSessionLimit,
      remaining: Math.max(0, this.#d.botSessionLimit - this.#botIdentifies.length),
      resetAfter: oldest === undefined ? 0 : oldest + DAY_MS - now,
      maxConcurrency: this.#d.botMaxConcurrency,
    };
  }

  /** @internal */
  logLine(line: string): void {
    this.#d.log.line('gateway', line);
  }

  /** Closes every socket with 1001 and ends every session; resolves once the sockets are gone. */
  async shutdown(): Promise<void> {
    for (const session of [...this.#sessions.values()])
      this.#endSession(session, GatewayClose.GoingAway, 'Emulator shutting down');
    for (const connection of this.#connections)
      connection.close(GatewayClose.GoingAway, 'Emulator shutting down');
    if (await this.#waitForNoConnections(SHUTDOWN_GRACE_MS)) return;
    // Clients that do not answer the close frame in time are cut off, so close() stays quick.
    for (const connection of this.#connections) connection.terminate();
    await this.#waitForNoConnections(SHUTDOWN_GRACE_MS);
  }

  // ── ConnectionHost ────────────────────────────────────────────────────────────────────────────────────

  /** @internal */
  identify(connection: GatewayConnection, data: unknown): void {
    if (!isObject(data) || typeof data.token !== 'string') {
      connection.close(GatewayClose.UnknownOpcode, 'Invalid payload: Identify needs a "token" string');
      return;
    }
    const auth = this.#authenticate(data.token);
    if (typeof auth === 'string') {
      connection.close(GatewayClose.AuthenticationFailed, auth);
      return;
    }
    let shard: [number, number] | null = [0, 1];
    if (auth.kind === 'bot') {
      const intents = data.intents;
      if (
        typeof intents !== 'number' ||
        !Number.isInteger(intents) ||
        intents < 0 ||
        intents >= MAX_INTENTS
      ) {
        connection.close(GatewayClose.InvalidIntents, 'Invalid intent(s)');
        return;
      }
      const disallowed = intents & PRIVILEGED_INTENTS & ~this.#d.store.state.application.privilegedIntents;
      if (disallowed !== 0) {
        this.#d.log.line('gateway', `bot Identify refused: privileged intents ${disallowed} are not enabled`);
        connection.close(GatewayClose.DisallowedIntents, 'Disallowed intent(s)');
        return;
      }
      shard = shardOf(data.shard);
      if (shard === null) {
        connection.close(GatewayClose.InvalidShard, 'Invalid shard');
        return;
      }
      if (!this.#takeBotIdentify(shard[0])) {
        connection.sendPayload(GatewayOpcode.InvalidSession, false);
        return;
      }
    }
    // A child token (publisher-level linking) identifies for the child application; it has no flags of its own.
    const child =
      auth.applicationId === undefined ? undefined : this.#d.childApplication?.(auth.applicationId);
    const session = new GatewaySession(
      randomHex(16),
      {
        userId: auth.user.id,
        kind: auth.kind,
        scopes: auth.scopes,
        intents: auth.kind === 'bot' ? (data.intents as number) : 0,
        shard,
        capabilities: capabilitiesOf(data.capabilities),
        ...(child ? { childApplication: { id: child.id, name: child.name } } : {}),
      },
      this.#d.replayBufferBytes,
    );
    this.#sessions.set(session.id, session);
    this.#attach(session, connection);
    const app = this.#d.store.state.application;
    const ready = buildReady({
      user: wireUser(auth.user, { premium: auth.scopes.includes('identify.premium') }),
      sessionId: session.id,
      sessionType: auth.kind === 'bot' ? 'normal' : 'oauth',
      scopes: auth.scopes,
      application: child
        ? { id: child.id, name: child.name, flags: 0 }
        : { id: app.id, name: app.name, flags: applicationFlags(this.#d.store.state) },
      gatewayUrl: this.#d.gatewayUrl,
    });
    for (const contribute of this.#readyContributors) Object.assign(ready, contribute(session));
    this.dispatchTo(session, 'READY', ready);
    this.#d.log.line('gateway', `${auth.user.username} identified (session ${shortId(session.id)})`);
    this.emit('sessionStarted', session);
  }

  /** @internal */
  resume(connection: GatewayConnection, data: unknown): void {
    if (!isObject(data) || typeof data.token !== 'string' || typeof data.session_id !== 'string') {
      connection.close(
        GatewayClose.UnknownOpcode,
        'Invalid payload: Resume needs "token", "session_id" and "seq"',
      );
      return;
    }
    const seq = data.seq ?? 0;
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) {
      connection.close(GatewayClose.UnknownOpcode, 'Invalid payload: "seq" must be a non-negative integer');
      return;
    }
    const auth = this.#authenticate(data.token);
    if (typeof auth === 'string') {
      connection.close(GatewayClose.AuthenticationFailed, auth);
      return;
    }
    const session = this.#sessions.get(data.session_id);
    if (!session || session.ended || session.userId !== auth.user.id) {
      this.#d.log.line('gateway', `${auth.user.username} could not resume: unknown session`);
      connection.sendPayload(GatewayOpcode.InvalidSession, false);
      return;
    }
    if (seq > session.seq) {
      connection.close(GatewayClose.InvalidSeq, 'Invalid seq');
      return;
    }
    const replay = session.replayAfter(seq);
    if (replay === null) {
      this.#d.log.line('gateway', `${auth.user.username} could not resume: too far behind`);
      this.#endSession(session, GatewayClose.SessionTimedOut, 'Session expired');
      connection.sendPayload(GatewayOpcode.InvalidSession, false);
      return;
    }
    const previous = session.connection;
    this.#attach(session, connection);
    if (previous && previous !== connection) {
      // Documented choice: the older socket of a resumed session is closed with 4000 (resumable), since its
      // client may be a zombie that simply has not noticed yet; it no longer owns the session.
      this.#sessionOf.delete(previous);
      previous.close(GatewayClose.UnknownError, 'Session resumed on another connection');
    }
    for (const dispatch of replay) connection.sendFrame(dispatch.frame);
    this.dispatchTo(session, 'RESUMED', {});
    this.#d.log.line(
      'gateway',
      `${auth.user.username} resumed session ${shortId(session.id)} (${replay.length} replayed)`,
    );
    this.emit('sessionResumed', session);
  }

  /** @internal */
  knowsOp(op: number): boolean {
    return this.#opHandlers.has(op) || ACCEPTED_CLIENT_OPS.has(op);
  }

  /** @internal */
  handleOp(connection: GatewayConnection, op: number, data: unknown): void {
    const session = this.#sessionOf.get(connection);
    const handler = this.#opHandlers.get(op);
    if (session && handler) handler(session, data, connection);
  }

  /** @internal */
  connectionClosed(connection: GatewayConnection, code: number, byServer: boolean): void {
    this.#connections.delete(connection);
    const session = this.#sessionOf.get(connection);
    this.#sessionOf.delete(connection);
    if (session && session.connection === connection && !session.ended) {
      session.connection = null;
      const ends = byServer
        ? SESSION_ENDING_CODES.has(code)
        : code === GatewayClose.Normal || code === GatewayClose.GoingAway;
      if (ends) {
        this.#endSession(session, code, '');
      } else {
        session.expiryTimer = this.clock.setTimeout(() => {
          this.#endSession(session, GatewayClose.SessionTimedOut, '');
        }, this.#d.resumeWindowMs);
        this.#d.log.line('gateway', `session ${shortId(session.id)} disconnected (${code}), resumable`);
        this.emit('sessionDisconnected', session);
      }
    }
    for (const waiter of [...this.#closeWaiters]) waiter();
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────────────────

  #attach(session: GatewaySession, connection: GatewayConnection): void {
    this.clock.clearTimeout(session.expiryTimer);
    session.expiryTimer = undefined;
    session.connection = connection;
    this.#sessionOf.set(connection, session);
    connection.authenticated();
  }

  /**
   * Counts a bot Identify against the day's budget and its rate-limit key (`shard_id % max_concurrency`,
   * one per window), or refuses it (the caller answers op 9, as the platform does) with a log line.
   */
  #takeBotIdentify(shard: number): boolean {
    const now = this.clock.now();
    this.#pruneBotIdentifies(now);
    if (this.#botIdentifies.length >= this.#d.botSessionLimit) {
      const oldest = this.#botIdentifies[0] ?? now;
      this.#d.log.line(
        'gateway',
        `bot Identify refused: session start limit of ${this.#d.botSessionLimit} spent (resets in ${oldest + DAY_MS - now} ms)`,
      );
      return false;
    }
    const key = shard % this.#d.botMaxConcurrency;
    const last = this.#botBuckets.get(key);
    if (last !== undefined && now - last < this.#d.botIdentifyWindowMs) {
      this.#d.log.line(
        'gateway',
        `bot Identify refused: rate-limit key ${key} identified ${now - last} ms ago (max_concurrency ${this.#d.botMaxConcurrency} per ${this.#d.botIdentifyWindowMs} ms)`,
      );
      return false;
    }
    this.#botBuckets.set(key, now);
    this.#botIdentifies.push(now);
    return true;
  }

  #endSession(session: GatewaySession, code: number, reason: string): void {
    if (session.ended) return;
    session.ended = true;
    this.#sessions.delete(session.id);
    this.clock.clearTimeout(session.expiryTimer);
    const connection = session.connection;
    session.connection = null;
    if (connection) {
      this.#sessionOf.delete(connection);
      connection.close(code, reason);
    }
    this.#d.log.line('gateway', `session ${shortId(session.id)} ended`);
    this.emit('sessionEnded', session);
  }

  #sessionsOf(userId: string): GatewaySession[] {
    return [...this.#sessions.values()].filter((s) => s.userId === userId);
  }

  /** Sockets of the user's sessions, or every socket (identified or not) when no user is given. */
  #targets(userId: string | undefined): GatewayConnection[] {
    if (userId === undefined) return [...this.#connections];
    return this.#sessionsOf(userId).flatMap((s) => (s.connection ? [s.connection] : []));
  }

  /** The user behind an Identify/Resume token, or the close reason. */
  #authenticate(raw: string): Authenticated | string {
    const { store } = this.#d;
    const match = /^(Bearer|Bot)\s+(.+)$/i.exec(raw);
    const scheme = match?.[1]?.toLowerCase();
    const token = match?.[2] ?? raw;
    if (scheme !== 'bot') {
      const access = store.accessToken(token);
      const user = access ? store.user(access.userId) : undefined;
      if (access && user && !user.banned) {
        if (!access.scopes.includes('gateway.connect')) {
          return 'Authentication failed: the token lacks gateway.connect';
        }
        return {
          user,
          kind: 'oauth',
          scopes: access.scopes,
          ...(access.applicationId === undefined ? {} : { applicationId: access.applicationId }),
        };
      }
    }
    if (scheme !== 'bearer' && safeEqual(token, store.state.application.botToken)) {
      return { user: store.botUser(), kind: 'bot', scopes: [] };
    }
    return 'Authentication failed';
  }

  #waitForNoConnections(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.#connections.size === 0) {
        resolve(true);
        return;
      }
      const done = (result: boolean): void => {
        this.clock.clearTimeout(timer);
        this.#closeWaiters.delete(check);
        resolve(result);
      };
      const check = (): void => {
        if (this.#connections.size === 0) done(true);
      };
      const timer = this.clock.setTimeout(() => {
        done(false);
      }, ms);
      this.#closeWaiters.add(check);
    });
  }

  #pruneBotIdentifies(now: number): void {
    while (this.#botIdentifies.length > 0 && (this.#botIdentifies[0] ?? 0) <= now - DAY_MS)
      this.#botIdentifies.shift();
  }
}

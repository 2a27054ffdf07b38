import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

import { WebSocketServer, type RawData, type ServerOptions, type WebSocket } from 'ws';

import type { MediaEngine } from '../../media/MediaEngine.js';
import { isTransportEncryptionMode, TRANSPORT_ENCRYPTION_MODES } from '../../media/rtp/types.js';
import type { Clock, TimerHandle } from '../../util/Clock.js';
import type { EmulatorLog } from '../log.js';
import type { EmulatorVoiceCall } from '../types.js';
import { randomHex, safeEqual } from '../random.js';
import type { DaveCoordinatorFactory, DaveCoordinatorLike } from './daveBridge.js';
import type { VoiceImpairment } from './impairment.js';
import { MediaRelay, type RelayCounters, type RelayMember } from './MediaRelay.js';
import {
  BINARY_CLIENT_OPS,
  DAVE_PROTOCOL_VERSION,
  IGNORED_CLIENT_OPS,
  JSON_CLIENT_OPS,
  VOICE_GATEWAY_VERSIONS,
  VoiceClose,
  VoiceOp,
} from './opcodes.js';
import type { CallParticipant, LeaveReason, VoiceCall, VoiceCalls } from './VoiceCalls.js';
import { VoiceSession } from './VoiceSession.js';

/** The voice server's settings, resolved from `EmulatorOptions.voice`. */
export interface VoiceServerSettings {
  /** Interface for the WebSocket and UDP sockets. */
  host: string;
  /** TCP port of the voice gateway (0: any free one). */
  port: number;
  /** UDP port of the forwarding unit (0: any free one). */
  udpPort: number;
  /** Lets clients without DAVE in; the whole call then runs without E2EE (a downgrade, for tests). */
  allowNonDave: boolean;
  /** Sent in Hello and Ready. */
  heartbeatIntervalMs: number;
  /** How long a voice session whose socket went away stays resumable. */
  resumeWindowMs: number;
  /** Impairment from the start, or null. */
  impairment: VoiceImpairment | null;
}

/** What the voice server needs. */
export interface VoiceServerDeps {
  calls: VoiceCalls;
  log: EmulatorLog;
  clock: Clock;
  engine: MediaEngine;
  settings: VoiceServerSettings;
  /** Makes each call's DAVE coordinator; without it calls run DAVE version 0 (logged). */
  daveFactory?: DaveCoordinatorFactory;
}

/** The voice server's per-call state. */
class CallState {
  readonly lobbyId: string;
  readonly sessions = new Map<string, VoiceSession>();
  dave: DaveCoordinatorLike | null = null;
  /** Decided by the first op 4: 1 with DAVE, 0 without (downgraded for good until the call empties). */
  daveVersion: number | null = null;

  constructor(lobbyId: string) {
    this.lobbyId = lobbyId;
  }

  /** The sessions that got op 4, but `except`. */
  described(except?: VoiceSession): VoiceSession[] {
    return [...this.sessions.values()].filter((s) => s !== except && s.described && !s.ended);
  }
}

/** One socket's protocol state. */
interface Conn {
  readonly ws: WebSocket;
  readonly id: string;
  session: VoiceSession | null;
  heartbeat: TimerHandle | undefined;
  closing: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toBuffer(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? Buffer.from(data) : data;
}

const isU16 = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffff;

/** ws buffers at most this much of one message (a DAVE commit with welcomes for 25 fits easily). */
const WS_MAX_PAYLOAD = 1024 * 1024;

/**
 * The voice gateway v8 (its own HTTP port, any path, `?v=4`…`8`) and the UDP forwarding unit. Identify is
 * checked against the lobby calls the main gateway made ({@link VoiceCalls}); each connection gets an
 * SSRC, a fresh 32-byte key for the mode it selects, and the SSRC map of the others (op 11 + op 5). DAVE
 * ops go through the call's coordinator. Sessions survive a lost socket for the resume window, with their
 * sequenced messages buffered for replay.
 */
export class VoiceServer {
  readonly #d: VoiceServerDeps;
  readonly #http: Server;
  readonly #wss: WebSocketServer;
  readonly #relay: MediaRelay;
  readonly #calls = new Map<string, CallState>();
  readonly #conns = new Set<Conn>();
  #endpoint = '';
  #udpPort = 0;
  #noDaveLogged = false;

  private constructor(deps: VoiceServerDeps) {
    this.#d = deps;
    this.#http = createServer((_req, res) => {
      res.writeHead(426, { 'Content-Type': 'text/plain' }).end('voice gateway: connect with WebSocket\n');
    });
    const options: ServerOptions & { closeTimeout: number } = {
      noServer: true,
      maxPayload: WS_MAX_PAYLOAD,
      perMessageDeflate: false,
      closeTimeout: 2000,
    };
    this.#wss = new WebSocketServer(options);
    this.#wss.on('error', () => {
      // Only emitted in server mode, which noServer does not use.
    });
    this.#relay = new MediaRelay(deps.engine, deps.log);
    if (deps.settings.impairment) this.#relay.setImpairment(deps.settings.impairment);
    deps.calls.on('left', (call, participant, reason) => {
      this.#participantLeft(call, participant, reason);
    });
  }

  /** Starts listening (TCP and UDP); resolves once both are bound. */
  static async start(deps: VoiceServerDeps): Promise<VoiceServer> {
    const server = new VoiceServer(deps);
    const { port, udpPort } = deps.settings;
    const host = VoiceServer.#ipv4(deps.settings.host);
    await new Promise<void>((resolve, reject) => {
      server.#http.once('error', reject);
      server.#http.listen(port, host, () => {
        server.#http.off('error', reject);
        resolve();
      });
    });
    server.#http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      server.#onUpgrade(req, socket, head);
    });
    try {
      server.#udpPort = await server.#relay.bind(host, udpPort);
    } catch (error) {
      server.#http.close();
      throw error;
    }
    const address = server.#http.address() as AddressInfo;
    server.#endpoint = `${VoiceServer.#reachable(address.address)}:${address.port}`;
    deps.log.line('voice', `voice gateway on ${server.#endpoint}, UDP port ${server.#udpPort}`);
    return server;
  }

  /**
   * The IPv4 interface to bind: voice is IPv4 only (IP discovery and Ready carry an IPv4 address), so an
   * IPv6 emulator host maps to its IPv4 counterpart (`::` → `0.0.0.0`, any other → loopback).
   */
  static #ipv4(host: string): string {
    if (!host.includes(':')) return host;
    return host === '::' ? '0.0.0.0' : '127.0.0.1';
  }

  static #reachable(host: string): string {
    return host === '0.0.0.0' ? '127.0.0.1' : host;
  }

  /** `host:port` of the voice gateway, no scheme (VOICE_SERVER_UPDATE's `endpoint`). */
  get endpoint(): string {
    return this.#endpoint;
  }

  /** The forwarding unit's UDP port (Ready's `port`). */
  get udpPort(): number {
    return this.#udpPort;
  }

  /** Ends every voice session and closes the sockets. */
  async close(): Promise<void> {
    for (const call of [...this.#calls.values()]) {
      for (const session of [...call.sessions.values()]) {
        this.#endSession(session, { code: 1001, reason: 'Emulator shutting down' }, false);
      }
    }
    for (const conn of this.#conns) conn.ws.terminate();
    // Sockets refused at the version check are not in #conns.
    for (const ws of this.#wss.clients) ws.terminate();
    this.#wss.close();
    await Promise.all([
      this.#relay.close(),
      new Promise<void>((resolve) => {
        this.#http.close(() => {
          resolve();
        });
        this.#http.closeAllConnections();
      }),
    ]);
  }

  // ── emulator API ─────────────────────────────────────────────────────────────────────────────────────

  /** Every call with its participants, voice connections, DAVE epoch and counters. */
  callsInfo(): EmulatorVoiceCall[] {
    return this.#d.calls.all().map((call) => {
      const state = this.#calls.get(call.lobbyId);
      return {
        lobbyId: call.lobbyId,
        participants: [...call.participants.values()].map((p) => {
          const session = state?.sessions.get(p.userId);
          return {
            userId: p.userId,
            sessionId: p.sessionId,
            selfMute: p.selfMute,
            selfDeaf: p.selfDeaf,
            voice:
              session && !session.ended
                ? {
                    connected: session.socket !== null,
                    ssrc: session.relay.ssrc,
                    mode: session.mode,
                    daveProtocolVersion: session.daveProtocolVersion,
                    speaking: session.speaking,
                    packetsFromClient: session.relay.packetsFromClient,
                    packetsToClient: session.relay.packetsToClient,
                  }
                : null,
          };
        }),
        daveProtocolVersion: state?.daveVersion ?? null,
        daveEpoch: state?.dave ? state.dave.epoch : null,
        counters: this.#relay.callCounters(call.lobbyId),
      };
    });
  }

  /** Destroys voice sockets without a close frame (their sessions stay resumable); returns how many. */
  dropConnections(userId?: string, lobbyId?: string): number {
    let dropped = 0;
    for (const call of this.#calls.values()) {
      if (lobbyId !== undefined && call.lobbyId !== lobbyId) continue;
      for (const session of call.sessions.values()) {
        if (userId !== undefined && session.userId !== userId) continue;
        const ws = session.socket;
        if (!ws) continue;
        ws.terminate();
        // Known at once, as a network failure would be: calls() shows it when this returns.
        for (const conn of this.#conns) if (conn.ws === ws) this.#onSocketClosed(conn);
        dropped += 1;
      }
    }
    if (dropped > 0) this.#d.log.line('voice', `dropped ${dropped} voice connection(s)`);
    return dropped;
  }

  /** See {@link MediaRelay.setImpairment}. */
  setImpairment(settings: VoiceImpairment | null): void {
    this.#relay.setImpairment(settings);
  }

  /** See {@link MediaRelay.impairmentStats}. */
  impairmentStats(): ReturnType<MediaRelay['impairmentStats']> {
    return this.#relay.impairmentStats();
  }

  /** Datagrams that belong to no call. */
  relayTotals(): RelayCounters {
    return this.#relay.totals();
  }

  // ── sockets ──────────────────────────────────────────────────────────────────────────────────────────

  #onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => {
      // A client that resets during the handshake must not take the process down.
    });
    const url = new URL(req.url ?? '/', 'http://voice.invalid');
    const v = url.searchParams.get('v');
    const version = v !== null && /^[0-9]{1,3}$/.test(v) ? Number(v) : null;
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => {
        // ws reports protocol errors here and closes the socket itself.
      });
      if (version === null || version < VOICE_GATEWAY_VERSIONS.min || version > VOICE_GATEWAY_VERSIONS.max) {
        const reason =
          version === null
            ? 'bad request: voice gateway version required'
            : `bad request: voice gateway version ${version} not served (4–8)`;
        this.#d.log.line('voice', `connection refused: ${reason}`);
        ws.close(VoiceClose.BadRequest, reason);
        return;
      }
      this.#accept(ws);
    });
  }

  #accept(ws: WebSocket): void {
    const conn: Conn = { ws, id: randomHex(4), session: null, heartbeat: undefined, closing: false };
    this.#conns.add(conn);
    ws.on('message', (data, isBinary) => {
      if (conn.closing) return;
      try {
        if (isBinary) this.#onBinary(conn, toBuffer(data));
        else this.#onText(conn, toBuffer(data));
      } catch (error) {
        // A bug on one socket must not take the emulator down: close it and say why in the log.
        this.#d.log.line(
          'voice',
          `internal error on a voice socket: ${error instanceof Error ? error.message : 'error'}`,
        );
        this.#close(conn, 4000, 'internal error', true);
      }
    });
    ws.on('close', () => {
      this.#onSocketClosed(conn);
    });
    this.#send(ws, {
      op: VoiceOp.Hello,
      d: { heartbeat_interval: this.#d.settings.heartbeatIntervalMs, v: 8 },
    });
    this.#armHeartbeat(conn);
  }

  #send(ws: WebSocket, message: unknown): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  }

  #armHeartbeat(conn: Conn): void {
    this.#d.clock.clearTimeout(conn.heartbeat);
    const deadline = this.#d.settings.heartbeatIntervalMs * 1.5 + 1000;
    conn.heartbeat = this.#d.clock.setTimeout(() => {
      this.#close(conn, VoiceClose.SessionTimeout, 'session timeout: no heartbeat', true);
    }, deadline);
  }

  /** Closes a socket with a code; `endSession` ends its voice session too (else it stays resumable). */
  #close(conn: Conn, code: number, reason: string, endSession: boolean): void {
    if (conn.closing) return;
    conn.closing = true;
    this.#d.clock.clearTimeout(conn.heartbeat);
    const session = conn.session;
    if (code !== 1001) this.#d.log.line('voice', `voice socket closed with ${code}: ${reason}`);
    if (session && endSession) {
      conn.session = null;
      if (session.socket === conn.ws) session.socket = null;
      this.#endSession(session, null, true);
    }
    if (conn.ws.readyState === conn.ws.OPEN || conn.ws.readyState === conn.ws.CONNECTING) {
      conn.ws.close(code, reason);
    }
  }

  #onSocketClosed(conn: Conn): void {
    this.#conns.delete(conn);
    conn.closing = true;
    this.#d.clock.clearTimeout(conn.heartbeat);
    const session = conn.session;
    conn.session = null;
    if (!session || session.ended || session.socket !== conn.ws) return;
    session.socket = null;
    this.#d.clock.clearTimeout(session.expiry);
    session.expiry = this.#d.clock.setTimeout(() => {
      this.#d.log.line('voice', `voice session of user ${session.userId} was not resumed in time`);
      this.#endSession(session, null, true);
    }, this.#d.settings.resumeWindowMs);
    this.#d.log.line('voice', `voice socket of user ${session.userId} gone; resumable`);
  }

  #onText(conn: Conn, data: Buffer): void {
    let payload: unknown;
    try {
      payload = JSON.parse(data.toString('utf8'));
    } catch {
      this.#close(conn, VoiceClose.DecodeError, 'failed to decode payload: invalid JSON', true);
      return;
    }
    if (!isObject(payload) || typeof payload.op !== 'number' || !Number.isInteger(payload.op)) {
      this.#close(conn, VoiceClose.DecodeError, 'failed to decode payload: {op, d} expected', true);
      return;
    }
    const op = payload.op;
    if (BINARY_CLIENT_OPS.has(op)) {
      this.#close(conn, VoiceClose.DecodeError, `failed to decode payload: op ${op} is binary`, true);
      return;
    }
    if (!JSON_CLIENT_OPS.has(op) && !IGNORED_CLIENT_OPS.has(op)) {
      this.#close(conn, VoiceClose.UnknownOpcode, `unknown opcode ${op}`, true);
      return;
    }
    const d = payload.d;
    if (op === VoiceOp.Heartbeat) {
      this.#heartbeat(conn, d);
      return;
    }
    if (op === VoiceOp.Identify || op === VoiceOp.Resume) {
      if (conn.session) {
        this.#close(conn, VoiceClose.AlreadyAuthenticated, 'already authenticated', false);
        return;
      }
      if (op === VoiceOp.Identify) this.#identify(conn, d);
      else this.#resume(conn, d);
      return;
    }
    const session = conn.session;
    if (!session) {
      this.#close(conn, VoiceClose.NotAuthenticated, 'not authenticated', false);
      return;
    }
    switch (op) {
      case VoiceOp.SelectProtocol:
        this.#selectProtocol(conn, session, d);
        return;
      case VoiceOp.Speaking:
        this.#speaking(conn, session, d);
        return;
      case VoiceOp.DaveTransitionReady:
      case VoiceOp.DaveMlsInvalidCommitWelcome: {
        const tid = isObject(d) ? d.transition_id : undefined;
        if (!isU16(tid)) {
          this.#close(conn, VoiceClose.BadRequest, `bad request: op ${op} needs a transition_id`, true);
          return;
        }
        const dave = this.#daveOf(session, op);
        if (op === VoiceOp.DaveTransitionReady) dave?.onTransitionReady(session.userId, tid);
        else dave?.onInvalidCommitWelcome(session.userId, tid);
        return;
      }
      default:
        // IGNORED_CLIENT_OPS: accepted, nothing to do.
        return;
    }
  }

  #onBinary(conn: Conn, data: Buffer): void {
    const op = data[0];
    if (op === undefined) {
      this.#close(conn, VoiceClose.DecodeError, 'failed to decode payload: empty binary frame', true);
      return;
    }
    if (!BINARY_CLIENT_OPS.has(op)) {
      if (JSON_CLIENT_OPS.has(op) || IGNORED_CLIENT_OPS.has(op)) {
        this.#close(conn, VoiceClose.DecodeError, `failed to decode payload: op ${op} is JSON`, true);
      } else {
        this.#close(conn, VoiceClose.UnknownOpcode, `unknown opcode ${op}`, true);
      }
      return;
    }
    const session = conn.session;
    if (!session) {
      this.#close(conn, VoiceClose.NotAuthenticated, 'not authenticated', false);
      return;
    }
    const dave = this.#daveOf(session, op);
    if (!dave) return;
    const payload = new Uint8Array(data.subarray(1));
    if (op === VoiceOp.DaveMlsKeyPackage) dave.onKeyPackage(session.userId, payload);
    else dave.onCommitWelcome(session.userId, payload);
  }

  /** The coordinator a DAVE op of this session goes to, or undefined (logged) when DAVE is not on. */
  #daveOf(session: VoiceSession, op: number): DaveCoordinatorLike | undefined {
    const dave =
      session.daveProtocolVersion === DAVE_PROTOCOL_VERSION ? this.#calls.get(session.lobbyId)?.dave : null;
    if (!dave) this.#d.log.line('voice', `op ${op} from user ${session.userId} ignored: DAVE is not on`);
    return dave ?? undefined;
  }

  #heartbeat(conn: Conn, d: unknown): void {
    this.#armHeartbeat(conn);
    // v8: {t, seq_ack}; older: the bare nonce.
    const t = isObject(d) ? d.t : d;
    this.#send(conn.ws, { op: VoiceOp.HeartbeatAck, d: { t } });
  }

  // ── Identify, Resume, Select Protocol, Speaking ──────────────────────────────────────────────────────

  #identify(conn: Conn, d: unknown): void {
    if (
      !isObject(d) ||
      typeof d.server_id !== 'string' ||
      typeof d.user_id !== 'string' ||
      typeof d.session_id !== 'string' ||
      typeof d.token !== 'string'
    ) {
      this.#close(
        conn,
        VoiceClose.BadRequest,
        'bad request: Identify needs server_id, user_id, session_id and token',
        false,
      );
      return;
    }
    const call = this.#d.calls.get(d.server_id);
    if (!call) {
      this.#close(conn, VoiceClose.ServerNotFound, 'server not found', false);
      return;
    }
    const participant = call.participants.get(d.user_id);
    if (!participant || !safeEqual(d.token, participant.token)) {
      this.#close(conn, VoiceClose.AuthenticationFailed, 'authentication failed', false);
      return;
    }
    if (participant.sessionId !== d.session_id) {
      this.#close(conn, VoiceClose.SessionInvalid, 'session no longer valid', false);
      return;
    }
    const max = d.max_dave_protocol_version ?? 0;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) {
      this.#close(
        conn,
        VoiceClose.BadRequest,
        'bad request: max_dave_protocol_version must be an integer ≥ 0',
        false,
      );
      return;
    }
    if (max < DAVE_PROTOCOL_VERSION && !this.#d.settings.allowNonDave) {
      this.#close(conn, VoiceClose.DaveRequired, 'E2EE/DAVE protocol required', false);
      return;
    }
    let state = this.#calls.get(call.lobbyId);
    if (!state) {
      state = new CallState(call.lobbyId);
      this.#calls.set(call.lobbyId, state);
    }
    const previous = state.sessions.get(participant.userId);
    if (previous) {
      this.#endSession(
        previous,
        { code: VoiceClose.SessionInvalid, reason: 'identified again on another connection' },
        true,
      );
      // #endSession may have dropped the call state with its last session.
      state = this.#calls.get(call.lobbyId) ?? state;
      this.#calls.set(call.lobbyId, state);
    }
    const relay: RelayMember = {
      ssrc: this.#newSsrc(),
      userId: participant.userId,
      callId: call.lobbyId,
      cryptor: null,
      address: null,
      discovered: false,
      packetsFromClient: 0,
      packetsToClient: 0,
    };
    const session = new VoiceSession({
      lobbyId: call.lobbyId,
      userId: participant.userId,
      gatewaySessionId: participant.sessionId,
      relay,
      maxDaveProtocolVersion: max,
    });
    session.socket = conn.ws;
    conn.session = session;
    state.sessions.set(session.userId, session);
    this.#relay.add(relay);
    session.sendPlain(VoiceOp.Ready, {
      ssrc: relay.ssrc,
      ip: VoiceServer.#reachable(VoiceServer.#ipv4(this.#d.settings.host)),
      port: this.#udpPort,
      modes: [...TRANSPORT_ENCRYPTION_MODES],
      heartbeat_interval: this.#d.settings.heartbeatIntervalMs,
      experiments: [],
    });
    this.#d.log.line(
      'voice',
      `user ${session.userId} identified in the call of lobby ${call.lobbyId} (ssrc ${relay.ssrc})`,
    );
  }

  #newSsrc(): number {
    for (;;) {
      const ssrc = randomInt(1, 0xffffffff);
      if (!this.#relay.hasSsrc(ssrc)) return ssrc;
    }
  }

  #resume(conn: Conn, d: unknown): void {
    if (
      !isObject(d) ||
      typeof d.server_id !== 'string' ||
      typeof d.session_id !== 'string' ||
      typeof d.token !== 'string'
    ) {
      this.#close(
        conn,
        VoiceClose.BadRequest,
        'bad request: Resume needs server_id, session_id and token',
        false,
      );
      return;
    }
    const seqAck = d.seq_ack ?? -1;
    if (typeof seqAck !== 'number' || !Number.isInteger(seqAck) || seqAck < -1 || seqAck > 0xffff) {
      this.#close(conn, VoiceClose.BadRequest, 'bad request: seq_ack must be -1 or a u16', false);
      return;
    }
    const call = this.#d.calls.get(d.server_id);
    const state = this.#calls.get(d.server_id);
    if (!call) {
      this.#close(conn, VoiceClose.ServerNotFound, 'server not found', false);
      return;
    }
    const sessionId = d.session_id;
    const session = [...(state?.sessions.values() ?? [])].find((s) => s.gatewaySessionId === sessionId);
    const participant = session ? call.participants.get(session.userId) : undefined;
    if (!session || !participant) {
      this.#close(conn, VoiceClose.SessionInvalid, 'session no longer valid', false);
      return;
    }
    if (!safeEqual(d.token, participant.token)) {
      this.#close(conn, VoiceClose.AuthenticationFailed, 'authentication failed', false);
      return;
    }
    const replay = session.replayAfter(seqAck);
    if (replay === null) {
      this.#d.log.line(
        'voice',
        `user ${session.userId} could not resume: messages after seq ${seqAck} are gone`,
      );
      this.#endSession(session, { code: VoiceClose.SessionInvalid, reason: 'session no longer valid' }, true);
      this.#close(conn, VoiceClose.SessionInvalid, 'session no longer valid: cannot replay', false);
      return;
    }
    const old = session.socket;
    if (old && old !== conn.ws) {
      for (const other of this.#conns) {
        if (other.ws === old) {
          other.session = null;
          this.#close(other, VoiceClose.SessionInvalid, 'resumed on another connection', false);
        }
      }
    }
    this.#d.clock.clearTimeout(session.expiry);
    session.expiry = undefined;
    session.socket = conn.ws;
    conn.session = session;
    session.sendPlain(VoiceOp.Resumed, null);
    for (const frame of replay) session.sendRaw(frame);
    this.#d.log.line('voice', `user ${session.userId} resumed (${replay.length} replayed)`);
  }

  #selectProtocol(conn: Conn, session: VoiceSession, d: unknown): void {
    if (!isObject(d) || !isObject(d.data)) {
      this.#close(conn, VoiceClose.BadRequest, 'bad request: Select Protocol needs {protocol, data}', true);
      return;
    }
    if (d.protocol !== 'udp') {
      this.#close(conn, VoiceClose.UnknownProtocol, 'unknown protocol', true);
      return;
    }
    const { address, port, mode } = d.data;
    if (typeof address !== 'string' || !isU16(port)) {
      this.#close(conn, VoiceClose.BadRequest, 'bad request: data needs address and port', true);
      return;
    }
    if (!isTransportEncryptionMode(mode)) {
      this.#close(conn, VoiceClose.UnknownEncryptionMode, 'unknown encryption mode', true);
      return;
    }
    if (session.mode !== null) {
      this.#close(conn, VoiceClose.BadRequest, 'bad request: protocol already selected', true);
      return;
    }
    const state = this.#calls.get(session.lobbyId);
    if (!state) return;
    const key = randomBytes(32);
    session.relay.cryptor = this.#d.engine.createTransportCryptor(mode, key);
    if (!session.relay.discovered) session.relay.address = { address, port };
    session.mode = mode;
    const version = this.#daveVersionFor(state, session);
    session.daveProtocolVersion = version;
    session.sendPlain(VoiceOp.SessionDescription, {
      mode,
      secret_key: [...key],
      dave_protocol_version: version,
      audio_codec: 'opus',
      media_session_id: randomHex(16),
    });
    key.fill(0);
    // The SSRC map: who is here, and what they are saying; and the newcomer for them.
    const others = state.described(session);
    session.sendJson(VoiceOp.ClientsConnect, { user_ids: others.map((s) => s.userId) });
    for (const other of others) {
      session.sendJson(VoiceOp.Speaking, {
        speaking: other.speaking,
        ssrc: other.relay.ssrc,
        user_id: other.userId,
      });
    }
    for (const other of others) {
      other.sendJson(VoiceOp.ClientsConnect, { user_ids: [session.userId] });
      other.sendJson(VoiceOp.Speaking, {
        speaking: session.speaking,
        ssrc: session.relay.ssrc,
        user_id: session.userId,
      });
    }
    this.#d.log.line('voice', `user ${session.userId} selected ${mode} (DAVE v${version})`);
    if (version === DAVE_PROTOCOL_VERSION) state.dave?.memberJoined(session.userId);
  }

  /** The DAVE version for a session's op 4; a client without DAVE (allowed by the option) downgrades the call. */
  #daveVersionFor(state: CallState, session: VoiceSession): number {
    if (!this.#d.daveFactory) {
      if (!this.#noDaveLogged) {
        this.#noDaveLogged = true;
        this.#d.log.line('voice', 'no DAVE coordinator: calls run DAVE version 0');
      }
      state.daveVersion = 0;
      return 0;
    }
    if (session.maxDaveProtocolVersion < DAVE_PROTOCOL_VERSION) {
      if (state.daveVersion !== 0) this.#downgrade(state);
      return 0;
    }
    if (state.daveVersion === 0) return 0;
    state.daveVersion = DAVE_PROTOCOL_VERSION;
    if (!state.dave) {
      const dave = this.#d.daveFactory({
        channelId: state.lobbyId,
        log: (line) => {
          this.#d.log.line('dave', line);
        },
      });
      dave.on('send', (to, op, body) => {
        for (const userId of to) {
          const target = state.sessions.get(userId);
          if (!target || target.ended) continue;
          if ('json' in body) target.sendJson(op, body.json);
          else target.sendBinary(op, body.binary);
        }
      });
      state.dave = dave;
    }
    return DAVE_PROTOCOL_VERSION;
  }

  /** Moves a call to DAVE version 0 for good (until it empties): op 21 with transition 0 to DAVE members. */
  #downgrade(state: CallState): void {
    const wasDave = state.daveVersion === DAVE_PROTOCOL_VERSION;
    state.daveVersion = 0;
    state.dave?.close();
    state.dave = null;
    if (!wasDave) return;
    for (const member of state.described()) {
      if (member.daveProtocolVersion !== DAVE_PROTOCOL_VERSION) continue;
      member.daveProtocolVersion = 0;
      member.sendJson(VoiceOp.DavePrepareTransition, { protocol_version: 0, transition_id: 0 });
    }
    this.#d.log.line('voice', `call of lobby ${state.lobbyId} downgraded to DAVE version 0 (allowNonDave)`);
  }

  #speaking(conn: Conn, session: VoiceSession, d: unknown): void {
    const speaking = isObject(d) ? d.speaking : undefined;
    if (typeof speaking !== 'number' || !Number.isInteger(speaking) || speaking < 0 || speaking > 0xff) {
      this.#close(conn, VoiceClose.BadRequest, 'bad request: Speaking needs speaking flags', true);
      return;
    }
    session.speaking = speaking;
    for (const other of this.#calls.get(session.lobbyId)?.described(session) ?? []) {
      other.sendJson(VoiceOp.Speaking, { speaking, ssrc: session.relay.ssrc, user_id: session.userId });
    }
  }

  // ── ending ───────────────────────────────────────────────────────────────────────────────────────────

  #participantLeft(call: VoiceCall, participant: CallParticipant, reason: LeaveReason): void {
    const session = this.#calls.get(call.lobbyId)?.sessions.get(participant.userId);
    if (!session || session.gatewaySessionId !== participant.sessionId) return;
    const close =
      reason === 'ended'
        ? { code: VoiceClose.CallTerminated, reason: 'call terminated' }
        : {
            code: VoiceClose.Disconnected,
            reason: reason === 'kicked' ? 'disconnected: kicked' : 'disconnected',
          };
    this.#endSession(session, close, true);
  }

  /**
   * Ends a voice session: its socket is closed with `close` (when given), it leaves the forwarding unit,
   * the others get op 13 (`announce`) and the DAVE coordinator forgets it. The call's state goes with its
   * last session.
   */
  #endSession(
    session: VoiceSession,
    close: { code: number; reason: string } | null,
    announce: boolean,
  ): void {
    if (session.ended) return;
    session.ended = true;
    this.#d.clock.clearTimeout(session.expiry);
    const ws = session.socket;
    session.socket = null;
    if (ws && close) {
      for (const conn of this.#conns) {
        if (conn.ws === ws) {
          conn.session = null;
          this.#close(conn, close.code, close.reason, false);
        }
      }
    }
    this.#relay.remove(session.relay);
    session.relay.cryptor = null;
    const state = this.#calls.get(session.lobbyId);
    if (!state) return;
    if (state.sessions.get(session.userId) === session) state.sessions.delete(session.userId);
    if (announce && session.described) {
      for (const other of state.described())
        other.sendJson(VoiceOp.ClientDisconnect, { user_id: session.userId });
    }
    if (session.daveProtocolVersion === DAVE_PROTOCOL_VERSION) state.dave?.memberLeft(session.userId);
    if (state.sessions.size === 0) {
      // The call starts afresh with its next connection: a new DAVE group, the version decided again.
      state.dave?.close();
      state.dave = null;
      state.daveVersion = null;
      this.#calls.delete(state.lobbyId);
    }
    this.#d.log.line('voice', `voice session of user ${session.userId} in lobby ${session.lobbyId} ended`);
  }
}

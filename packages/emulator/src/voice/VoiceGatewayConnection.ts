import { randomBytes, randomInt } from 'node:crypto';

import type { WebSocket } from 'ws';

import { TRANSPORT_ENCRYPTION_MODES } from 'sdkpp/media';
import { DAVE_PROTOCOL_VERSION } from '@sdkpp/protocol/dave';
import { VoiceClose } from '@sdkpp/protocol';
import type { TimerHandle } from '@sdkpp/protocol';
import { randomHex, safeEqual } from '../random.js';
import { ServerCallState, daveVersionFor, type DaveWiring } from './ServerCallState.js';
import type { DaveCoordinatorLike } from './daveBridge.js';
import { decodeBinaryOp, decodeText, isObject, isU16, toBuffer } from './frames.js';
import type { MediaRelay, RelayMember } from './MediaRelay.js';
import { VoiceOp } from './opcodes.js';
import {
  parseIdentify,
  parseMaxDaveVersion,
  parseResume,
  parseSelectProtocol,
  parseSpeaking,
} from './requests.js';
import type { VoiceServerDeps } from './serverDeps.js';
import { VoiceSession } from './VoiceSession.js';

/** What a connection needs from the voice server that accepted it. */
export interface VoiceGatewayConnectionHost {
  /** The server's dependencies. */
  readonly deps: VoiceServerDeps;
  /** The forwarding unit. */
  readonly relay: MediaRelay;
  /** The per-call state, by lobby id (a connection adds a call's state at its first Identify). */
  readonly calls: Map<string, ServerCallState>;
  /** The open connections. */
  readonly connections: ReadonlySet<VoiceGatewayConnection>;
  /** How the calls' DAVE version is decided. */
  readonly dave: DaveWiring;
  /** Ready's `ip` and `port`: where clients reach the forwarding unit. */
  readyAddress(): { ip: string; port: number };
  /** Forgets a connection whose socket closed. */
  forget(conn: VoiceGatewayConnection): void;
  /** Ends a voice session (see the server's `endSession`). */
  endSession(session: VoiceSession, close: { code: number; reason: string } | null, announce: boolean): void;
}

/**
 * One voice gateway socket's protocol state machine: Hello and the heartbeat deadline, then Identify or
 * Resume, Select Protocol, Speaking and the DAVE ops, each checked and refused with its close code. The
 * voice session it drives outlives the socket (see {@link VoiceSession}).
 */
export class VoiceGatewayConnection {
  /** The socket. */
  readonly ws: WebSocket;
  /** A short id for this socket. */
  readonly id = randomHex(4);
  /** The voice session identified or resumed on this socket, or null. */
  session: VoiceSession | null = null;
  /** Set once the socket is closing: later messages are dropped. */
  closing = false;
  readonly #host: VoiceGatewayConnectionHost;
  #heartbeat: TimerHandle | undefined;
  #identifyDeadline: TimerHandle | undefined;

  /**
   * @param ws - The accepted socket.
   * @param host - The server that accepted it.
   */
  constructor(ws: WebSocket, host: VoiceGatewayConnectionHost) {
    this.ws = ws;
    this.#host = host;
  }

  /** Listens to the socket, sends Hello and starts the heartbeat deadline. */
  start(): void {
    const { ws } = this;
    ws.on('message', (data, isBinary) => {
      if (this.closing) return;
      try {
        if (isBinary) this.#onBinary(toBuffer(data));
        else this.#onText(toBuffer(data));
      } catch (error) {
        // A bug on one socket must not take the emulator down: close it and say why in the log.
        this.#host.deps.log.line(
          'voice',
          `internal error on a voice socket: ${error instanceof Error ? error.message : 'error'}`,
        );
        this.close(4000, 'internal error', true);
      }
    });
    ws.on('close', () => {
      this.socketClosed();
    });
    this.#sendPlain({
      op: VoiceOp.Hello,
      d: { heartbeat_interval: this.#host.deps.settings.heartbeatIntervalMs, v: 8 },
    });
    this.#armHeartbeat();
    // Heartbeats alone do not keep a socket that never identifies (or resumes).
    const { clock, settings, log } = this.#host.deps;
    this.#identifyDeadline = clock.setTimeout(() => {
      if (this.session || this.closing) return;
      log.line('voice', `voice socket closed: no Identify within ${settings.identifyTimeoutMs} ms`);
      this.close(VoiceClose.NotAuthenticated, 'not authenticated: no identify in time', false);
    }, settings.identifyTimeoutMs);
  }

  /** Closes the socket with a code; `endSession` ends its voice session too (else it stays resumable). */
  close(code: number, reason: string, endSession: boolean): void {
    if (this.closing) return;
    this.closing = true;
    const { log, clock } = this.#host.deps;
    clock.clearTimeout(this.#heartbeat);
    clock.clearTimeout(this.#identifyDeadline);
    const session = this.session;
    if (code !== 1001) log.line('voice', `voice socket closed with ${code}: ${reason}`);
    if (session && endSession) {
      this.session = null;
      if (session.socket === this.ws) session.socket = null;
      this.#host.endSession(session, null, true);
    }
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) {
      this.ws.close(code, reason);
    }
  }

  /** The socket is gone: its voice session, if any, stays resumable for the resume window. */
  socketClosed(): void {
    const { log, clock, settings } = this.#host.deps;
    this.#host.forget(this);
    this.closing = true;
    clock.clearTimeout(this.#heartbeat);
    clock.clearTimeout(this.#identifyDeadline);
    const session = this.session;
    this.session = null;
    if (!session || session.ended || session.socket !== this.ws) return;
    session.socket = null;
    clock.clearTimeout(session.expiry);
    session.expiry = clock.setTimeout(() => {
      log.line('voice', `voice session of user ${session.userId} was not resumed in time`);
      this.#host.endSession(session, null, true);
    }, settings.resumeWindowMs);
    log.line('voice', `voice socket of user ${session.userId} gone; resumable`);
  }

  #sendPlain(message: unknown): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(message));
  }

  #armHeartbeat(): void {
    const { clock, settings } = this.#host.deps;
    clock.clearTimeout(this.#heartbeat);
    const deadline = settings.heartbeatIntervalMs * 1.5 + 1000;
    this.#heartbeat = clock.setTimeout(() => {
      this.close(VoiceClose.SessionTimeout, 'session timeout: no heartbeat', true);
    }, deadline);
  }

  #onText(data: Buffer): void {
    const decoded = decodeText(data);
    if ('code' in decoded) {
      this.close(decoded.code, decoded.reason, true);
      return;
    }
    const { op, d } = decoded;
    if (op === VoiceOp.Heartbeat) {
      this.#onHeartbeat(d);
      return;
    }
    if (op === VoiceOp.Identify || op === VoiceOp.Resume) {
      if (this.session) {
        this.close(VoiceClose.AlreadyAuthenticated, 'already authenticated', false);
        return;
      }
      if (op === VoiceOp.Identify) this.#identify(d);
      else this.#resume(d);
      return;
    }
    const session = this.session;
    if (!session) {
      this.close(VoiceClose.NotAuthenticated, 'not authenticated', false);
      return;
    }
    switch (op) {
      case VoiceOp.SelectProtocol:
        this.#selectProtocol(session, d);
        return;
      case VoiceOp.Speaking:
        this.#speaking(session, d);
        return;
      case VoiceOp.DaveTransitionReady:
      case VoiceOp.DaveMlsInvalidCommitWelcome: {
        const tid = isObject(d) ? d.transition_id : undefined;
        if (!isU16(tid)) {
          this.close(VoiceClose.BadRequest, `bad request: op ${op} needs a transition_id`, true);
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

  #onBinary(data: Buffer): void {
    const decoded = decodeBinaryOp(data);
    if ('code' in decoded) {
      this.close(decoded.code, decoded.reason, true);
      return;
    }
    const { op } = decoded;
    const session = this.session;
    if (!session) {
      this.close(VoiceClose.NotAuthenticated, 'not authenticated', false);
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
      session.daveProtocolVersion === DAVE_PROTOCOL_VERSION
        ? this.#host.calls.get(session.channelId)?.dave
        : null;
    if (!dave)
      this.#host.deps.log.line('voice', `op ${op} from user ${session.userId} ignored: DAVE is not on`);
    return dave ?? undefined;
  }

  #onHeartbeat(d: unknown): void {
    this.#armHeartbeat();
    // v8: {t, seq_ack}; older: the bare nonce.
    const t = isObject(d) ? d.t : d;
    this.#sendPlain({ op: VoiceOp.HeartbeatAck, d: { t } });
  }

  #identify(d: unknown): void {
    const { calls, log, settings } = this.#host.deps;
    const request = parseIdentify(d);
    if ('code' in request) {
      this.close(request.code, request.reason, false);
      return;
    }
    const call = calls.forServer(request.serverId, request.userId);
    if (!call) {
      this.close(VoiceClose.ServerNotFound, 'server not found', false);
      return;
    }
    const participant = call.participants.get(request.userId);
    if (!participant || !safeEqual(request.token, participant.token)) {
      this.close(VoiceClose.AuthenticationFailed, 'authentication failed', false);
      return;
    }
    if (participant.sessionId !== request.sessionId) {
      this.close(VoiceClose.SessionInvalid, 'session no longer valid', false);
      return;
    }
    const parsedMax = parseMaxDaveVersion(request.maxDaveProtocolVersion);
    if ('code' in parsedMax) {
      this.close(parsedMax.code, parsedMax.reason, false);
      return;
    }
    const { max } = parsedMax;
    if (max < DAVE_PROTOCOL_VERSION && !settings.allowNonDave) {
      this.close(VoiceClose.DaveRequired, 'E2EE/DAVE protocol required', false);
      return;
    }
    const states = this.#host.calls;
    let state = states.get(call.channelId);
    if (!state) {
      state = new ServerCallState(call.channelId);
      states.set(call.channelId, state);
    }
    const previous = state.sessions.get(participant.userId);
    if (previous) {
      this.#host.endSession(
        previous,
        { code: VoiceClose.SessionInvalid, reason: 'identified again on another connection' },
        true,
      );
      // endSession may have dropped the call state with its last session.
      state = states.get(call.channelId) ?? state;
      states.set(call.channelId, state);
    }
    const relay: RelayMember = {
      ssrc: this.#newSsrc(),
      userId: participant.userId,
      callId: call.channelId,
      cryptor: null,
      address: null,
      discovered: false,
      blocked: false,
      silenced: participant.rules.silenced,
      deafened: participant.rules.deafened,
      packetsFromClient: 0,
      packetsToClient: 0,
    };
    const session = new VoiceSession({
      channelId: call.channelId,
      userId: participant.userId,
      gatewaySessionId: participant.sessionId,
      relay,
      maxDaveProtocolVersion: max,
    });
    session.socket = this.ws;
    this.session = session;
    state.sessions.set(session.userId, session);
    this.#host.relay.add(relay);
    const { ip, port } = this.#host.readyAddress();
    session.sendPlain(VoiceOp.Ready, {
      ssrc: relay.ssrc,
      ip,
      port,
      modes: [...TRANSPORT_ENCRYPTION_MODES],
      heartbeat_interval: settings.heartbeatIntervalMs,
      experiments: [],
    });
    log.line('voice', `user ${session.userId} identified in the call of ${call.label} (ssrc ${relay.ssrc})`);
  }

  #newSsrc(): number {
    for (;;) {
      const ssrc = randomInt(1, 0xffffffff);
      if (!this.#host.relay.hasSsrc(ssrc)) return ssrc;
    }
  }

  #resume(d: unknown): void {
    const { calls, log, clock } = this.#host.deps;
    const request = parseResume(d);
    if ('code' in request) {
      this.close(request.code, request.reason, false);
      return;
    }
    const { seqAck } = request;
    const call = calls.forServerSession(request.serverId, request.sessionId);
    const state = call ? this.#host.calls.get(call.channelId) : undefined;
    if (!call) {
      this.close(VoiceClose.ServerNotFound, 'server not found', false);
      return;
    }
    const sessionId = request.sessionId;
    const session = [...(state?.sessions.values() ?? [])].find((s) => s.gatewaySessionId === sessionId);
    const participant = session ? call.participants.get(session.userId) : undefined;
    if (!session || !participant) {
      this.close(VoiceClose.SessionInvalid, 'session no longer valid', false);
      return;
    }
    if (!safeEqual(request.token, participant.token)) {
      this.close(VoiceClose.AuthenticationFailed, 'authentication failed', false);
      return;
    }
    const replay = session.replayAfter(seqAck);
    if (replay === null) {
      log.line('voice', `user ${session.userId} could not resume: messages after seq ${seqAck} are gone`);
      this.#host.endSession(
        session,
        { code: VoiceClose.SessionInvalid, reason: 'session no longer valid' },
        true,
      );
      this.close(VoiceClose.SessionInvalid, 'session no longer valid: cannot replay', false);
      return;
    }
    const old = session.socket;
    if (old && old !== this.ws) {
      for (const other of this.#host.connections) {
        if (other.ws === old) {
          other.session = null;
          other.close(VoiceClose.SessionInvalid, 'resumed on another connection', false);
        }
      }
    }
    clock.clearTimeout(session.expiry);
    session.expiry = undefined;
    session.socket = this.ws;
    this.session = session;
    session.sendPlain(VoiceOp.Resumed, null);
    for (const frame of replay) session.sendRaw(frame);
    log.line('voice', `user ${session.userId} resumed (${replay.length} replayed)`);
  }

  #selectProtocol(session: VoiceSession, d: unknown): void {
    const request = parseSelectProtocol(d);
    if ('code' in request) {
      this.close(request.code, request.reason, true);
      return;
    }
    const { address, port, mode } = request;
    if (session.mode !== null) {
      this.close(VoiceClose.BadRequest, 'bad request: protocol already selected', true);
      return;
    }
    const state = this.#host.calls.get(session.channelId);
    if (!state) return;
    const key = randomBytes(32);
    session.relay.cryptor = this.#host.deps.engine.createTransportCryptor(mode, key);
    if (!session.relay.discovered) session.relay.address = { address, port };
    session.mode = mode;
    const version = daveVersionFor(state, session, this.#host.dave);
    session.daveProtocolVersion = version;
    session.sendPlain(VoiceOp.SessionDescription, {
      mode,
      secret_key: [...key],
      dave_protocol_version: version,
      audio_codec: 'opus',
      media_session_id: randomHex(16),
    });
    key.fill(0);
    state.introduce(session);
    this.#host.deps.log.line('voice', `user ${session.userId} selected ${mode} (DAVE v${version})`);
    if (version === DAVE_PROTOCOL_VERSION) state.dave?.memberJoined(session.userId);
  }

  #speaking(session: VoiceSession, d: unknown): void {
    const request = parseSpeaking(d);
    if ('code' in request) {
      this.close(request.code, request.reason, true);
      return;
    }
    const { speaking } = request;
    const before = session.speaking;
    session.speaking = speaking;
    // Started or stopped: the client's SPEAKING_START / SPEAKING_STOP (a change of flags alone is neither).
    if ((before === 0) !== (speaking === 0))
      this.#host.deps.calls.speaking(session.channelId, session.userId, speaking);
    for (const other of this.#host.calls.get(session.channelId)?.described(session) ?? []) {
      other.sendJson(VoiceOp.Speaking, { speaking, ssrc: session.relay.ssrc, user_id: session.userId });
    }
  }
}

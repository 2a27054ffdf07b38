import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';

import { WebSocketServer, type ServerOptions, type WebSocket } from 'ws';

import { DAVE_PROTOCOL_VERSION } from '@sdkpp/protocol/dave';
import { VoiceClose } from '@sdkpp/protocol';
import { tlsOrPlain } from '../tls/tlsOrPlain.js';
import type { EmulatorVoiceCall } from '../types.js';
import type { VoiceImpairment } from './impairment.js';
import type { ServerCallState } from './ServerCallState.js';
import { MediaRelay, type RelayCounters } from './MediaRelay.js';
import { VOICE_GATEWAY_VERSIONS, VoiceOp } from './opcodes.js';
import type { VoiceServerDeps } from './serverDeps.js';
import type { CallParticipant, LeaveReason, VoiceCall } from './VoiceCalls.js';
import { VoiceGatewayConnection, type VoiceGatewayConnectionHost } from './VoiceGatewayConnection.js';
import type { VoiceSession } from './VoiceSession.js';

/** ws buffers at most this much of one message (a DAVE commit with welcomes for 25 fits easily). */
const WS_MAX_PAYLOAD = 1024 * 1024;

/**
 * The voice gateway v8 (its own HTTP port, any path, `?v=4`…`8`) and the UDP forwarding unit. Identify is
 * checked against the lobby calls the main gateway made ({@link VoiceCalls}); each connection gets an
 * SSRC, a fresh 32-byte key for the mode it selects, and the SSRC map of the others (op 11 + op 5). DAVE
 * ops go through the call's coordinator. Sessions survive a lost socket for the resume window, with their
 * sequenced messages buffered for replay. Each socket's protocol runs in its {@link VoiceGatewayConnection}; the
 * server owns what outlives a socket: the listeners, the calls' state and the ending of sessions.
 */
export class VoiceServer {
  readonly #d: VoiceServerDeps;
  readonly #http: Server;
  readonly #wss: WebSocketServer;
  readonly #relay: MediaRelay;
  readonly #calls = new Map<string, ServerCallState>();
  readonly #conns = new Set<VoiceGatewayConnection>();
  readonly #host: VoiceGatewayConnectionHost;
  #endpoint = '';
  /** The TCP listener: plain and TLS connections on one port, both handed to #http. */
  #listener: NetServer | undefined;
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
    deps.calls.on('changed', (call, participant) => {
      const session = this.#calls.get(call.channelId)?.sessions.get(participant.userId);
      if (!session || session.ended) return;
      session.relay.silenced = participant.rules.silenced;
      session.relay.deafened = participant.rules.deafened;
    });
    this.#host = {
      deps,
      relay: this.#relay,
      calls: this.#calls,
      connections: this.#conns,
      dave: {
        daveFactory: deps.daveFactory,
        log: deps.log,
        noFactory: () => {
          if (this.#noDaveLogged) return;
          this.#noDaveLogged = true;
          deps.log.line('voice', 'no DAVE coordinator: calls run DAVE version 0');
        },
      },
      readyAddress: () => ({
        ip: VoiceServer.#reachable(VoiceServer.#ipv4(deps.settings.host)),
        port: this.#udpPort,
      }),
      forget: (conn) => {
        this.#conns.delete(conn);
      },
      endSession: (session, close, announce) => {
        this.#endSession(session, close, announce);
      },
    };
  }

  /** Starts listening (TCP and UDP); resolves once both are bound. */
  static async start(deps: VoiceServerDeps): Promise<VoiceServer> {
    const server = new VoiceServer(deps);
    const { port, udpPort } = deps.settings;
    const host = VoiceServer.#ipv4(deps.settings.host);
    const listener = tlsOrPlain(server.#http, deps.tls ?? null, {
      firstByteMs: deps.settings.identifyTimeoutMs,
      onRefused: (why) => {
        deps.log.line('voice', `connection closed: ${why}`);
      },
    });
    server.#listener = listener;
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, host, () => {
        listener.off('error', reject);
        resolve();
      });
    });
    server.#http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      server.#onUpgrade(req, socket, head);
    });
    try {
      server.#udpPort = await server.#relay.bind(host, udpPort);
    } catch (error) {
      listener.close();
      throw error;
    }
    const address = listener.address() as AddressInfo;
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
        this.#listener?.close();
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
      const state = this.#calls.get(call.channelId);
      return {
        lobbyId: call.guildId === null ? call.channelId : null,
        channelId: call.channelId,
        guildId: call.guildId,
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
        counters: this.#relay.callCounters(call.channelId),
      };
    });
  }

  /** Destroys voice sockets without a close frame (their sessions stay resumable); returns how many. */
  dropConnections(userId?: string, channelId?: string): number {
    let dropped = 0;
    for (const call of this.#calls.values()) {
      if (channelId !== undefined && call.channelId !== channelId) continue;
      for (const session of call.sessions.values()) {
        if (userId !== undefined && session.userId !== userId) continue;
        const ws = session.socket;
        if (!ws) continue;
        ws.terminate();
        // Known at once, as a network failure would be: calls() shows it when this returns.
        for (const conn of this.#conns) if (conn.ws === ws) conn.socketClosed();
        dropped += 1;
      }
    }
    if (dropped > 0) this.#d.log.line('voice', `dropped ${dropped} voice connection(s)`);
    return dropped;
  }

  /** Blocks or unblocks forwarding to a user's current voice sessions; returns how many changed. */
  blockForwarding(userId: string, blocked: boolean, channelId?: string): number {
    let changed = 0;
    for (const call of this.#calls.values()) {
      if (channelId !== undefined && call.channelId !== channelId) continue;
      const session = call.sessions.get(userId);
      if (!session || session.ended) continue;
      session.relay.blocked = blocked;
      changed += 1;
    }
    if (changed > 0) {
      this.#d.log.line('voice', `forwarding to ${userId} ${blocked ? 'blocked' : 'unblocked'} (${changed})`);
    }
    return changed;
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
    const conn = new VoiceGatewayConnection(ws, this.#host);
    this.#conns.add(conn);
    conn.start();
  }

  // ── ending ───────────────────────────────────────────────────────────────────────────────────────────

  #participantLeft(call: VoiceCall, participant: CallParticipant, reason: LeaveReason): void {
    const session = this.#calls.get(call.channelId)?.sessions.get(participant.userId);
    if (!session || session.gatewaySessionId !== participant.sessionId) return;
    const close =
      reason === 'ended'
        ? { code: VoiceClose.CallTerminated, reason: 'call terminated' }
        : {
            code: VoiceClose.Disconnected,
            reason:
              reason === 'kicked'
                ? 'disconnected: kicked'
                : reason === 'moved'
                  ? 'disconnected: moved'
                  : 'disconnected',
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
          conn.close(close.code, close.reason, false);
        }
      }
    }
    this.#relay.remove(session.relay);
    session.relay.cryptor = null;
    const state = this.#calls.get(session.channelId);
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
      this.#calls.delete(state.channelId);
    }
    this.#d.log.line('voice', `voice session of user ${session.userId} in ${session.channelId} ended`);
  }
}

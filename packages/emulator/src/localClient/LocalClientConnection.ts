import type { Socket } from 'node:net';

import { RpcFrameDecoder, RpcFrameError, RpcOpcode, encodeRpcFrame, type RpcFrame } from '@sdkpp/protocol';
import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import type { UserRecord } from '../store/types.js';
import { runCommand, type CommandScope } from './commands.js';

/**
 * What a connection asks of its server: recording commands and what it opened for the admin API, and the
 * player's consent.
 */
export type ConnectionHooks = Pick<CommandScope, 'record' | 'consent' | 'opened'>;
import { commandReply, dispatchBody, errorReply, readCommand, readyData, RpcCloseCode } from './protocol.js';

/** How long a closed connection may linger before its socket is destroyed. */
const CLOSE_GRACE_MS = 1_000;

/**
 * One game connected to the emulated desktop client: the handshake, then commands and subscriptions. Any
 * protocol violation is answered with a CLOSE frame and a log line, and ends only this connection.
 */
export class LocalClientConnection {
  readonly id: string;
  readonly subscriptions = new Set<string>();
  /** The guilds this game watches through GUILD_STATUS. */
  readonly guildStatus = new Set<string>();
  /** The game said it shows chat (SET_SHOWING_CHAT): its user's DMs are not notified while it does. */
  showingChat = false;
  readonly #socket: Socket;
  readonly #ctx: EmulatorContext;
  readonly #user: UserRecord;
  readonly #decoder = new RpcFrameDecoder();
  readonly #hooks: ConnectionHooks;
  #handshaken = false;
  #closing = false;
  readonly #handshakeTimer: NodeJS.Timeout;

  constructor(id: string, socket: Socket, ctx: EmulatorContext, user: UserRecord, hooks: ConnectionHooks) {
    this.id = id;
    this.#socket = socket;
    this.#ctx = ctx;
    this.#user = user;
    this.#hooks = hooks;
    socket.on('data', (chunk: Buffer) => {
      this.#onData(chunk);
    });
    socket.on('error', (error) => {
      ctx.log.line('rpc', `connection ${id}: socket error (${error.message})`);
    });
    this.#handshakeTimer = setTimeout(() => {
      if (this.#handshaken) return;
      ctx.log.line(
        'rpc',
        `connection ${id}: no handshake within ${ctx.options.rpcHandshakeTimeoutMs} ms; closing`,
      );
      this.close(RpcCloseCode.Unsupported, 'Handshake timed out');
    }, ctx.options.rpcHandshakeTimeoutMs);
    this.#handshakeTimer.unref();
    socket.once('close', () => {
      clearTimeout(this.#handshakeTimer);
    });
  }

  /** The presence source of this connection. */
  get source(): string {
    return `rpc:${this.id}`;
  }

  /** True once the handshake succeeded. */
  get ready(): boolean {
    return this.#handshaken && !this.#closing;
  }

  /** Sends an event if the game subscribed to it; returns whether it was sent. */
  dispatch(evt: string, data: unknown): boolean {
    if (!this.ready || !this.subscriptions.has(evt)) return false;
    this.#send(RpcOpcode.Frame, dispatchBody(evt, data));
    return true;
  }

  /** Sends GUILD_STATUS for a guild if the game watches it; returns whether it was sent. */
  dispatchGuildStatus(guildId: string, data: unknown): boolean {
    return this.guildStatus.has(guildId) && this.dispatch('GUILD_STATUS', data);
  }

  /** Destroys the socket without a CLOSE frame (a crash of the desktop client). */
  drop(): void {
    // No event may go to a connection being cut, even before its close event is processed.
    this.#closing = true;
    this.#socket.destroy();
  }

  /** Sends CLOSE and ends the connection. */
  close(code: number, message: string): void {
    if (this.#closing) return;
    this.#closing = true;
    if (this.#socket.writable) this.#socket.write(encodeRpcFrame(RpcOpcode.Close, { code, message }));
    this.#socket.end();
    setTimeout(() => this.#socket.destroy(), CLOSE_GRACE_MS).unref();
  }

  #onData(chunk: Buffer): void {
    if (this.#closing) return;
    let frames: RpcFrame[];
    try {
      frames = this.#decoder.push(chunk);
    } catch (error) {
      const reason = error instanceof RpcFrameError ? error.message : 'unreadable frame';
      this.#violation(reason);
      return;
    }
    for (const frame of frames) {
      if (this.#closing) return;
      this.#onFrame(frame);
    }
  }

  #onFrame(frame: RpcFrame): void {
    if (!this.#handshaken) {
      if (frame.op !== RpcOpcode.Handshake) {
        this.#violation('the first frame must be a handshake');
        return;
      }
      this.#handshake(frame.body);
      return;
    }
    switch (frame.op) {
      case RpcOpcode.Handshake:
        this.#violation('a second handshake');
        return;
      case RpcOpcode.Ping:
        this.#send(RpcOpcode.Pong, frame.body);
        return;
      case RpcOpcode.Pong:
        return;
      case RpcOpcode.Close:
        this.#closing = true;
        this.#socket.end();
        return;
      case RpcOpcode.Frame:
        this.#onCommand(frame.body);
    }
  }

  #handshake(body: unknown): void {
    const { v, client_id: clientId } = (body ?? {}) as { v?: unknown; client_id?: unknown };
    if (clientId === undefined || clientId === null || clientId === '') {
      this.#ctx.log.line('rpc', `connection ${this.id}: handshake without a client id`);
      this.close(RpcCloseCode.InvalidClientId, 'No Client ID Specified');
      return;
    }
    if (clientId !== this.#ctx.store.state.application.id) {
      this.#ctx.log.line('rpc', `connection ${this.id}: handshake with an unknown client id`);
      this.close(RpcCloseCode.InvalidClientId, 'Invalid Client ID');
      return;
    }
    if (v !== 1 && v !== '1') {
      this.#ctx.log.line('rpc', `connection ${this.id}: handshake with an unsupported version`);
      this.close(RpcCloseCode.InvalidVersion, 'Invalid Version');
      return;
    }
    this.#handshaken = true;
    clearTimeout(this.#handshakeTimer);
    this.#ctx.log.line(
      'rpc',
      `connection ${this.id}: a game connected to the local client of ${this.#user.username}`,
    );
    this.#send(
      RpcOpcode.Frame,
      dispatchBody(
        'READY',
        readyData(this.#ctx.urls.api, { ...wireUser(this.#user), avatar_decoration_data: null }),
      ),
    );
  }

  #onCommand(body: unknown): void {
    const command = readCommand(body);
    if (typeof command === 'string') {
      this.#violation(command);
      return;
    }
    const scope: CommandScope = {
      ctx: this.#ctx,
      user: this.#user,
      source: this.source,
      subscriptions: this.subscriptions,
      guildStatus: this.guildStatus,
      record: this.#hooks.record,
      consent: this.#hooks.consent,
      opened: this.#hooks.opened,
      showChat: (showing) => {
        this.showingChat = showing;
      },
    };
    try {
      this.#send(RpcOpcode.Frame, commandReply(command, runCommand(scope, command)));
    } catch (error) {
      const { body, code } = errorReply(command, error);
      this.#ctx.log.line('rpc', `connection ${this.id}: ${command.cmd} failed (${code})`);
      this.#send(RpcOpcode.Frame, body);
    }
  }

  #violation(reason: string): void {
    this.#ctx.log.line('rpc', `connection ${this.id}: protocol violation (${reason}); closing`);
    this.close(RpcCloseCode.Unsupported, reason);
  }

  #send(op: RpcOpcode, body: unknown): void {
    if (!this.#socket.writable || this.#closing) return;
    try {
      this.#socket.write(encodeRpcFrame(op, body));
    } catch (error) {
      // Only a reply over the 64 KiB frame limit fails to encode; it is logged rather than sent broken.
      this.#ctx.log.line('rpc', `connection ${this.id}: reply not sent (${(error as Error).message})`);
      return;
    }
    // A game that stops reading must not make the emulator queue without end: past the cap it is closed
    // (the CLOSE frame waits behind the queue; the socket is destroyed after the close grace).
    const queued = this.#socket.writableLength;
    const limit = this.#ctx.options.maxOutboundBufferBytes;
    if (queued > limit) {
      this.#ctx.log.line(
        'rpc',
        `connection ${this.id}: slow consumer: ${queued} bytes queued (limit ${limit}); closing with ${RpcCloseCode.SlowConsumer}`,
      );
      this.close(RpcCloseCode.SlowConsumer, 'Slow consumer');
    }
  }
}

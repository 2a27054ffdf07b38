import { randomUUID } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';

import { ErrorType, SdkError } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import type { Clock, TimerHandle } from '@sdkpp/protocol';
import { TypedEmitter } from '@sdkpp/protocol';
import { RpcFrameDecoder, RpcFrameError, RpcOpcode, encodeRpcFrame, type RpcFrame } from '@sdkpp/protocol';
import { rpcSocketCandidates } from '@sdkpp/protocol';

/** The local client's user, from its READY event. */
export interface RpcUser {
  /** The signed-in user's id. */
  id: string;
  /** The unique username. */
  username: string;
  /** The display name, or null (or absent) when the user has not set one. */
  global_name?: string | null;
}

/** An RPC command failed: the local client answered ERROR, closed, or did not answer in time. */
export class RpcError extends SdkError {
  constructor(message: string, code?: number) {
    super(ErrorType.RPCError, message, code === undefined ? {} : { code });
  }
}

/** Events of an {@link IpcTransport}. */
export interface IpcTransportEvents {
  /** Connected and READY (also after a reconnect). */
  ready: [user: RpcUser];
  /** The connection ended; `code` and `message` come from the peer's CLOSE when it sent one. */
  disconnected: [code: number, message: string];
  /** A subscribed event. */
  dispatch: [event: string, data: unknown];
}

/** Options of an {@link IpcTransport}. */
export interface IpcTransportOptions {
  /** The application id sent in the handshake. */
  clientId: string;
  log: LogWriter;
  clock: Clock;
  /** Socket paths to try, in order. @defaultValue `discord-ipc-0` … `9` under the platform's directory */
  socketPaths?: () => string[];
  /** How long a command may wait for its reply. @defaultValue 10000 ms */
  commandTimeoutMs?: number;
  /** How long one socket path may take to answer the handshake. @defaultValue 3000 ms */
  handshakeTimeoutMs?: number;
  /** Delay before rescan attempt `n` after a lost connection. @defaultValue 1–30 s, doubling */
  reconnectDelayMs?: (attempt: number) => number;
  /** Test seam: opens a socket to a path. @defaultValue `net.connect` */
  openSocket?: (path: string) => Socket;
}

interface Pending {
  resolve: (data: unknown) => void;
  reject: (error: Error) => void;
  timer: TimerHandle;
  cmd: string;
}

const RPC_VERSION = 1;

/**
 * The transport to a local desktop client over IPC: finds its socket (`discord-ipc-0` … `9`), performs the
 * handshake, waits for READY, matches replies to commands by nonce, answers PING, delivers subscribed events,
 * and after a lost connection rescans and re-subscribes by itself until {@link IpcTransport.close}.
 */
export class IpcTransport extends TypedEmitter<IpcTransportEvents> {
  readonly #o: IpcTransportOptions;
  readonly #pending = new Map<string, Pending>();
  readonly #subscriptions = new Map<string, { evt: string; args: Record<string, unknown> }>();
  #socket: Socket | undefined;
  #user: RpcUser | undefined;
  #closed = false;
  #attempt = 0;
  #reconnectTimer: TimerHandle | undefined;
  /** The peer's CLOSE reason, reported when the socket then ends. */
  #lastClose: { code: number; message: string } | undefined;

  constructor(options: IpcTransportOptions) {
    super();
    this.#o = options;
  }

  /** The local client's user while connected. */
  get user(): RpcUser | undefined {
    return this.#user;
  }

  /** True while connected and READY. */
  get connected(): boolean {
    return this.#user !== undefined;
  }

  /** Finds a local client and connects; rejects with {@link RpcError} when none answers. */
  async connect(): Promise<RpcUser> {
    if (this.#user) return this.#user;
    this.#closed = false;
    const paths = (this.#o.socketPaths ?? (() => rpcSocketCandidates()))();
    const failures: string[] = [];
    let refusal: RpcError | undefined;
    for (const path of paths) {
      try {
        const user = await this.#tryPath(path);
        this.#attempt = 0;
        return user;
      } catch (error) {
        if (error instanceof RpcError) refusal ??= error;
        failures.push(`${path}: ${(error as Error).message}`);
      }
    }
    this.#o.log.verbose(`no local client answered (${failures.length} socket paths tried)`);
    // A desktop client that answered and refused (e.g. 4000, unknown application) says more than "none".
    if (refusal) throw refusal;
    throw new RpcError(`no local client is running (tried ${paths.length} socket paths)`);
  }

  /** Sends a command and resolves with its reply's `data`; rejects with {@link RpcError} on ERROR or timeout. */
  request<T = unknown>(
    cmd: string,
    args: Record<string, unknown> = {},
    options: { evt?: string; timeoutMs?: number } = {},
  ): Promise<T> {
    const socket = this.#socket;
    if (!socket || !this.#user)
      return Promise.reject(new RpcError(`cannot send ${cmd}: not connected to a local client`));
    const nonce = randomUUID();
    const frame = encodeRpcFrame(RpcOpcode.Frame, {
      cmd,
      args,
      nonce,
      ...(options.evt ? { evt: options.evt } : {}),
    });
    return new Promise<T>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.#o.commandTimeoutMs ?? 10_000;
      const timer = this.#o.clock.setTimeout(() => {
        this.#pending.delete(nonce);
        reject(new RpcError(`${cmd} got no reply within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(nonce, { resolve: (data) => resolve(data as T), reject, timer, cmd });
      socket.write(frame);
    });
  }

  /**
   * Subscribes to an event; the subscription is renewed after every reconnect. One the desktop client refuses
   * (an ERROR reply) is forgotten, so it is not sent again after a reconnect.
   */
  async subscribe(evt: string, args: Record<string, unknown> = {}): Promise<void> {
    const key = subscriptionKey(evt, args);
    this.#subscriptions.set(key, { evt, args });
    try {
      await this.request('SUBSCRIBE', args, { evt });
    } catch (error) {
      if (error instanceof RpcError && error.code !== undefined) this.#subscriptions.delete(key);
      throw error;
    }
  }

  /** Ends a subscription. */
  async unsubscribe(evt: string, args: Record<string, unknown> = {}): Promise<void> {
    this.#subscriptions.delete(subscriptionKey(evt, args));
    if (this.connected) await this.request('UNSUBSCRIBE', args, { evt });
  }

  /** Closes the connection and stops reconnecting. */
  close(): void {
    this.#closed = true;
    this.#o.clock.clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
    const socket = this.#socket;
    if (socket) {
      socket.write(encodeRpcFrame(RpcOpcode.Close, { code: 1000, message: 'closed by the game' }));
      socket.end();
    }
    this.#teardown(1000, 'closed by the game');
  }

  #tryPath(path: string): Promise<RpcUser> {
    return new Promise<RpcUser>((resolve, reject) => {
      const socket = (this.#o.openSocket ?? netConnect)(path);
      const decoder = new RpcFrameDecoder();
      let settled = false;
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        this.#o.clock.clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      const timer = this.#o.clock.setTimeout(() => {
        fail(new Error('no READY in time'));
      }, this.#o.handshakeTimeoutMs ?? 3_000);
      socket.on('error', (error) => {
        if (!settled) fail(error);
        else this.#o.log.warn(`local client socket error: ${error.message}`);
      });
      socket.on('connect', () => {
        socket.write(encodeRpcFrame(RpcOpcode.Handshake, { v: RPC_VERSION, client_id: this.#o.clientId }));
      });
      socket.on('data', (chunk: Buffer) => {
        let frames: RpcFrame[];
        try {
          frames = decoder.push(chunk);
        } catch (error) {
          this.#o.log.warn(
            `dropped a local client that sent a bad frame: ${(error as RpcFrameError).message}`,
          );
          if (!settled) fail(error as Error);
          else socket.destroy();
          return;
        }
        for (const frame of frames) {
          if (!settled) {
            const user = readyUser(frame);
            if (user) {
              settled = true;
              this.#o.clock.clearTimeout(timer);
              this.#adopt(socket, user);
              resolve(user);
            } else if (frame.op === RpcOpcode.Close) {
              fail(
                new RpcError(
                  `the local client refused the handshake: ${closeMessage(frame.body)}`,
                  closeCode(frame.body),
                ),
              );
            }
            continue;
          }
          this.#onFrame(socket, frame);
        }
      });
      socket.on('close', () => {
        if (!settled) fail(new Error('closed before READY'));
        else if (this.#socket === socket) this.#onLost();
      });
    });
  }

  #adopt(socket: Socket, user: RpcUser): void {
    this.#socket = socket;
    this.#user = user;
    this.#o.log.info(`connected to the local client as ${user.username}`);
    this.emit('ready', user);
    for (const { evt, args } of this.#subscriptions.values()) {
      this.request('SUBSCRIBE', args, { evt }).catch((error: unknown) => {
        this.#o.log.warn(`re-subscribing to ${evt} failed: ${(error as Error).message}`);
      });
    }
  }

  #onFrame(socket: Socket, frame: RpcFrame): void {
    switch (frame.op) {
      case RpcOpcode.Ping:
        socket.write(encodeRpcFrame(RpcOpcode.Pong, frame.body));
        return;
      case RpcOpcode.Pong:
        return;
      case RpcOpcode.Close:
        this.#o.log.warn(`the local client closed the connection: ${closeMessage(frame.body)}`);
        this.#lastClose = { code: closeCode(frame.body) ?? 1000, message: closeMessage(frame.body) };
        socket.end();
        return;
      case RpcOpcode.Frame:
        this.#onPayload(frame.body);
        return;
      case RpcOpcode.Handshake:
        this.#o.log.warn('the local client sent a handshake frame; dropping the connection');
        socket.destroy();
    }
  }

  #onPayload(body: unknown): void {
    if (body === null || typeof body !== 'object') return;
    const { cmd, evt, nonce, data } = body as {
      cmd?: unknown;
      evt?: unknown;
      nonce?: unknown;
      data?: unknown;
    };
    if (typeof nonce === 'string' && this.#pending.has(nonce)) {
      const pending = this.#pending.get(nonce);
      this.#pending.delete(nonce);
      if (!pending) return;
      this.#o.clock.clearTimeout(pending.timer);
      if (evt === 'ERROR') {
        const { code, message } = (data ?? {}) as { code?: unknown; message?: unknown };
        pending.reject(
          new RpcError(
            `${pending.cmd} failed: ${typeof message === 'string' ? message : 'error'}`,
            typeof code === 'number' ? code : undefined,
          ),
        );
      } else {
        pending.resolve(data);
      }
      return;
    }
    if (cmd === 'DISPATCH' && typeof evt === 'string') this.emit('dispatch', evt, data);
  }

  #onLost(): void {
    const close = this.#lastClose ?? { code: 1006, message: 'connection lost' };
    this.#teardown(close.code, close.message);
    if (this.#closed) return;
    const delay = (this.#o.reconnectDelayMs ?? ((n) => Math.min(30_000, 1_000 * 2 ** Math.min(n, 5))))(
      this.#attempt,
    );
    this.#attempt += 1;
    this.#reconnectTimer = this.#o.clock.setTimeout(
      () => {
        this.#reconnectTimer = undefined;
        if (this.#closed) return;
        this.connect().catch(() => {
          this.#onLost();
        });
        // Looking for a desktop client that went away must not keep a game's process alive.
      },
      delay,
      { unref: true },
    );
  }

  #teardown(code: number, message: string): void {
    const wasConnected = this.#user !== undefined;
    this.#socket = undefined;
    this.#user = undefined;
    this.#lastClose = undefined;
    for (const [nonce, pending] of this.#pending) {
      this.#o.clock.clearTimeout(pending.timer);
      pending.reject(new RpcError(`${pending.cmd} was not answered: the local client disconnected`));
      this.#pending.delete(nonce);
    }
    if (wasConnected) this.emit('disconnected', code, message);
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#o.log.error(`a ${event} listener threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readyUser(frame: RpcFrame): RpcUser | undefined {
  if (frame.op !== RpcOpcode.Frame || frame.body === null || typeof frame.body !== 'object') return undefined;
  const { cmd, evt, data } = frame.body as { cmd?: unknown; evt?: unknown; data?: { user?: unknown } };
  if (cmd !== 'DISPATCH' || evt !== 'READY') return undefined;
  const user = data?.user as RpcUser | undefined;
  return user && typeof user.id === 'string' && typeof user.username === 'string' ? user : undefined;
}

function closeCode(body: unknown): number | undefined {
  const code = (body as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

function closeMessage(body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : 'no reason given';
}

/** The key of one subscription: the event and its arguments. */
export function subscriptionKey(evt: string, args: Record<string, unknown>): string {
  return `${evt}:${JSON.stringify(args)}`;
}

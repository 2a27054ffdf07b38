import { createServer, type Server, type Socket } from 'node:net';

import type { EmulatorContext } from '../context.js';
import { DEVICE_SCREEN_CLOSED_EVENT, deviceScreenOf } from '../oauth/deviceScreen.js';
import type { DirectMessageRecord, GuildRecord, UserRecord } from '../store/types.js';
import type { LocalClientOpened } from './chatCommands.js';
import { guildStatusData } from './guildStatus.js';
import { LocalClientConnection } from './LocalClientConnection.js';
import { dmNotification, type LocalClientNotification } from './notifications.js';
import { listenOnLocalClientSocket, type LocalClientSocket } from './socketPath.js';

/** A command the emulated desktop client received and reports to tests. */
export interface RecordedRpcCommand {
  cmd: string;
  args: Record<string, unknown>;
}

/**
 * How many commands {@link LocalClientServer.recorded} keeps, newest last: a ring, so a game (or a hostile
 * peer) sending commands in a loop cannot grow the emulator's memory without bound.
 */
export const RPC_RECORD_LIMIT = 256;

/**
 * The emulated desktop client: an IPC socket (`discord-ipc-0`, owner-only) that games reach over the RPC
 * protocol, signed in as one test user. Its activity shows in that user's presence like any session's. It
 * notifies its user of incoming direct messages (NOTIFICATION_CREATE to subscribers, and a record) unless a
 * game connected to it shows chat, and opens messages and its settings for games; both are recorded, in rings
 * of {@link RPC_RECORD_LIMIT}.
 */
export class LocalClientServer {
  readonly #ctx: EmulatorContext;
  readonly #user: UserRecord;
  readonly #server: Server;
  readonly #socket: LocalClientSocket;
  readonly #connections = new Set<LocalClientConnection>();
  readonly #recorded: RecordedRpcCommand[] = [];
  readonly #notifications: LocalClientNotification[] = [];
  readonly #opened: LocalClientOpened[] = [];
  readonly #onMessage = (kind: 'create' | 'update' | 'delete', record: DirectMessageRecord): void => {
    if (kind === 'create') this.#notify(record);
  };
  /** The player's answer to AUTHORIZE; null follows the emulator's `autoConsent`. */
  #consent: boolean | null = null;
  #nextId = 1;

  private constructor(ctx: EmulatorContext, user: UserRecord, server: Server, socket: LocalClientSocket) {
    this.#ctx = ctx;
    this.#user = user;
    this.#server = server;
    this.#socket = socket;
    // The device authorization screen is this client's: its closes go to the games listening for them.
    deviceScreenOf(ctx, () => ctx.store.now()).onClosed((reason) => {
      this.dispatch(DEVICE_SCREEN_CLOSED_EVENT, { reason });
    });
    ctx.messages.on('changed', this.#onMessage);
  }

  /** Starts listening; resolves once the socket accepts connections. */
  static async start(
    ctx: EmulatorContext,
    user: UserRecord,
    dir: string | undefined,
  ): Promise<LocalClientServer> {
    const server = createServer();
    // A game may connect as soon as the socket exists, before the server object below does.
    const early: Socket[] = [];
    const started: { server?: LocalClientServer } = {};
    server.on('connection', (raw) => {
      if (started.server) started.server.#accept(raw);
      else early.push(raw);
    });
    const socket = await listenOnLocalClientSocket(server, dir);
    const local = new LocalClientServer(ctx, user, server, socket);
    started.server = local;
    for (const raw of early.splice(0)) local.#accept(raw);
    server.on('error', (error) => {
      ctx.log.line('rpc', `local client server error: ${error.message}`);
    });
    ctx.guilds.on('guildUpdated', local.#onGuildUpdated);
    ctx.log.line('rpc', `local client of ${user.username} listening`);
    return local;
  }

  /** The socket path games connect to. */
  get path(): string {
    return this.#socket.path;
  }

  /** The user signed in to the emulated desktop client. */
  get user(): UserRecord {
    return this.#user;
  }

  /** Connections that completed the handshake. */
  get connectionCount(): number {
    return [...this.#connections].filter((c) => c.ready).length;
  }

  /** Sends an event to every connection subscribed to it; returns how many got it. */
  dispatch(evt: string, data: unknown): number {
    let sent = 0;
    for (const connection of this.#connections) if (connection.dispatch(evt, data)) sent += 1;
    return sent;
  }

  /** Destroys every connection without a CLOSE frame, as a crashing desktop client would. */
  drop(): number {
    const count = this.#connections.size;
    for (const connection of this.#connections) connection.drop();
    return count;
  }

  /** The bound user's activity as set through this client, or null. */
  activity(): Record<string, unknown> | null {
    for (const connection of this.#connections) {
      const activity = this.#ctx.presence.source(this.#user.id, connection.source)?.activities[0];
      if (activity) return structuredClone(activity);
    }
    return null;
  }

  /** Commands recorded for tests (invite replies), oldest first; the last {@link RPC_RECORD_LIMIT}. */
  recorded(): RecordedRpcCommand[] {
    return structuredClone(this.#recorded);
  }

  /** Direct-message notifications, shown or held back, oldest first; the last {@link RPC_RECORD_LIMIT}. */
  notifications(): LocalClientNotification[] {
    return structuredClone(this.#notifications);
  }

  /** What the desktop client opened for games, oldest first; the last {@link RPC_RECORD_LIMIT}. */
  opened(): LocalClientOpened[] {
    return structuredClone(this.#opened);
  }

  /** Sets how the player answers AUTHORIZE: true approves, false declines, null follows `autoConsent`. */
  setConsent(answer: boolean | null): void {
    this.#consent = answer;
  }

  /** Closes every connection (CLOSE 1000) and removes the socket. */
  async close(): Promise<void> {
    this.#ctx.guilds.off('guildUpdated', this.#onGuildUpdated);
    this.#ctx.messages.off('changed', this.#onMessage);
    for (const connection of this.#connections) connection.close(1000, 'The local client is shutting down');
    await new Promise<void>((resolve) => {
      this.#server.close(() => {
        resolve();
      });
      for (const connection of this.#connections) connection.drop();
    });
    await this.#socket.remove();
  }

  /** A guild changed: GUILD_STATUS to the games watching it, while the signed-in user is still a member. */
  readonly #onGuildUpdated = (guild: GuildRecord): void => {
    if (!this.#ctx.guilds.isMember(guild.id, this.#user.id)) return;
    const data = guildStatusData(guild);
    for (const connection of this.#connections) connection.dispatchGuildStatus(guild.id, data);
  };

  #accept(raw: Socket): void {
    const connection = new LocalClientConnection(String(this.#nextId), raw, this.#ctx, this.#user, {
      record: (cmd, args) => {
        keepLast(this.#recorded, { cmd, args: structuredClone(args) });
      },
      consent: () => this.#consent ?? this.#ctx.options.autoConsent,
      opened: (item) => {
        keepLast(this.#opened, { ...item, at: this.#ctx.store.now() });
      },
    });
    this.#nextId += 1;
    this.#connections.add(connection);
    raw.on('close', () => {
      this.#connections.delete(connection);
      this.#ctx.presence.remove(this.#user.id, connection.source);
    });
  }

  /**
   * A direct message to the signed-in user: notified, unless a game connected here shows chat and so shows it
   * (the 1.6 fix: the same user is not notified twice on one machine).
   */
  #notify(record: DirectMessageRecord): void {
    if (record.recipientId !== this.#user.id || record.authorId === this.#user.id) return;
    const held = [...this.#connections].some((c) => c.ready && c.showingChat);
    const { data, entry } = dmNotification(this.#ctx, this.#user, record, !held);
    keepLast(this.#notifications, entry);
    if (held) {
      this.#ctx.log.line('rpc', `notification of message ${record.id} held back: a game shows chat`);
      return;
    }
    this.dispatch('NOTIFICATION_CREATE', data);
  }
}

/** Appends to a ring of {@link RPC_RECORD_LIMIT} entries. */
function keepLast<T>(ring: T[], item: T): void {
  ring.push(item);
  if (ring.length > RPC_RECORD_LIMIT) ring.shift();
}

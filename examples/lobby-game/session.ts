import { HttpError, type Client } from 'sdkpp';

import { TableHost } from './host.js';
import type { Print } from './print.js';
import { MAX_PLAYERS, refusal } from './rules.js';
import { chooseColumn } from './strategy.js';
import { tableFromMetadata, tableToMetadata, type Table } from './table.js';
import { printBoard, printTableChange } from './view.js';

/** How a player's session at a table behaves and reports back to the player. */
export interface TableSessionOptions {
  print: Print;
  /** Choose moves by itself after this many milliseconds, or null. */
  autoplayDelayMs: number | null;
  /** As host, start the game once this many players are at the table, or null to wait for `/start`. */
  startAt: number | null;
  /** Something rich presence shows changed: the members or the table. */
  onChange: () => void;
  /** The table as published changed, and has been printed. */
  onTable: (table: Table) => void;
  /** The table went away without the player leaving: deleted, or its host left. */
  onClosed: () => void;
}

/** Lobby message metadata `kind`s: a move request to the host, the host's refusal, or chat. */
const MOVE = 'move';
const REFUSED = 'refused';
const CHAT = 'chat';
/** The platform's limit for a message. */
const MAX_MESSAGE = 2000;

/**
 * A player's place at one table (a lobby): its chat, its members coming and going, and the game, printed
 * as the host publishes it. The host's seat also holds the {@link TableHost} that decides every move;
 * a guest's moves are lobby messages the host answers by publishing, or refusing.
 */
export class TableSession {
  readonly lobbyId: string;
  readonly secret: string;
  readonly #client: Client;
  readonly #me: string;
  readonly #o: TableSessionOptions;
  readonly #host: TableHost | null;
  /** The table as last shown. */
  #shown: Table | null = null;
  /** The other members, as announced. */
  readonly #members = new Set<string>();
  #autoMoveFor = -1;
  /** The lobby was deleted: there is nothing left to leave. */
  #gone = false;
  readonly #unlisten: (() => void)[] = [];

  private constructor(
    client: Client,
    lobbyId: string,
    secret: string,
    /** The revision to continue from as host, or null for a guest. */
    hostFrom: number | null,
    options: TableSessionOptions,
  ) {
    this.#client = client;
    this.lobbyId = lobbyId;
    this.secret = secret;
    this.#o = options;
    const me = client.getCurrentUser();
    this.#me = me?.id ?? '';
    this.#host =
      hostFrom === null
        ? null
        : new TableHost(
            { id: this.#me, name: me?.displayName ?? '?' },
            (table) => this.#publish(table),
            hostFrom,
          );
    for (const id of client.getLobbyHandle(lobbyId)?.lobbyMemberIds ?? []) {
      if (id === this.#me) continue;
      this.#members.add(id);
      // Reopening one's own table: whoever stayed in the lobby keeps a seat.
      const name = client.getUser(id)?.displayName ?? id;
      if (this.#host) this.#background(this.#host.joined({ id, name }));
    }
    this.#listen();
  }

  /** Opens a table as its host: creates the lobby with this secret (then {@link publishOpening}). */
  static async host(client: Client, secret: string, options: TableSessionOptions): Promise<TableSession> {
    const lobbyId = await client.createOrJoinLobby(secret);
    const open = tableFromMetadata(client.getLobbyHandle(lobbyId)?.metadata ?? {});
    if (open && open.host !== client.getCurrentUser()?.id) {
      // Someone else's table has this secret: sit down there rather than take it over.
      const hostName = open.seats.find((s) => s.id === open.host)?.name ?? 'someone';
      options.print('lobby', `that secret is ${hostName}'s table already: joined it (lobby ${lobbyId})`);
      const session = new TableSession(client, lobbyId, secret, null, options);
      session.#show();
      return session;
    }
    options.print(
      'lobby',
      `opened a table for ${MAX_PLAYERS} (lobby ${lobbyId}): /invite <friend> to fill it`,
    );
    return new TableSession(client, lobbyId, secret, open?.revision ?? 0, options);
  }

  /** The host publishes the empty table, which the others wait for. */
  async publishOpening(): Promise<void> {
    await this.#host?.open();
  }

  /** Sits down at the table with this lobby secret. */
  static async join(client: Client, secret: string, options: TableSessionOptions): Promise<TableSession> {
    const lobbyId = await client.createOrJoinLobby(secret);
    const session = new TableSession(client, lobbyId, secret, null, options);
    const table = session.#published();
    const hostName = table?.seats.find((s) => s.id === table.host)?.name ?? 'the host';
    options.print('lobby', `joined ${hostName}'s table (lobby ${lobbyId})`);
    session.#show();
    return session;
  }

  /** The table as last shown, or null before the host published one. */
  get table(): Table | null {
    return this.#shown;
  }

  /** Players in the lobby, this one included. */
  get memberCount(): number {
    return this.#client.getLobbyHandle(this.lobbyId)?.lobbyMemberIds.length ?? 1;
  }

  /** Whether `userId` has a seat in the game shown. */
  hasSeat(userId: string): boolean {
    return this.#shown?.seats.some((s) => s.id === userId) ?? false;
  }

  /** Says something in the table's chat. */
  async chat(text: string): Promise<void> {
    await this.#client.sendLobbyMessage(this.lobbyId, text.slice(0, MAX_MESSAGE), { kind: CHAT });
  }

  /** Drops a disc: checked here first, then decided by the host (here, or in the host's terminal). */
  async move(column: number): Promise<void> {
    const table = this.#shown;
    const game = table?.game;
    if (!table || !game || table.status !== 'playing') {
      this.#o.print('game', 'move refused: no game is running');
      return;
    }
    const seat = table.seats.findIndex((s) => s.id === this.#me);
    const reason = seat < 0 ? 'you are watching this game, not playing it' : refusal(game, seat, column);
    if (reason !== null) {
      this.#o.print('game', `move refused: ${reason}`);
      return;
    }
    if (this.#host) {
      const refused = await this.#host.move(this.#me, column, game.moves);
      if (refused !== null) this.#o.print('game', `move refused: ${refused}`);
      return;
    }
    await this.#client.sendLobbyMessage(this.lobbyId, `drops a disc into column ${column}`, {
      kind: MOVE,
      column: String(column),
      moves: String(game.moves),
    });
  }

  /** Starts a game (the host only). */
  async start(): Promise<void> {
    if (!this.#host) {
      this.#o.print('error', 'only the host starts the game');
      return;
    }
    const refused = await this.#host.start();
    if (refused !== null) this.#o.print('game', `cannot start: ${refused}`);
  }

  /** Prints the board again. */
  showBoard(): void {
    if (this.#shown?.game) printBoard(this.#shown, this.#o.print);
    else this.#o.print('error', 'no game on the table yet');
  }

  /** Leaves the lobby (a lobby already gone counts as left). */
  async leave(): Promise<void> {
    this.#close();
    if (this.#gone) return;
    try {
      await this.#client.leaveLobby(this.lobbyId);
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 404)) throw error;
    }
    this.#o.print('lobby', 'you left the table');
  }

  #close(): void {
    for (const unlisten of this.#unlisten.splice(0)) unlisten();
  }

  #on(event: 'lobbyUpdated' | 'lobbyDeleted' | 'messageCreated', listener: (id: string) => void): void {
    this.#client.on(event, listener);
    this.#unlisten.push(() => this.#client.off(event, listener));
  }

  #onMember(event: 'lobbyMemberAdded' | 'lobbyMemberRemoved', listener: (memberId: string) => void): void {
    const filtered = (lobbyId: string, memberId: string): void => {
      if (lobbyId === this.lobbyId && memberId !== this.#me) listener(memberId);
    };
    this.#client.on(event, filtered);
    this.#unlisten.push(() => this.#client.off(event, filtered));
  }

  #listen(): void {
    this.#on('lobbyUpdated', (lobbyId) => {
      if (lobbyId === this.lobbyId) this.#show();
    });
    this.#on('lobbyDeleted', (lobbyId) => {
      if (lobbyId !== this.lobbyId) return;
      this.#close();
      this.#gone = true;
      this.#o.print('lobby', 'the table is gone');
      this.#o.onClosed();
    });
    this.#on('messageCreated', (messageId) => {
      const message = this.#client.getMessageHandle(messageId);
      if (message?.lobbyId !== this.lobbyId) return;
      this.#message(message.authorId, message.content, message.metadata);
    });
    this.#onMember('lobbyMemberAdded', (memberId) => {
      this.#arrived(memberId);
    });
    this.#onMember('lobbyMemberRemoved', (memberId) => {
      this.#departed(memberId);
    });
  }

  #arrived(memberId: string): void {
    if (this.#members.has(memberId)) return;
    this.#members.add(memberId);
    const name = this.#client.getUser(memberId)?.displayName ?? memberId;
    this.#o.print('lobby', `${name} sat down at the table`);
    this.#o.onChange();
    if (this.#host) this.#background(this.#host.joined({ id: memberId, name }).then(() => this.#autoStart()));
  }

  #departed(memberId: string): void {
    if (this.#unlisten.length === 0 || !this.#members.delete(memberId)) return;
    this.#o.print('lobby', `${this.#client.getUser(memberId)?.displayName ?? 'someone'} left the table`);
    this.#o.onChange();
    if (this.#host) {
      this.#background(this.#host.left(memberId));
    } else if (memberId === this.#shown?.host) {
      this.#o.print('lobby', 'the host left, so the table is closed');
      this.#o.onClosed();
    }
  }

  #message(authorId: string, content: string, metadata: Readonly<Record<string, string>>): void {
    if (metadata.kind === MOVE) {
      const host = this.#host;
      if (!host || authorId === this.#me) return;
      const seen =
        metadata.moves !== undefined && /^\d+$/.test(metadata.moves) ? Number(metadata.moves) : null;
      this.#background(
        host
          .move(authorId, Number(metadata.column), seen)
          .then((refused) => (refused === null ? undefined : this.#refuse(authorId, refused))),
      );
    } else if (metadata.kind === REFUSED) {
      // Only the host's refusals count: anyone could send a message that looks like one.
      if (metadata.to === this.#me && authorId === this.#shown?.host)
        this.#o.print('game', `move refused by the host: ${metadata.reason ?? '?'}`);
    } else {
      this.#o.print('chat', `${this.#client.getUser(authorId)?.displayName ?? 'someone'}: ${content}`);
    }
  }

  async #refuse(userId: string, reason: string): Promise<void> {
    await this.#client.sendLobbyMessage(this.lobbyId, `move refused: ${reason}`, {
      kind: REFUSED,
      to: userId,
      reason,
    });
  }

  /** Work started by an event rather than by a typed line: a failure is printed, never left unhandled. */
  #background(work: Promise<unknown>): void {
    work.catch((error: unknown) => {
      this.#o.print('error', error instanceof Error ? error.message : String(error));
    });
  }

  async #publish(table: Table): Promise<void> {
    // The call that created the lobby also replaces its metadata; only the host sends it.
    await this.#client.createOrJoinLobby(this.secret, tableToMetadata(table));
    this.#show();
  }

  #published(): Table | null {
    const lobby = this.#client.getLobbyHandle(this.lobbyId);
    return lobby ? tableFromMetadata(lobby.metadata) : null;
  }

  /** Shows the published table if it is newer than what the terminal shows. */
  #show(): void {
    const table = this.#published();
    if (!table || (this.#shown && table.revision <= this.#shown.revision)) return;
    const before = this.#shown;
    this.#shown = table;
    const byHand = this.#o.startAt === null && this.#o.autoplayDelayMs === null;
    printTableChange(before, table, this.#me, this.#o.print, byHand);
    this.#autoplay(table);
    this.#o.onTable(table);
  }

  #autoplay(table: Table): void {
    const game = table.game;
    const delay = this.#o.autoplayDelayMs;
    if (delay === null || !game || table.status !== 'playing') return;
    const seat = table.seats.findIndex((s) => s.id === this.#me);
    if (seat !== game.turn || this.#autoMoveFor === table.revision) return;
    this.#autoMoveFor = table.revision;
    setTimeout(() => {
      if (this.#shown?.revision === table.revision) this.#background(this.move(chooseColumn(game, seat)));
    }, delay);
  }

  async #autoStart(): Promise<void> {
    const host = this.#host;
    const startAt = this.#o.startAt;
    if (!host || startAt === null || host.table.status !== 'waiting') return;
    // Several arrivals may ask at once; only the first start counts, the others are refused quietly.
    if (host.table.seats.length >= startAt) await host.start();
  }
}

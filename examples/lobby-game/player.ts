import { randomBytes } from 'node:crypto';

import { HttpError, type ActivityInvite, type Client } from 'sdkpp';

import { parseCommand, HELP, type Command } from './commands.js';
import { Friends } from './friends.js';
import { TableHost } from './host.js';
import { presenceFor } from './presence.js';
import type { Print } from './print.js';
import { MAX_PLAYERS, refusal } from './rules.js';
import { chooseColumn } from './strategy.js';
import { tableFromMetadata, tableToMetadata, type Table } from './table.js';
import { printBoard, printTableChange } from './view.js';

/** How a player behaves beyond what is typed. */
export interface PlayerOptions {
  print: Print;
  /** Accept friend requests and the first invite by themselves (`--join`, computer players). */
  autoJoin: boolean;
  /** Choose moves by themselves after this many milliseconds (`--autoplay`, computer players), or null. */
  autoplayDelayMs: number | null;
  /** The host starts the game once this many players are at the table, or null to wait for `/start`. */
  startAt: number | null;
  /** Leave by themselves once a game is over. */
  quitAfterGame: boolean;
  /** Something to say in the lobby chat on arriving at a table, or null. */
  greeting: string | null;
}

/** Lobby message metadata `kind`s: a move request to the host, the host's refusal, or chat. */
const MOVE = 'move';
const REFUSED = 'refused';
const CHAT = 'chat';
/** How long a member must stay gone before they count as having left. */
const LEAVE_CONFIRM_MS = 400;

/**
 * One player of the game, signed in and connected: what they type becomes commands, chat or moves; what
 * arrives (invites, lobby changes, messages, the host's published table) is printed. A player is either the
 * host of their table (and decides every move) or a guest who asks the host.
 */
export class Player {
  readonly client: Client;
  readonly #o: PlayerOptions;
  readonly #print: Print;
  readonly #me: string;
  readonly #friends: Friends;
  #lobby: { id: string; secret: string } | null = null;
  #host: TableHost | null = null;
  /** The table as last shown. */
  #shown: Table | null = null;
  /** The other members at the table, as announced. */
  readonly #members = new Set<string>();
  #latestInvite: ActivityInvite | null = null;
  #lastPresence = '';
  #commands: Promise<void> = Promise.resolve();
  #quitting = false;
  #autoMoveFor = -1;
  readonly #done: Promise<void>;
  #resolveDone: () => void = () => undefined;

  constructor(client: Client, options: PlayerOptions) {
    this.client = client;
    this.#o = options;
    this.#print = options.print;
    const me = client.getCurrentUser();
    if (!me) throw new Error('a player needs a connected client');
    this.#me = me.id;
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.#friends = new Friends(client, {
      print: options.print,
      acceptRequests: options.autoJoin,
      onInvite: (invite) => {
        this.#invited(invite);
      },
      isTableMate: (id) => this.#shown?.seats.some((s) => s.id === id) ?? false,
    });
    this.#listen();
    this.#updatePresence();
  }

  /** The player's display name. */
  get name(): string {
    return this.client.getCurrentUser()?.displayName ?? '?';
  }

  /** Resolves once the player has left the game (`/quit`, end of input, or after the game when told to). */
  get done(): Promise<void> {
    return this.#done;
  }

  /** Handles one typed line, after the lines before it; never throws (errors are printed). */
  type(line: string): Promise<void> {
    const command = parseCommand(line);
    const run = async (): Promise<void> => {
      try {
        await this.#run(command);
      } catch (error) {
        this.#print('error', error instanceof Error ? error.message : String(error));
      }
    };
    this.#commands = this.#commands.then(run);
    return this.#commands;
  }

  /** Opens a table: a lobby whose secret (random unless given) is the join secret of the player's presence. */
  async host(secret = `table-${randomBytes(16).toString('hex')}`): Promise<void> {
    if (this.#lobby) {
      this.#print('error', 'you are at a table already: /leave first');
      return;
    }
    const lobbyId = await this.client.createOrJoinLobby(secret);
    this.#enter(lobbyId, secret);
    const host = new TableHost({ id: this.#me, name: this.name }, (table) => this.#publish(table));
    this.#host = host;
    this.#print('lobby', `opened a table for ${MAX_PLAYERS} (lobby ${lobbyId}): /invite <friend> to fill it`);
    await host.open();
    this.#updatePresence();
  }

  /** Joins the table with this lobby secret. */
  async join(secret: string): Promise<void> {
    if (this.#lobby) {
      this.#print('error', 'you are at a table already: /leave first');
      return;
    }
    const lobbyId = await this.client.createOrJoinLobby(secret);
    this.#enter(lobbyId, secret);
    const table = this.#table();
    const hostName = table?.seats.find((s) => s.id === table.host)?.name ?? 'the host';
    this.#print('lobby', `joined ${hostName}'s table (lobby ${lobbyId})`);
    this.#showTable();
    this.#updatePresence();
    if (this.#o.greeting !== null) await this.#chat(this.#o.greeting);
  }

  /** Invites a friend (by username) to the table. */
  invite(username: string): Promise<void> {
    return this.type(`/invite ${username}`);
  }

  /** Leaves the table, signs out and resolves {@link done}; never rejects (trouble is printed). */
  async quit(): Promise<void> {
    if (this.#quitting) return;
    this.#quitting = true;
    try {
      await this.#leave();
    } catch (error) {
      this.#print('error', `leaving the table: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      await this.client.destroy();
    } catch (error) {
      this.#print('error', `signing out: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.#resolveDone();
  }

  async #run(command: Command): Promise<void> {
    switch (command.kind) {
      case 'none':
        return;
      case 'bad':
        this.#print('error', command.message);
        return;
      case 'help':
        for (const line of HELP) this.#print('game', line);
        return;
      case 'chat':
        return this.#chat(command.text);
      case 'move':
        return this.#move(command.column);
      case 'friends':
        this.#friends.list();
        return;
      case 'friend':
        return this.#friends.request(command.username);
      case 'accept':
        return this.#friends.accept(command.username);
      case 'invite':
        if (!this.#lobby) {
          this.#print('error', 'you are not at a table: /host opens one');
          return;
        }
        return this.#friends.invite(command.username);
      case 'join':
        return this.#joinCommand(command.secret);
      case 'host':
        return this.host();
      case 'start':
        return this.#start();
      case 'board': {
        const table = this.#table();
        if (table?.game) printBoard(table, this.#print);
        else this.#print('error', 'no game on the table yet');
        return;
      }
      case 'leave':
        return this.#leave();
      case 'quit':
        return this.quit();
    }
  }

  async #chat(text: string): Promise<void> {
    if (!this.#lobby) {
      this.#print('error', "chat goes to your table's lobby: /host or /join first");
      return;
    }
    await this.client.sendLobbyMessage(this.#lobby.id, text.slice(0, 2000), { kind: CHAT });
  }

  async #move(column: number): Promise<void> {
    const table = this.#table();
    const game = table?.game;
    if (!this.#lobby || !table || !game || table.status !== 'playing') {
      this.#print('game', 'move refused: no game is running');
      return;
    }
    const seat = table.seats.findIndex((s) => s.id === this.#me);
    const reason = seat < 0 ? 'you are watching this game, not playing it' : refusal(game, seat, column);
    if (reason !== null) {
      this.#print('game', `move refused: ${reason}`);
      return;
    }
    if (this.#host) {
      const refused = await this.#host.move(this.#me, column, game.moves);
      if (refused !== null) this.#print('game', `move refused: ${refused}`);
      return;
    }
    await this.client.sendLobbyMessage(this.#lobby.id, `drops a disc into column ${column}`, {
      kind: MOVE,
      column: String(column),
      moves: String(game.moves),
    });
  }

  async #start(): Promise<void> {
    if (!this.#host) {
      this.#print(
        'error',
        this.#lobby ? 'only the host starts the game' : 'you are not at a table: /host opens one',
      );
      return;
    }
    const refused = await this.#host.start();
    if (refused !== null) this.#print('game', `cannot start: ${refused}`);
  }

  async #joinCommand(secret: string | undefined): Promise<void> {
    if (secret !== undefined) return this.join(secret);
    const invite = this.#latestInvite;
    if (!invite) {
      this.#print('error', 'no invite to accept: ask a friend for one, or /join <lobby secret>');
      return;
    }
    this.#latestInvite = null;
    const from = this.client.getUser(invite.senderId)?.displayName ?? 'your friend';
    const joinSecret = await this.client.acceptActivityInvite(invite);
    this.#print('invite', `accepted ${from}'s invite`);
    await this.join(joinSecret);
  }

  async #leave(): Promise<void> {
    const lobby = this.#lobby;
    if (!lobby) return;
    this.#forget();
    try {
      await this.client.leaveLobby(lobby.id);
    } catch (error) {
      // A lobby that is gone already (404) has been left all the same.
      if (!(error instanceof HttpError && error.status === 404)) throw error;
    }
    this.#print('lobby', 'you left the table');
    this.#updatePresence();
  }

  #enter(lobbyId: string, secret: string): void {
    this.#lobby = { id: lobbyId, secret };
    const members = this.client.getLobbyHandle(lobbyId)?.lobbyMemberIds ?? [];
    for (const id of members) if (id !== this.#me) this.#members.add(id);
  }

  #forget(): void {
    this.#lobby = null;
    this.#host = null;
    this.#shown = null;
    this.#members.clear();
  }

  #invited(invite: ActivityInvite): void {
    const from = this.client.getUser(invite.senderId)?.displayName ?? 'a friend';
    if (this.#o.autoJoin && !this.#lobby) {
      this.#print('invite', `${from} invites you to their table: joining`);
      this.#latestInvite = invite;
      void this.type('/join');
      return;
    }
    this.#latestInvite = invite;
    this.#print('invite', `${from} invites you to their table: /join to accept`);
  }

  #listen(): void {
    const mine = (lobbyId: string): boolean => this.#lobby?.id === lobbyId;
    this.client.on('lobbyUpdated', (lobbyId) => {
      if (mine(lobbyId)) this.#showTable();
    });
    this.client.on('lobbyMemberAdded', (lobbyId, memberId) => {
      if (!mine(lobbyId) || memberId === this.#me || this.#members.has(memberId)) return;
      this.#members.add(memberId);
      const user = this.client.getUser(memberId);
      this.#print('lobby', `${user?.displayName ?? 'someone'} sat down at the table`);
      this.#updatePresence();
      const host = this.#host;
      if (host) {
        const seat = { id: memberId, name: user?.displayName ?? memberId };
        this.#background(host.joined(seat).then(() => this.#autoStart()));
      }
    });
    this.client.on('lobbyMemberRemoved', (lobbyId, memberId) => {
      if (!mine(lobbyId) || memberId === this.#me) return;
      // A lobby snapshot older than the gateway's news can briefly drop a member who just arrived: act on a
      // departure only once it still holds a moment later.
      setTimeout(() => {
        if (mine(lobbyId) && !this.client.getLobbyHandle(lobbyId)?.getLobbyMemberHandle(memberId)) {
          this.#memberLeft(memberId);
        }
      }, LEAVE_CONFIRM_MS);
    });
    this.client.on('lobbyDeleted', (lobbyId) => {
      if (!mine(lobbyId)) return;
      this.#forget();
      this.#print('lobby', 'the table is gone');
      this.#updatePresence();
    });
    this.client.on('messageCreated', (messageId) => {
      const message = this.client.getMessageHandle(messageId);
      if (!message || message.lobbyId === null || !mine(message.lobbyId)) return;
      this.#lobbyMessage(message.authorId, message.content, message.metadata);
    });
  }

  #memberLeft(memberId: string): void {
    if (!this.#members.delete(memberId)) return;
    this.#print('lobby', `${this.client.getUser(memberId)?.displayName ?? 'someone'} left the table`);
    this.#updatePresence();
    if (this.#host) {
      this.#background(this.#host.left(memberId));
    } else if (memberId === this.#shown?.host) {
      this.#print('lobby', 'the host left, so the table is closed');
      void this.type('/leave');
    }
  }

  #lobbyMessage(authorId: string, content: string, metadata: Readonly<Record<string, string>>): void {
    const author = this.client.getUser(authorId)?.displayName ?? 'someone';
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
      if (metadata.to === this.#me)
        this.#print('game', `move refused by the host: ${metadata.reason ?? '?'}`);
    } else {
      this.#print('chat', `${author}: ${content}`);
    }
  }

  /** Work started by an event rather than by a typed line: a failure is printed, never left unhandled. */
  #background(work: Promise<unknown>): void {
    work.catch((error: unknown) => {
      this.#print('error', error instanceof Error ? error.message : String(error));
    });
  }

  async #refuse(userId: string, reason: string): Promise<void> {
    if (!this.#lobby) return;
    await this.client.sendLobbyMessage(this.#lobby.id, `move refused: ${reason}`, {
      kind: REFUSED,
      to: userId,
      reason,
    });
  }

  async #publish(table: Table): Promise<void> {
    if (!this.#lobby) return;
    // The same call that created the lobby replaces its metadata: the host is the only one who sends it.
    await this.client.createOrJoinLobby(this.#lobby.secret, tableToMetadata(table));
    this.#showTable();
  }

  #table(): Table | null {
    const lobby = this.#lobby ? this.client.getLobbyHandle(this.#lobby.id) : undefined;
    return lobby ? tableFromMetadata(lobby.metadata) : null;
  }

  /** Shows the published table if it is newer than what the terminal shows. */
  #showTable(): void {
    const table = this.#table();
    if (!table || (this.#shown && table.revision <= this.#shown.revision)) return;
    const before = this.#shown;
    this.#shown = table;
    printTableChange(before, table, this.#me, this.#print);
    this.#updatePresence();
    this.#maybeAutoplay(table);
    if (table.status === 'over' && this.#o.quitAfterGame) void this.type('/quit');
  }

  #maybeAutoplay(table: Table): void {
    const game = table.game;
    const delay = this.#o.autoplayDelayMs;
    if (delay === null || !game || table.status !== 'playing') return;
    const seat = table.seats.findIndex((s) => s.id === this.#me);
    if (seat !== game.turn || this.#autoMoveFor === table.revision) return;
    this.#autoMoveFor = table.revision;
    setTimeout(() => {
      if (this.#shown?.revision === table.revision) void this.type(`/move ${chooseColumn(game, seat)}`);
    }, delay);
  }

  async #autoStart(): Promise<void> {
    const host = this.#host;
    const startAt = this.#o.startAt;
    if (!host || startAt === null || host.table.status !== 'waiting') return;
    // Several arrivals may ask at once; only the first start counts, the others are refused quietly.
    if (host.table.seats.length >= startAt) await host.start();
  }

  #updatePresence(): void {
    if (this.#quitting) return;
    const lobby = this.#lobby;
    const members = lobby ? (this.client.getLobbyHandle(lobby.id)?.lobbyMemberIds.length ?? 1) : 0;
    const activity = presenceFor({
      lobbyId: lobby?.id ?? null,
      secret: lobby?.secret ?? null,
      members,
      table: lobby ? this.#shown : null,
    });
    const key = JSON.stringify(activity);
    if (key === this.#lastPresence) return;
    this.#lastPresence = key;
    this.client.updateRichPresence(activity).catch((error: unknown) => {
      this.#print('error', `rich presence: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}

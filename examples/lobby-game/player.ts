import { randomBytes } from 'node:crypto';

import type { ActivityInvite, Client } from 'sdkpp';

import { parseCommand, HELP, type Command } from './commands.js';
import { Friends } from './friends.js';
import { presenceFor } from './presence.js';
import type { Print } from './print.js';
import { TableSession, type TableSessionOptions } from './session.js';

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

/**
 * One player of the game, signed in and connected: what they type becomes commands, chat or moves; what
 * friends send (requests, invites, presence) is printed; where they are shows in their rich presence. At a
 * table, the {@link TableSession} does the rest.
 */
export class Player {
  readonly client: Client;
  readonly #o: PlayerOptions;
  readonly #print: Print;
  readonly #friends: Friends;
  #table: TableSession | null = null;
  #latestInvite: ActivityInvite | null = null;
  #lastPresence = '';
  #commands: Promise<void> = Promise.resolve();
  #quitting = false;
  readonly #done: Promise<void>;
  #resolveDone: () => void = () => undefined;

  constructor(client: Client, options: PlayerOptions) {
    this.client = client;
    this.#o = options;
    this.#print = options.print;
    if (!client.getCurrentUser()) throw new Error('a player needs a connected client');
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.#friends = new Friends(client, {
      print: options.print,
      acceptRequests: options.autoJoin,
      onInvite: (invite) => {
        this.#invited(invite);
      },
      isTableMate: (id) => this.#table?.hasSeat(id) ?? false,
    });
    this.#updatePresence();
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
    if (this.#atTable()) return;
    const table = await TableSession.host(this.client, secret, this.#sessionOptions());
    this.#table = table;
    await table.publishOpening();
    this.#updatePresence();
  }

  /** Sits down at the table with this lobby secret. */
  async join(secret: string): Promise<void> {
    if (this.#atTable()) return;
    this.#table = await TableSession.join(this.client, secret, this.#sessionOptions());
    this.#updatePresence();
    if (this.#o.greeting !== null) await this.#table.chat(this.#o.greeting);
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
      case 'friends':
        this.#friends.list();
        return;
      case 'friend':
        return this.#friends.request(command.username);
      case 'accept':
        return this.#friends.accept(command.username);
      case 'join':
        return this.#join(command.secret);
      case 'host':
        return this.host();
      case 'leave':
        return this.#leave();
      case 'quit':
        return this.quit();
      default:
        return this.#atTableCommand(command);
    }
  }

  /** Commands that need a table. */
  async #atTableCommand(command: Command): Promise<void> {
    const table = this.#table;
    if (!table) {
      if (command.kind === 'move') this.#print('game', 'move refused: no game is running');
      else this.#print('error', 'you are not at a table: /host opens one, /join sits down at one');
      return;
    }
    switch (command.kind) {
      case 'chat':
        return table.chat(command.text);
      case 'move':
        return table.move(command.column);
      case 'invite':
        return this.#friends.invite(command.username);
      case 'start':
        return table.start();
      case 'board':
        table.showBoard();
        return;
      default:
    }
  }

  #atTable(): boolean {
    if (this.#table) this.#print('error', 'you are at a table already: /leave first');
    return this.#table !== null;
  }

  async #join(secret: string | undefined): Promise<void> {
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
    const table = this.#table;
    if (!table) return;
    this.#table = null;
    await table.leave();
    this.#updatePresence();
  }

  #invited(invite: ActivityInvite): void {
    const from = this.client.getUser(invite.senderId)?.displayName ?? 'a friend';
    this.#latestInvite = invite;
    if (this.#o.autoJoin && !this.#table) {
      this.#print('invite', `${from} invites you to their table: joining`);
      void this.type('/join');
    } else {
      this.#print('invite', `${from} invites you to their table: /join to accept`);
    }
  }

  #sessionOptions(): TableSessionOptions {
    return {
      print: this.#print,
      autoplayDelayMs: this.#o.autoplayDelayMs,
      startAt: this.#o.startAt,
      onChange: () => {
        this.#updatePresence();
      },
      onTable: (table) => {
        this.#updatePresence();
        if (table.status === 'over' && this.#o.quitAfterGame) void this.type('/quit');
      },
      onClosed: () => {
        void this.type('/leave');
      },
    };
  }

  #updatePresence(): void {
    if (this.#quitting) return;
    const table = this.#table;
    const activity = presenceFor({
      lobbyId: table?.lobbyId ?? null,
      secret: table?.secret ?? null,
      members: table?.memberCount ?? 0,
      table: table?.table ?? null,
    });
    const key = JSON.stringify(activity);
    if (key === this.#lastPresence) return;
    this.#lastPresence = key;
    this.client.updateRichPresence(activity).catch((error: unknown) => {
      this.#print('error', `rich presence: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}

import { forfeit, IllegalMove, MAX_PLAYERS, MIN_PLAYERS, newGame, play } from './rules.js';
import type { Seat, Table } from './table.js';

/**
 * The host's authority over the table. Every change (a move, a join, a leave, a start) runs here one at a
 * time against the host's own copy, and each accepted change is published as the lobby's metadata, which
 * is what every terminal shows. A move from another terminal is only a request until it passes here.
 */
export class TableHost {
  #table: Table;
  /** Everyone in the lobby, in the order they arrived; the first four play. */
  #present: Seat[];
  #queue: Promise<unknown> = Promise.resolve();
  readonly #publish: (table: Table) => Promise<void>;

  /**
   * `revision` is the last one published at this lobby (a host reopening their own table), so the new
   * publications still count as newer in every terminal.
   */
  constructor(host: Seat, publish: (table: Table) => Promise<void>, revision = 0) {
    this.#present = [host];
    this.#publish = publish;
    this.#table = {
      status: 'waiting',
      host: host.id,
      seats: [host],
      round: 0,
      wins: {},
      revision,
      game: null,
    };
  }

  /** The table as last decided. */
  get table(): Table {
    return this.#table;
  }

  /** Publishes the opening table. */
  open(): Promise<string | null> {
    return this.#change(() => ({ ...this.#table }));
  }

  /** A member arrived: they take a seat while the table waits, else they watch until the next game. */
  joined(seat: Seat): Promise<string | null> {
    return this.#change((table) => {
      if (this.#present.some((s) => s.id === seat.id)) return null;
      this.#present.push(seat);
      if (table.status !== 'waiting') return null;
      return { ...table, seats: this.#present.slice(0, MAX_PLAYERS) };
    });
  }

  /** A member left: a waiting seat is freed; a player in a running game forfeits. */
  left(userId: string): Promise<string | null> {
    return this.#change((table) => {
      this.#present = this.#present.filter((s) => s.id !== userId);
      if (table.status === 'waiting') return { ...table, seats: this.#present.slice(0, MAX_PLAYERS) };
      const seat = table.seats.findIndex((s) => s.id === userId);
      if (table.status !== 'playing' || seat < 0 || !table.game) return null;
      return this.#settled({ ...table, game: forfeit(table.game, seat) });
    });
  }

  /** Starts a game (or a rematch) with the first four present; resolves with the refusal, or null. */
  start(): Promise<string | null> {
    return this.#change((table) => {
      if (table.status === 'playing') throw new IllegalMove('a game is already running');
      const seats = this.#present.slice(0, MAX_PLAYERS);
      if (seats.length < MIN_PLAYERS) {
        throw new IllegalMove(`a game needs ${MIN_PLAYERS}–${MAX_PLAYERS} players; invite a friend first`);
      }
      // Each new game, the next player in the order of arrival moves first.
      const first = table.round % seats.length;
      const order = [...seats.slice(first), ...seats.slice(0, first)];
      return {
        ...table,
        status: 'playing',
        seats: order,
        round: table.round + 1,
        game: newGame(order.length),
      };
    });
  }

  /**
   * A player's move: `movesSeen` is how many discs they saw on the board when they chose, so a move
   * chosen on a board that has changed since is refused rather than applied to a different position.
   */
  move(userId: string, column: number, movesSeen: number | null): Promise<string | null> {
    return this.#change((table) => {
      const game = table.game;
      if (table.status !== 'playing' || !game) throw new IllegalMove('no game is running');
      const seat = table.seats.findIndex((s) => s.id === userId);
      if (seat < 0) throw new IllegalMove('you are watching this game, not playing it');
      if (seat !== game.turn) throw new IllegalMove('it is not your turn');
      if (movesSeen !== null && movesSeen !== game.moves) {
        throw new IllegalMove('the board changed before your move arrived; look again');
      }
      return this.#settled({ ...table, game: play(game, seat, column) });
    });
  }

  /** A finished game becomes "over" and its winner scores. */
  #settled(table: Table): Table {
    const game = table.game;
    if (!game || game.outcome === '') return table;
    const winner = table.seats[game.winner];
    const wins = { ...table.wins };
    if (winner) wins[winner.id] = (wins[winner.id] ?? 0) + 1;
    return { ...table, status: 'over', wins };
  }

  /**
   * Runs one change after the ones before it. The change returns the new table (published with the next
   * revision), null for no change, or throws {@link IllegalMove}; resolves with the refusal or null.
   */
  #change(change: (table: Table) => Table | null): Promise<string | null> {
    const run = async (): Promise<string | null> => {
      let next: Table | null;
      try {
        next = change(this.#table);
      } catch (error) {
        if (error instanceof IllegalMove) return error.message;
        throw error;
      }
      if (next === null) return null;
      this.#table = { ...next, revision: this.#table.revision + 1 };
      await this.#publish(this.#table);
      return null;
    };
    const result = this.#queue.then(run);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}

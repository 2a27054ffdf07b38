import { gameLine, scoreLine } from './presence.js';
import type { Print } from './print.js';
import { DISCS, MAX_PLAYERS, MIN_PLAYERS, renderBoard } from './rules.js';
import type { Table } from './table.js';

function seatName(table: Table, seat: number): string {
  return table.seats[seat]?.name ?? '?';
}

function disc(seat: number): string {
  return DISCS[seat] ?? '?';
}

/** Prints the board under the `board` topic. */
export function printBoard(table: Table, print: Print): void {
  if (table.game) for (const line of renderBoard(table.game)) print('board', line);
}

/**
 * What a terminal prints when the table changes from `before` (null: just sat down) to `after`, as seen by
 * the player `me`: who dropped where, the board, whose turn, the result and the score. `hostHints` adds
 * what the host can type next (`/start`), for a host who starts games by hand.
 */
export function printTableChange(
  before: Table | null,
  after: Table,
  me: string,
  print: Print,
  hostHints = true,
): void {
  const hostCanStart = hostHints && after.host === me;
  if (after.status === 'waiting') {
    const names = after.seats.map((s) => s.name).join(', ');
    if (!before || before.seats.length !== after.seats.length) {
      const hint = hostCanStart && after.seats.length >= MIN_PLAYERS ? ': /start to begin' : '';
      print('lobby', `at the table: ${names} (${after.seats.length}/${MAX_PLAYERS})${hint}`);
    }
    return;
  }
  const game = after.game;
  if (!game) return;
  const seats = after.seats.map((s, i) => `${disc(i)} ${s.name}`).join(', ');
  const newGame = !before || before.round !== after.round;
  if (newGame && game.moves === 0) {
    print('game', `game ${after.round} begins: ${seats}; line up four to win`);
  } else if (newGame) {
    print('game', `game ${after.round} is on: ${seats}`);
  }
  const earlier = newGame ? null : before.game;
  if (earlier) {
    for (const [seat, on] of earlier.active.entries()) {
      if (on && !game.active[seat]) print('game', `${seatName(after, seat)} left the game and forfeits`);
    }
  }
  const moved = game.last !== null && (earlier === null || earlier.moves !== game.moves);
  if (moved && game.last) {
    print(
      'game',
      `${seatName(after, game.last.seat)} dropped ${disc(game.last.seat)} into column ${game.last.column}`,
    );
  }
  if (moved || newGame) printBoard(after, print);
  if (after.status === 'over') {
    const winner = seatName(after, game.winner);
    const result =
      game.outcome === 'four'
        ? `${winner} wins with four in a row!`
        : game.outcome === 'forfeit'
          ? `${winner} wins: everyone else left.`
          : 'the board is full: a draw.';
    print('game', `game over: ${result} Score: ${scoreLine(after)}`);
    if (hostCanStart) print('game', '/start for a rematch, /quit to leave');
    return;
  }
  const mine = after.seats[game.turn]?.id === me;
  print(
    'game',
    mine ? `move ${game.moves + 1}: your turn (${disc(game.turn)}): /move 1-${game.cols}` : gameLine(after),
  );
}

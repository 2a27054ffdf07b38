/**
 * Four in a row for 2–4 players: discs drop into columns, and the first to line up four (across, down or
 * diagonally) wins. Pure rules, no I/O: the host runs them to decide, every player runs them to refuse a move
 * before sending it.
 */

/** Discs as printed, one per seat in turn order. */
export const DISCS = ['X', 'O', '+', '*'] as const;
/** What an empty cell holds in the board string. */
export const EMPTY = '.';
/** Lines of this length win. */
export const LINE = 4;
/** A game needs this many players… */
export const MIN_PLAYERS = 2;
/** …and takes at most this many. */
export const MAX_PLAYERS = 4;

/** A game in progress or over. The board is `rows` strings of `cols` characters, top row first. */
export interface Game {
  cols: number;
  rows: number;
  /** One string per row, top first; a cell is {@link EMPTY} or the seat index as a digit. */
  board: string[];
  /** Seats still playing (a player who leaves forfeits and is skipped). */
  active: boolean[];
  /** Whose turn it is (seat index). */
  turn: number;
  /** Discs dropped so far. */
  moves: number;
  /** The seat that won, or -1. */
  winner: number;
  /** Why the game ended, or '' while it runs. */
  outcome: '' | 'four' | 'draw' | 'forfeit';
  /** The last move: seat and column (1-based), or null before the first. */
  last: { seat: number; column: number } | null;
}

/** Wider boards for more players, so a game of four still has room to breathe. */
export function boardSize(players: number): { cols: number; rows: number } {
  if (players <= 2) return { cols: 7, rows: 6 };
  if (players === 3) return { cols: 8, rows: 7 };
  return { cols: 9, rows: 7 };
}

/** A fresh game for `players` seats; seat 0 moves first. */
export function newGame(players: number): Game {
  if (!Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) {
    throw new RangeError(`four in a row takes ${MIN_PLAYERS}–${MAX_PLAYERS} players, not ${players}`);
  }
  const { cols, rows } = boardSize(players);
  return {
    cols,
    rows,
    board: Array.from({ length: rows }, () => EMPTY.repeat(cols)),
    active: Array.from({ length: players }, () => true),
    turn: 0,
    moves: 0,
    winner: -1,
    outcome: '',
    last: null,
  };
}

/** A move refused, with the reason to show the player. */
export class IllegalMove extends Error {
  override name = 'IllegalMove';
}

/** Why `seat` may not drop into `column` (1-based) now, or null when the move is legal. */
export function refusal(game: Game, seat: number, column: number): string | null {
  if (game.outcome !== '') return 'the game is over';
  if (seat !== game.turn) return 'it is not your turn';
  if (!Number.isInteger(column) || column < 1 || column > game.cols) {
    return `there is no column ${column}: pick 1–${game.cols}`;
  }
  if (game.board[0]?.[column - 1] !== EMPTY) return `column ${column} is full`;
  return null;
}

/** The game after `seat` drops a disc into `column` (1-based); throws {@link IllegalMove} when refused. */
export function play(game: Game, seat: number, column: number): Game {
  const reason = refusal(game, seat, column);
  if (reason !== null) throw new IllegalMove(reason);
  const board = [...game.board];
  let row = game.rows - 1;
  while ((board[row]?.[column - 1] ?? EMPTY) !== EMPTY) row--;
  const line = board[row] ?? '';
  board[row] = line.slice(0, column - 1) + String(seat) + line.slice(column);
  const next: Game = { ...game, board, moves: game.moves + 1, last: { seat, column } };
  if (makesLine(board, row, column - 1, String(seat))) return { ...next, winner: seat, outcome: 'four' };
  if (!board[0]?.includes(EMPTY)) return { ...next, outcome: 'draw' };
  return { ...next, turn: nextSeat(next, seat) };
}

/** The game after `seat` leaves: skipped from now on; the last one standing wins. */
export function forfeit(game: Game, seat: number): Game {
  if (game.outcome !== '' || !game.active[seat]) return game;
  const active = game.active.map((on, i) => on && i !== seat);
  const left = active.flatMap((on, i) => (on ? [i] : []));
  const next: Game = { ...game, active };
  if (left.length === 1) return { ...next, winner: left[0] ?? -1, outcome: 'forfeit' };
  return game.turn === seat ? { ...next, turn: nextSeat(next, seat) } : next;
}

function nextSeat(game: Game, after: number): number {
  const seats = game.active.length;
  for (let step = 1; step <= seats; step++) {
    const seat = (after + step) % seats;
    if (game.active[seat]) return seat;
  }
  return after;
}

function makesLine(board: string[], row: number, col: number, disc: string): boolean {
  const at = (r: number, c: number): string | undefined => board[r]?.[c];
  for (const [dr, dc] of DIRECTIONS) {
    let count = 1;
    for (const sign of [1, -1]) {
      let r = row + sign * dr;
      let c = col + sign * dc;
      while (at(r, c) === disc) {
        count++;
        r += sign * dr;
        c += sign * dc;
      }
    }
    if (count >= LINE) return true;
  }
  return false;
}

/** Row and column steps of the four directions a line can run in: across, down and both diagonals. */
export const DIRECTIONS = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, -1],
] as const;

/** Columns (1-based) that still take a disc. */
export function openColumns(game: Game): number[] {
  const top = game.board[0] ?? '';
  return top.split('').flatMap((cell, i) => (cell === EMPTY ? [i + 1] : []));
}

/** The board as terminal lines: discs, then the column numbers underneath. */
export function renderBoard(game: Game): string[] {
  // Boards are ASCII (digits and dots), so splitting into UTF-16 units is splitting into cells.
  const lines = game.board.map(
    (row) =>
      `| ${row
        .split('')
        .map((cell) => (cell === EMPTY ? '.' : (DISCS[Number(cell)] ?? '?')))
        .join(' ')} |`,
  );
  lines.push(`+${'-'.repeat(game.cols * 2 + 1)}+`);
  lines.push(`  ${Array.from({ length: game.cols }, (_, i) => String((i + 1) % 10)).join(' ')}`);
  return lines;
}

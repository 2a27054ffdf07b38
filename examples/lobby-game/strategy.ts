import { DIRECTIONS, EMPTY, openColumns, play, type Game } from './rules.js';

/** How often a computer player sees that the next player could win. */
const NOTICES_THREAT = 0.8;

/** Whether `seat` would line up four by dropping into `column` now (whoever's turn it is). */
function winsWith(game: Game, seat: number, column: number): boolean {
  return play({ ...game, turn: seat }, seat, column).outcome === 'four';
}

/** The longest line of `seat`'s discs through the cell a disc dropped into `column` would land in. */
function reach(game: Game, seat: number, column: number): number {
  let row = game.rows - 1;
  while (row >= 0 && game.board[row]?.[column - 1] !== EMPTY) row--;
  const disc = String(seat);
  let longest = 1;
  for (const [dr, dc] of DIRECTIONS) {
    let count = 1;
    for (const sign of [1, -1]) {
      let r = row + sign * dr;
      let c = column - 1 + sign * dc;
      while (game.board[r]?.[c] === disc) {
        count++;
        r += sign * dr;
        c += sign * dc;
      }
    }
    longest = Math.max(longest, count);
  }
  return longest;
}

/**
 * A computer player's column: win if it can, block the player after it when they could win, avoid handing
 * them a win, and otherwise prefer the middle (with chance, so games differ).
 */
export function chooseColumn(game: Game, seat: number, random: () => number = Math.random): number {
  const open = openColumns(game);
  const win = open.find((c) => winsWith(game, seat, c));
  if (win !== undefined) return win;
  // Only the player who moves next is watched, and now and then a threat goes unnoticed: with every
  // threat blocked by the seat before it, games of three or four would all end in a draw.
  const next = play(game, seat, open[0] ?? 1).turn;
  const block = open.find((c) => winsWith(game, next, c));
  if (block !== undefined && random() < NOTICES_THREAT) return block;
  const safe = open.filter((c) => {
    const after = play(game, seat, c);
    return after.outcome !== '' || !openColumns(after).some((n) => winsWith(after, after.turn, n));
  });
  const choices = safe.length > 0 ? safe : open;
  const middle = (game.cols + 1) / 2;
  const scored = choices.map((c) => ({
    c,
    score: 2 * reach(game, seat, c) - Math.abs(c - middle) / 2 + random() * 2,
  }));
  return scored.reduce((best, next) => (next.score > best.score ? next : best)).c;
}

import { describe, expect, it } from 'vitest';

import {
  forfeit,
  IllegalMove,
  newGame,
  openColumns,
  play,
  refusal,
  type Game,
} from '../../examples/lobby-game/rules.js';
import { chooseColumn } from '../../examples/lobby-game/strategy.js';
import { presenceFor } from '../../examples/lobby-game/presence.js';
import { tableFromMetadata, tableToMetadata, type Table } from '../../examples/lobby-game/table.js';

/** Plays columns in turn order from a fresh game. */
function playAll(players: number, columns: number[]): Game {
  return columns.reduce((game, column) => play(game, game.turn, column), newGame(players));
}

describe('lobby game rules (four in a row for 2–4 players)', () => {
  it('sees four across, down and on both diagonals', () => {
    expect(playAll(2, [1, 1, 2, 2, 3, 3, 4])).toMatchObject({ outcome: 'four', winner: 0, moves: 7 });
    expect(playAll(2, [1, 2, 1, 2, 1, 2, 1])).toMatchObject({ outcome: 'four', winner: 0 });
    // X climbs up to the right: 1, 2, 3, 4 on rows 1–4.
    expect(playAll(2, [1, 2, 2, 3, 3, 4, 3, 4, 4, 7, 4])).toMatchObject({ outcome: 'four', winner: 0 });
    // X climbs up to the left.
    expect(playAll(2, [7, 6, 6, 5, 5, 4, 5, 4, 4, 1, 4])).toMatchObject({ outcome: 'four', winner: 0 });
    expect(playAll(3, [1, 2, 3, 1, 2, 3, 1, 2, 3])).toMatchObject({ outcome: '', turn: 0, moves: 9 });
  });

  it('refuses moves out of turn, off the board and into a full column', () => {
    const full = playAll(2, [1, 1, 1, 1, 1, 1]);
    expect(refusal(full, 1, 2)).toBe('it is not your turn');
    expect(refusal(full, 0, 8)).toBe('there is no column 8: pick 1–7');
    expect(refusal(full, 0, 1)).toBe('column 1 is full');
    expect(() => play(full, 0, 1)).toThrow(IllegalMove);
    expect(openColumns(full)).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('skips a player who leaves, and the last one standing wins', () => {
    let game = playAll(3, [1]);
    game = forfeit(game, 1);
    expect(game).toMatchObject({ turn: 2, outcome: '' });
    game = forfeit(game, 0);
    expect(game).toMatchObject({ outcome: 'forfeit', winner: 2 });
  });

  it('computer players always finish a game with legal moves', () => {
    for (const players of [2, 3, 4]) {
      let game = newGame(players);
      while (game.outcome === '') game = play(game, game.turn, chooseColumn(game, game.turn));
      expect(['four', 'draw']).toContain(game.outcome);
    }
  });
});

describe('lobby game table metadata', () => {
  it('round-trips a four-player game within the lobby metadata limits', () => {
    const names = ['A'.repeat(32), 'B'.repeat(32), 'C'.repeat(32), 'D'.repeat(32)];
    const seats = names.map((name, i) => ({ id: `15744476${String(i).repeat(11)}`, name }));
    const game = playAll(4, [1, 2, 3, 4, 5]);
    const table: Table = {
      status: 'playing',
      host: seats[0]?.id ?? '',
      seats,
      round: 12,
      wins: Object.fromEntries(seats.map((s, i) => [s.id, i])),
      revision: 345,
      game,
    };
    const meta = tableToMetadata(table);
    const size = Object.entries(meta).reduce((n, [k, v]) => n + k.length + v.length, 0);
    expect(Object.keys(meta).length).toBeLessThanOrEqual(25);
    expect(size).toBeLessThanOrEqual(1000);
    expect(tableFromMetadata(meta)).toEqual(table);
  });

  it('ignores lobbies that are not tables and tables that do not add up', () => {
    expect(tableFromMetadata({})).toBeNull();
    expect(tableFromMetadata({ game: 'chess' })).toBeNull();
    const meta = tableToMetadata({
      status: 'playing',
      host: '1',
      seats: [
        { id: '1', name: 'A' },
        { id: '2', name: 'B' },
      ],
      round: 1,
      wins: {},
      revision: 1,
      game: newGame(2),
    });
    expect(tableFromMetadata({ ...meta, board: 'nonsense' })).toBeNull();
    expect(tableFromMetadata({ ...meta, seats: '{' })).toBeNull();
    expect(tableFromMetadata({ ...meta, status: 'paused' })).toBeNull();
  });
});

describe('lobby game rich presence', () => {
  it('says whose turn it is and the score, within the platform limit for long names', () => {
    const seats = ['A', 'B', 'C', 'D'].map((c, i) => ({ id: String(i + 1), name: c.repeat(32) }));
    const table: Table = {
      status: 'over',
      host: '1',
      seats,
      round: 3,
      wins: { '1': 2, '2': 1 },
      revision: 9,
      game: { ...playAll(4, [1, 2, 3, 4]), outcome: 'four', winner: 0 },
    };
    const over = presenceFor({ lobbyId: '77', secret: 's', members: 4, table });
    expect(over.details).toBe('Four in a row, game 3 over');
    expect(over.state?.length).toBeLessThanOrEqual(128);
    expect(over.state).toMatch(/^A{32} won in 4 moves · score A{32} 2 · B{32} 1/);
    expect(over.party).toMatchObject({ id: 'table-77', currentSize: 4, maxSize: 4 });
    const playing = presenceFor({
      lobbyId: '77',
      secret: 's',
      members: 2,
      table: { ...table, status: 'playing', seats: seats.slice(0, 2), wins: {}, game: playAll(2, [4]) },
    });
    expect(playing.state).toBe(`move 2: ${'B'.repeat(32)}'s turn (O)`);
    expect(presenceFor({ lobbyId: null, secret: null, members: 0, table: null }).details).toBe('In the menu');
  });
});

import { describe, expect, it } from 'vitest';

import { TableHost } from '../../examples/lobby-game/host.js';
import type { Table } from '../../examples/lobby-game/table.js';

const alice = { id: '1', name: 'Alice' };
const bob = { id: '2', name: 'Bob' };
const carol = { id: '3', name: 'Carol' };

/** A host whose publications are collected, as the lobby's metadata would receive them. */
function hostWithLog(): { host: TableHost; published: Table[] } {
  const published: Table[] = [];
  const host = new TableHost(alice, (table) => {
    published.push(table);
    return Promise.resolve();
  });
  return { host, published };
}

describe("lobby game: the host's authority over the table", () => {
  it('seats arrivals while waiting and needs two players to start', async () => {
    const { host, published } = hostWithLog();
    await host.open();
    expect(await host.start()).toBe('a game needs 2–4 players; invite a friend first');
    await host.joined(bob);
    expect(await host.start()).toBeNull();
    expect(await host.start()).toBe('a game is already running');
    expect(published.map((t) => t.status)).toEqual(['waiting', 'waiting', 'playing']);
    expect(published.map((t) => t.revision)).toEqual([1, 2, 3]);
    expect(host.table.seats).toEqual([alice, bob]);
  });

  it('applies moves in turn, refuses the rest with the reason, and scores the winner', async () => {
    const { host } = hostWithLog();
    await host.joined(bob);
    await host.start();
    expect(await host.move(bob.id, 1, 0)).toBe('it is not your turn');
    expect(await host.move(carol.id, 1, 0)).toBe('you are watching this game, not playing it');
    expect(await host.move(alice.id, 1, 0)).toBeNull();
    // Bob chose on the empty board, but Alice's disc has landed since: his move is refused, not misapplied.
    expect(await host.move(bob.id, 2, 0)).toBe('the board changed before your move arrived; look again');
    for (const [who, column] of [
      [bob, 2],
      [alice, 1],
      [bob, 2],
      [alice, 1],
      [bob, 2],
      [alice, 1],
    ] as const) {
      expect(await host.move(who.id, column, null)).toBeNull();
    }
    expect(host.table).toMatchObject({ status: 'over', wins: { [alice.id]: 1 } });
    expect(host.table.game).toMatchObject({ outcome: 'four', winner: 0 });
    expect(await host.move(bob.id, 3, null)).toBe('no game is running');
  });

  it('lets late arrivals watch, seats them in the rematch, and rotates who moves first', async () => {
    const { host } = hostWithLog();
    await host.joined(bob);
    await host.start();
    await host.joined(carol);
    expect(host.table.seats).toEqual([alice, bob]);
    await host.left(bob.id);
    expect(host.table).toMatchObject({ status: 'over', game: { outcome: 'forfeit', winner: 0 } });
    await host.start();
    expect(host.table.seats).toEqual([carol, alice]);
    expect(host.table.round).toBe(2);
  });

  it('decides concurrent requests one at a time, in the order they came', async () => {
    const { host, published } = hostWithLog();
    await host.joined(bob);
    await host.start();
    const results = await Promise.all([
      host.move(alice.id, 4, 0),
      host.move(alice.id, 5, 0),
      host.move(bob.id, 4, 1),
    ]);
    expect(results).toEqual([null, 'it is not your turn', null]);
    expect(published.at(-1)?.game?.moves).toBe(2);
  });
});

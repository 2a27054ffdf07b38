import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { EmulatorProcess, Terminal } from './lobbyGameProcess.js';

describe('examples/lobby-game: four in a row in separate terminals against one emulator', () => {
  let emulator: EmulatorProcess;
  let http: string;
  const terminals: Terminal[] = [];
  const open = (name: string, args: string[]): Terminal => {
    const terminal = new Terminal(name, ['--emulator', http, '--user', name, ...args]);
    terminals.push(terminal);
    return terminal;
  };

  beforeAll(async () => {
    emulator = new EmulatorProcess(['--auto-consent', '--users', '4', '--no-rpc']);
    http = await emulator.http;
  });
  afterEach(() => {
    for (const terminal of terminals.splice(0)) terminal.kill();
  });
  afterAll(async () => {
    await emulator.stop();
  });

  it('two players: befriend, invite, join, chat, refuse bad input, play to a win, see presence, quit', async () => {
    const alice = open('alice', ['--host']);
    const bob = open('bob', []);
    await alice.next(/\[link\]\s+signed in as Alice \(@alice\) with OAuth2 \+ PKCE; connected/);
    await alice.next(/\[lobby\]\s+opened a table for 4/);
    await bob.next(/\[game\]\s+in the menu: \/host opens a table, or wait for an invite/);

    // Inviting a stranger befriends first; the invite follows the accepted request.
    alice.type('/invite bob');
    await alice.next(/\[friends\]\s+sent a friend request to @bob/);
    await bob.next(/\[friends\]\s+friend request from @alice: \/accept alice/);
    bob.type('/accept alice');
    await bob.next(/\[friends\]\s+you and Alice are friends now/);
    await alice.next(/\[invite\]\s+invited Bob to your table/);
    await bob.next(/\[invite\]\s+Alice invites you to their table: \/join to accept/);
    bob.type('/join');
    await bob.next(/\[invite\]\s+accepted Alice's invite/);
    await bob.next(/\[lobby\]\s+joined Alice's table \(lobby \d+\)/);
    await alice.next(/\[lobby\]\s+Bob sat down at the table/);
    await alice.next(/\[lobby\]\s+at the table: Alice, Bob \(2\/4\): \/start to begin/);

    // Lobby chat, and mistakes that are refused with a reason instead of ending the game.
    bob.type('ready when you are!');
    await alice.next(/\[chat\]\s+Bob: ready when you are!/);
    bob.type('/frobnicate');
    await bob.next(/\[error\]\s+unknown command \/frobnicate: \/help lists the commands/);
    bob.type('/start');
    await bob.next(/\[error\]\s+only the host starts the game/);
    bob.type('/move 1');
    await bob.next(/\[game\]\s+move refused: no game is running/);

    alice.type('/start');
    for (const player of [alice, bob]) {
      await player.next(/\[game\]\s+game 1 begins: X Alice, O Bob; line up four to win/);
    }
    await bob.next(/\[game\]\s+move 1: Alice's turn \(X\)/);
    bob.type('/move 1');
    await bob.next(/\[game\]\s+move refused: it is not your turn/);
    bob.type('/move');
    await bob.next(/\[error\]\s+\/move needs a column number/);

    // Column 1 fills up, X and O in turn (no four anywhere).
    for (let n = 1; n <= 6; n++) await (n % 2 === 1 ? alice : bob).move(n, 1);
    await alice.sees(/move 7: your turn \(X\)/);
    alice.type('/move 1');
    await alice.next(/\[game\]\s+move refused: column 1 is full/);
    alice.type('/move 9');
    await alice.next(/\[game\]\s+move refused: there is no column 9: pick 1–7/);
    alice.type('/move 2');
    for (const [n, player, column] of [
      [8, bob, 3],
      [9, alice, 2],
      [10, bob, 3],
      [11, alice, 2],
      [12, bob, 3],
      [13, alice, 2],
    ] as const) {
      await player.move(n, column);
    }
    for (const player of [alice, bob]) {
      await player.next(/\[game\]\s+Alice dropped X into column 2/);
      await player.next(/\[game\]\s+game over: Alice wins with four in a row! Score: Alice 1 · Bob 0/);
    }
    // Every terminal drew the same final board: X in column 2, four high.
    const finalBoard = (terminal: Terminal): string =>
      terminal.output.split('game over')[0]?.split('[game]').at(-2) ?? '';
    expect(finalBoard(bob)).toBe(finalBoard(alice));
    expect(finalBoard(alice)).toContain('| O X . . . . . |');

    // Bob saw Alice's rich presence go from the lobby to the game, and lists it with his friends.
    expect(bob.output).toMatch(
      /\[presence\]\s+Alice: In a lobby — Waiting for players \(\d\/4\) \[party \d\/4\]/,
    );
    expect(bob.output).toMatch(
      /\[presence\]\s+Alice: Four in a row, game 1 — move \d+: \w+'s turn \([XO]\) \[party 2\/4\]/,
    );
    bob.type('/friends');
    await bob.next(/\[friends\]\s+Alice \(@alice\), online: Four in a row, game 1/);

    // A rematch: the other player moves first this time, and the score carries over.
    alice.type('/start');
    for (const player of [alice, bob]) {
      await player.next(/\[game\]\s+game 2 begins: X Bob, O Alice; line up four to win/);
    }
    await bob.move(1, 4);
    await alice.next(/\[game\]\s+Bob dropped X into column 4/);

    bob.type('/quit');
    await alice.next(/\[lobby\]\s+Bob left the table/);
    await alice.next(/\[game\]\s+Bob left the game and forfeits/);
    await alice.next(/\[game\]\s+game over: Alice wins: everyone else left. Score: Bob 0 · Alice 2/);
    expect(await bob.exited).toBe(0);
    alice.endInput();
    expect(await alice.exited).toBe(0);
    for (const player of [alice, bob]) {
      expect(player.output).not.toMatch(/table-[0-9a-f]{32}|access_token|Bearer |code_verifier/);
      expect(player.output).not.toMatch(/Error:|at .*\.ts:\d+/);
    }
  }, 40_000);

  it('three players: invited at start, joined by themselves, a forfeit, and a winner', async () => {
    // The guests wait in the menu first: an invite reaches only players who are signed in.
    const bob = open('bob', ['--join']);
    const carol = open('carol', ['--join']);
    for (const guest of [bob, carol]) await guest.next(/\[game\]\s+in the menu/);
    const alice = open('alice', ['--host', '--invite', 'bob', '--invite', 'carol', '--start-at', '3']);
    // Alice and Bob are friends from the first test already; Carol is befriended now.
    for (const guest of [bob, carol]) {
      await guest.next(/\[invite\]\s+Alice invites you to their table: joining/);
      await guest.next(/\[lobby\]\s+joined Alice's table/);
    }
    expect(carol.output).toMatch(/\[friends\]\s+friend request from @alice: accepting/);
    // The seats follow the order the guests sat down, which the two guests race for.
    const begins = await alice.next(
      /\[game\]\s+game 1 begins: X Alice, O (Bob|Carol), \+ (Bob|Carol); line up four to win/,
    );
    const seated = { Bob: bob, Carol: carol };
    const [secondName, thirdName] = [begins[1] as 'Bob' | 'Carol', begins[2] as 'Bob' | 'Carol'];
    const [second, third] = [seated[secondName], seated[thirdName]];
    expect(new Set([secondName, thirdName])).toEqual(new Set(['Bob', 'Carol']));
    for (const guest of [bob, carol]) {
      await guest.next(
        new RegExp(
          `\\[game\\]\\s+game 1 begins: X Alice, O ${secondName}, \\+ ${thirdName}; line up four to win`,
        ),
      );
    }
    carol.type('good luck both');
    await alice.sees(/\[chat\]\s+Carol: good luck both/);
    await bob.sees(/\[chat\]\s+Carol: good luck both/);
    third.type('/move 3');
    await third.next(/\[game\]\s+move refused: it is not your turn/);

    await alice.move(1, 1);
    await second.move(2, 2);
    await third.move(3, 3);
    await alice.sees(/move 4: your turn/);
    third.type('/quit');
    expect(await third.exited).toBe(0);
    await alice.next(new RegExp(`\\[game\\]\\s+${thirdName} left the game and forfeits`));
    await second.next(new RegExp(`\\[game\\]\\s+${thirdName} left the game and forfeits`));
    alice.type('/move 1');
    for (const [n, player, column] of [
      [5, second, 2],
      [6, alice, 1],
      [7, second, 2],
      [8, alice, 1],
    ] as const) {
      await player.move(n, column);
    }
    for (const player of [alice, second]) {
      await player.next(
        new RegExp(
          `\\[game\\]\\s+game over: Alice wins with four in a row! Score: Alice 1 · ${secondName} 0 · ${thirdName} 0`,
        ),
      );
    }
    second.endInput();
    alice.endInput();
    expect(await second.exited).toBe(0);
    expect(await alice.exited).toBe(0);
  }, 40_000);
});

describe('examples/lobby-game with no emulator address', () => {
  it('starts its own emulator, plays a whole game against computer players, and exits 0', async () => {
    const game = new Terminal('solo', ['--bots', '2', '--autoplay', '--move-delay', '0']);
    try {
      game.endInput();
      await game.next(/\[game\]\s+emulator started in this process at http:\/\/127\.0\.0\.1:\d+/);
      await game.next(/\[game\]\s+game 1 begins: X Alice, O Bob, \+ Carol; line up four to win/, 20_000);
      await game.next(/\[game\]\s+game over: (\w+ wins|the board is full)/, 20_000);
      expect(await game.exited).toBe(0);
      expect(game.output).toMatch(/\[bot bob\]\s+Alice invites you to their table: joining/);
      expect(game.output).toMatch(/\[chat\]\s+Carol: hi! good luck/);
      expect(game.output).toMatch(/\[game\]\s+bye/);
    } finally {
      game.kill();
    }
  }, 40_000);
});

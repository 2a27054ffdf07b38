/**
 * Catch the Star: one room per Activity instance. A star sits on a 6 × 6 board; the first player to click it
 * scores and it jumps elsewhere; five stars win the round, and a new round starts shortly after. The server
 * decides who was first, so two clicks on the same star score once.
 */
import type { WebSocket } from 'ws';

/** Stars that win a round. */
export const STARS_TO_WIN = 5;
/** Cells on the board. */
export const CELLS = 36;
/** Players in one room (the party size the page shows). */
export const MAX_PLAYERS = 8;
/** How long a finished round shows its winner. */
const NEXT_ROUND_MS = 3000;
/** How long a new socket has to say who it is. */
const HELLO_TIMEOUT_MS = 10_000;
const MAX_ROOMS = 1000;

interface Player {
  name: string;
  score: number;
  sockets: Set<WebSocket>;
}

/** A room as the page sees it. */
export interface RoomState {
  /** The star's cell, or -1 while a winner is shown. */
  star: number;
  /** Counts stars caught, so a click names the star it meant. */
  round: number;
  players: { id: string; name: string; score: number }[];
  winner: string | null;
}

class Room {
  readonly players = new Map<string, Player>();
  star = Math.floor(Math.random() * CELLS);
  round = 1;
  winner: string | null = null;
  timer: NodeJS.Timeout | undefined;

  state(): RoomState {
    return {
      star: this.star,
      round: this.round,
      players: [...this.players].map(([id, p]) => ({ id, name: p.name, score: p.score })),
      winner: this.winner,
    };
  }

  broadcast(): void {
    const text = JSON.stringify({ t: 'state', ...this.state() });
    for (const player of this.players.values()) for (const ws of player.sockets) ws.send(text);
  }

  /** A player clicked the star of `round`; only the first click of a round counts. */
  catch(userId: string, round: number): void {
    const player = this.players.get(userId);
    if (!player || this.winner !== null || round !== this.round) return;
    player.score += 1;
    this.round += 1;
    if (player.score >= STARS_TO_WIN) {
      this.winner = player.name;
      this.star = -1;
      this.timer = setTimeout(() => this.newRound(), NEXT_ROUND_MS);
    } else {
      this.star = (this.star + 1 + Math.floor(Math.random() * (CELLS - 1))) % CELLS;
    }
    this.broadcast();
  }

  newRound(): void {
    for (const player of this.players.values()) player.score = 0;
    this.winner = null;
    this.star = Math.floor(Math.random() * CELLS);
    this.round += 1;
    this.broadcast();
  }
}

/** Every room of the game server, by Activity instance id. */
export class Rooms {
  readonly #rooms = new Map<string, Room>();
  readonly #api: string;

  constructor(api: string) {
    this.#api = api;
  }

  /** A room's state, or undefined when nobody plays in that instance. */
  state(instanceId: string): RoomState | undefined {
    return this.#rooms.get(instanceId)?.state();
  }

  /** Takes a player's socket: its first message must carry the player's access token. */
  accept(instanceId: string, ws: WebSocket): void {
    const hello = setTimeout(() => ws.close(4001, 'say who you are first'), HELLO_TIMEOUT_MS);
    let userId: string | undefined;
    ws.on('error', () => ws.terminate());
    ws.on('message', (data: Buffer, isBinary) => {
      let message: Record<string, unknown>;
      try {
        if (isBinary) throw new Error('binary');
        message = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
      } catch {
        ws.close(4002, 'messages are JSON');
        return;
      }
      if (userId === undefined) {
        clearTimeout(hello);
        if (typeof message.token !== 'string') {
          ws.close(4001, 'say who you are first');
          return;
        }
        void this.#identify(message.token).then(
          (user) => {
            userId = user.id;
            this.#join(instanceId, user, ws);
          },
          () => ws.close(4003, 'that token is not valid'),
        );
        return;
      }
      if (typeof message.catch === 'number') this.#rooms.get(instanceId)?.catch(userId, message.catch);
    });
    ws.on('close', () => {
      clearTimeout(hello);
      if (userId !== undefined) this.#leave(instanceId, userId, ws);
    });
  }

  /** Ends every room (the server is stopping). */
  close(): void {
    for (const room of this.#rooms.values()) {
      clearTimeout(room.timer);
      for (const player of room.players.values()) for (const ws of player.sockets) ws.terminate();
    }
    this.#rooms.clear();
  }

  /** Who a token belongs to, asked of the platform (`GET /users/@me`). */
  async #identify(token: string): Promise<{ id: string; name: string }> {
    const response = await fetch(`${this.#api}/users/@me`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`users/@me answered ${response.status}`);
    const user = (await response.json()) as { id: string; username: string; global_name: string | null };
    return { id: user.id, name: user.global_name ?? user.username };
  }

  #join(instanceId: string, user: { id: string; name: string }, ws: WebSocket): void {
    let room = this.#rooms.get(instanceId);
    if (!room) {
      if (this.#rooms.size >= MAX_ROOMS) {
        ws.close(4004, 'the server is full');
        return;
      }
      room = new Room();
      this.#rooms.set(instanceId, room);
    }
    let player = room.players.get(user.id);
    if (!player) {
      if (room.players.size >= MAX_PLAYERS) {
        ws.close(4004, 'the room is full');
        return;
      }
      player = { name: user.name, score: 0, sockets: new Set() };
      room.players.set(user.id, player);
    }
    player.sockets.add(ws);
    room.broadcast();
  }

  #leave(instanceId: string, userId: string, ws: WebSocket): void {
    const room = this.#rooms.get(instanceId);
    const player = room?.players.get(userId);
    if (!room || !player) return;
    player.sockets.delete(ws);
    if (player.sockets.size === 0) room.players.delete(userId);
    if (room.players.size === 0) {
      clearTimeout(room.timer);
      this.#rooms.delete(instanceId);
    } else {
      room.broadcast();
    }
  }
}

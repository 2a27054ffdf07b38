import { EMPTY, type Game } from './rules.js';

/** The lobby metadata key that marks a lobby as a table of this game. */
const MARKER = 'four-in-a-row';

/** A player at the table. */
export interface Seat {
  id: string;
  name: string;
}

/**
 * Everything the players need to agree on, as the host publishes it in the lobby's metadata. Only the host
 * writes it; everyone (the host included) renders what arrives, so all terminals show the same game.
 */
export interface Table {
  status: 'waiting' | 'playing' | 'over';
  /** The host's user id: the only member whose moves are applied directly and who publishes. */
  host: string;
  /** While waiting: who is at the table; once playing: the seats in turn order. */
  seats: Seat[];
  /** Games played at this table so far (the current one included). */
  round: number;
  /** Games won, by user id. */
  wins: Record<string, number>;
  /** Publications so far; a later one always has a higher number. */
  revision: number;
  game: Game | null;
}

/** The table as lobby metadata (25 keys and 1000 characters at most; four players fit with room to spare). */
export function tableToMetadata(table: Table): Record<string, string> {
  const meta: Record<string, string> = {
    game: MARKER,
    status: table.status,
    host: table.host,
    seats: JSON.stringify(table.seats.map((s) => [s.id, s.name])),
    round: String(table.round),
    wins: JSON.stringify(table.wins),
    rev: String(table.revision),
  };
  const game = table.game;
  if (game) {
    meta.cols = String(game.cols);
    meta.rows = String(game.rows);
    meta.board = game.board.join('/');
    meta.active = game.active.map((on) => (on ? '1' : '0')).join('');
    meta.turn = String(game.turn);
    meta.moves = String(game.moves);
    meta.winner = String(game.winner);
    meta.outcome = game.outcome;
    meta.last = game.last ? `${game.last.seat}:${game.last.column}` : '';
  }
  return meta;
}

function int(value: string | undefined): number | null {
  return value !== undefined && /^-?\d+$/.test(value) ? Number(value) : null;
}

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function seatsFrom(text: string | undefined): Seat[] | null {
  const value = parseJson(text);
  if (!Array.isArray(value)) return null;
  const seats: Seat[] = [];
  for (const entry of value) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') return null;
    seats.push({ id: entry[0], name: entry[1] });
  }
  return seats;
}

function winsFrom(text: string | undefined): Record<string, number> {
  const value = parseJson(text);
  const wins: Record<string, number> = {};
  if (typeof value !== 'object' || value === null) return wins;
  for (const [id, n] of Object.entries(value)) if (typeof n === 'number') wins[id] = n;
  return wins;
}

function gameFrom(meta: Readonly<Record<string, string>>, seats: number): Game | null {
  const cols = int(meta.cols);
  const rows = int(meta.rows);
  const turn = int(meta.turn);
  const moves = int(meta.moves);
  const winner = int(meta.winner);
  const board = meta.board?.split('/');
  const outcome = meta.outcome ?? '';
  if (cols === null || rows === null || turn === null || moves === null || winner === null || !board) {
    return null;
  }
  const cells = new RegExp(`^[${EMPTY}0-${seats - 1}]{${cols}}$`);
  if (board.length !== rows || !board.every((row) => cells.test(row))) return null;
  if (outcome !== '' && outcome !== 'four' && outcome !== 'draw' && outcome !== 'forfeit') return null;
  const active = (meta.active ?? '').split('').map((c) => c === '1');
  if (active.length !== seats) return null;
  const last = /^(\d+):(\d+)$/.exec(meta.last ?? '');
  return {
    cols,
    rows,
    board,
    active,
    turn,
    moves,
    winner,
    outcome,
    last: last ? { seat: Number(last[1]), column: Number(last[2]) } : null,
  };
}

/** The table a lobby's metadata describes, or null when the lobby is not (or not yet) a table of this game. */
export function tableFromMetadata(meta: Readonly<Record<string, string>>): Table | null {
  if (meta.game !== MARKER) return null;
  const status = meta.status;
  const seats = seatsFrom(meta.seats);
  const round = int(meta.round);
  const revision = int(meta.rev);
  if (status !== 'waiting' && status !== 'playing' && status !== 'over') return null;
  if (!seats || round === null || revision === null || typeof meta.host !== 'string') return null;
  const game = status === 'waiting' ? null : gameFrom(meta, seats.length);
  if (status !== 'waiting' && !game) return null;
  return { status, host: meta.host, seats, round, wins: winsFrom(meta.wins), revision, game };
}

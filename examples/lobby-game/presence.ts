import { ActivityPartyPrivacy, ActivityTypes, StatusType, type Activity, type UserHandle } from 'sdkpp';

import { DISCS, MAX_PLAYERS } from './rules.js';
import type { Table } from './table.js';

/** Where the player is, as far as rich presence goes. */
export interface Whereabouts {
  /** The table's lobby, or null in the menu. */
  lobbyId: string | null;
  /** The lobby secret: the join secret an accepted invite hands to a friend. */
  secret: string | null;
  /** Players in the lobby. */
  members: number;
  table: Table | null;
}

/** The platform's limit for an activity's text fields. */
const MAX_ACTIVITY_TEXT = 128;

/** Long names could push a line past the platform's limit: cut it with an ellipsis instead. */
function clip(text: string): string {
  return text.length <= MAX_ACTIVITY_TEXT ? text : `${text.slice(0, MAX_ACTIVITY_TEXT - 1)}…`;
}

/** "Alice 1 · Bob 0": the wins at a table, in seat order. */
export function scoreLine(table: Table): string {
  return table.seats.map((s) => `${s.name} ${table.wins[s.id] ?? 0}`).join(' · ');
}

/** The headline of a game's state: whose turn, or how it ended. */
export function gameLine(table: Table): string {
  const game = table.game;
  if (!game) return `waiting for players (${table.seats.length}/${MAX_PLAYERS})`;
  const name = (seat: number): string => table.seats[seat]?.name ?? '?';
  if (game.outcome === 'draw') return `a draw after ${game.moves} moves`;
  if (game.outcome !== '') return `${name(game.winner)} won in ${game.moves} moves`;
  return `move ${game.moves + 1}: ${name(game.turn)}'s turn (${DISCS[game.turn] ?? '?'})`;
}

/**
 * The rich presence for where the player is. Friends see whose turn it is and the score; the party and
 * join secret make the table joinable from an invite.
 */
export function presenceFor(where: Whereabouts): Activity {
  const { lobbyId, secret, table } = where;
  if (lobbyId === null || secret === null) return { type: ActivityTypes.Playing, details: 'In the menu' };
  const activity: Activity = {
    type: ActivityTypes.Playing,
    party: {
      id: `table-${lobbyId}`,
      currentSize: Math.max(1, where.members),
      maxSize: MAX_PLAYERS,
      privacy: ActivityPartyPrivacy.Public,
    },
    secrets: { join: secret },
  };
  if (!table || table.status === 'waiting') {
    return {
      ...activity,
      details: 'In a lobby',
      state: `Waiting for players (${where.members}/${MAX_PLAYERS})`,
    };
  }
  const over = table.status === 'over';
  const scored = Object.values(table.wins).some((wins) => wins > 0);
  return {
    ...activity,
    details: `Four in a row, game ${table.round}${over ? ' over' : ''}`,
    state: clip(over || scored ? `${gameLine(table)} · score ${scoreLine(table)}` : gameLine(table)),
  };
}

const STATUS_WORDS: Record<StatusType, string> = {
  [StatusType.Online]: 'online',
  [StatusType.Offline]: 'offline',
  [StatusType.Blocked]: 'blocked',
  [StatusType.Idle]: 'idle',
  [StatusType.Dnd]: 'do not disturb',
  [StatusType.Invisible]: 'invisible',
  [StatusType.Streaming]: 'streaming',
  [StatusType.Unknown]: 'unknown',
};

/** What a friend is doing, as their rich presence says: `In a lobby — Waiting for players (1/4) [party 1/4]`. */
export function activityLine(user: UserHandle): string | null {
  const activity = user.gameActivity;
  if (!activity) return null;
  const party = activity.party ? ` [party ${activity.party.currentSize}/${activity.party.maxSize}]` : '';
  const state = activity.state ? ` — ${activity.state}` : '';
  return `${activity.details ?? activity.name ?? 'playing'}${state}${party}`;
}

/** One line of the friends list. */
export function friendLine(user: UserHandle): string {
  const status = STATUS_WORDS[user.status] ?? 'unknown';
  const activity = activityLine(user);
  return `${user.displayName} (@${user.username}), ${status}${activity ? `: ${activity}` : ''}`;
}

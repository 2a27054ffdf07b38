import type { EmulatorContext } from '../context.js';
import type { StoredActivity } from '../social/PresenceService.js';
import type { RelationshipRecord } from '../store/types.js';
import { wireParticipant } from './embeddedUsers.js';

/** Activity fields the SDK reads as text; a null or other value is left out, as its schema wants. */
const TEXT_FIELDS = ['name', 'state', 'state_url', 'details', 'details_url', 'session_id', 'url'] as const;
const ASSET_FIELDS = [
  'large_image',
  'large_text',
  'large_url',
  'small_image',
  'small_text',
  'small_url',
] as const;

function pickText(source: Record<string, unknown>, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An activity as GET_RELATIONSHIPS shows it: only the fields the SDK knows, text as text, no nulls, button
 * labels only (others never see a button's URL), a party size only as `[current, max]`.
 */
export function embeddedPresenceActivity(activity: StoredActivity): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...pickText(activity, TEXT_FIELDS),
    name: typeof activity.name === 'string' ? activity.name : '',
  };
  for (const key of ['type', 'created_at', 'flags'] as const) {
    if (typeof activity[key] === 'number') out[key] = activity[key];
  }
  if (typeof activity.application_id === 'string') out.application_id = activity.application_id;
  if (typeof activity.instance === 'boolean') out.instance = activity.instance;
  if (isRecord(activity.assets)) out.assets = pickText(activity.assets, ASSET_FIELDS);
  if (isRecord(activity.timestamps)) {
    const { start, end } = activity.timestamps;
    out.timestamps = {
      ...(typeof start === 'number' ? { start } : {}),
      ...(typeof end === 'number' ? { end } : {}),
    };
  }
  if (isRecord(activity.party)) {
    const { id, size } = activity.party;
    const pair = Array.isArray(size) && size.length === 2 && size.every((n) => typeof n === 'number');
    out.party = { ...(typeof id === 'string' ? { id } : {}), ...(pair ? { size } : {}) };
  }
  if (Array.isArray(activity.buttons)) {
    out.buttons = activity.buttons
      .map((b: unknown) => (typeof b === 'string' ? b : isRecord(b) ? b.label : undefined))
      .filter((label): label is string => typeof label === 'string');
  }
  return out;
}

/**
 * One relationship as GET_RELATIONSHIPS and RELATIONSHIP_UPDATE send it: its type (0 once it is gone), the user
 * and, between friends, their presence.
 */
export function embeddedRelationship(
  ctx: EmulatorContext,
  record: Pick<RelationshipRecord, 'targetId'> & { type: RelationshipRecord['type'] | 0 },
): Record<string, unknown> {
  const user = ctx.store.user(record.targetId);
  const presence = ctx.presence.of(record.targetId);
  const activity = presence.activities[0];
  return {
    type: record.type,
    user: user
      ? wireParticipant(user)
      : { id: record.targetId, username: 'unknown', discriminator: '0', flags: 0, bot: false },
    // Only friends see each other's presence.
    ...(record.type === 1
      ? {
          presence: {
            status: presence.status,
            activity: activity === undefined ? null : embeddedPresenceActivity(activity),
          },
        }
      : {}),
  };
}

/** The player's platform relationships, as GET_RELATIONSHIPS answers them. */
export function embeddedRelationships(ctx: EmulatorContext, userId: string): Record<string, unknown>[] {
  return ctx.relationships.list('discord', userId).map((record) => embeddedRelationship(ctx, record));
}

import { wireUser } from '../accounts/userObject.js';
import type { RelationshipRecord, UserRecord } from '../store/types.js';
import type { StoredActivity, UserPresence } from './PresenceService.js';
import type { RelationshipGraph } from './Relationships.js';

/** Activity flags the platform derives from an activity (reference §1.10). */
const ActivityFlag = { Join: 1 << 1, PartyPrivacyFriends: 1 << 6, PartyPrivacyVoiceChannel: 1 << 7 } as const;

/**
 * An activity as other users receive it: secrets are never shown to others (joining goes through invites),
 * but a join secret turns on the JOIN flag, and a public party the party-privacy flags.
 */
export function publicActivity(activity: StoredActivity): StoredActivity {
  const { secrets, ...rest } = activity;
  let flags = typeof rest.flags === 'number' ? rest.flags : 0;
  const join = (secrets as { join?: unknown } | undefined)?.join;
  if (typeof join === 'string' && join.length > 0) flags |= ActivityFlag.Join;
  const privacy = (rest.party as { privacy?: unknown } | undefined)?.privacy;
  if (privacy === 1) flags |= ActivityFlag.PartyPrivacyFriends | ActivityFlag.PartyPrivacyVoiceChannel;
  return flags === 0 ? rest : { ...rest, flags };
}

/** A PRESENCE_UPDATE payload (and a READY `presences` entry). */
export function wirePresence(userId: string, presence: UserPresence): Record<string, unknown> {
  return {
    user: { id: userId },
    status: presence.status,
    activities: presence.activities.map(publicActivity),
    client_status: presence.clientStatus,
  };
}

/** A relationship object (RELATIONSHIP_ADD, READY `relationships`, GET /users/@me/relationships). */
export function wireRelationship(record: RelationshipRecord, target: UserRecord): Record<string, unknown> {
  return {
    id: record.targetId,
    type: record.type,
    user: wireUser(target),
    nickname: null,
    since: new Date(record.since).toISOString(),
    is_spam_request: false,
    stranger_request: false,
    user_ignored: false,
  };
}

/** A game relationship object (GAME_RELATIONSHIP_ADD, READY `game_relationships`). */
export function wireGameRelationship(
  record: RelationshipRecord,
  target: UserRecord,
  applicationId: string,
): Record<string, unknown> {
  return {
    id: record.targetId,
    application_id: applicationId,
    type: record.type,
    user: wireUser(target),
    since: new Date(record.since).toISOString(),
    dm_access_type: 0,
    user_id: record.targetId,
  };
}

/** The wire form of a record in either graph. */
export function wireAnyRelationship(
  graph: RelationshipGraph,
  record: RelationshipRecord,
  target: UserRecord,
  applicationId: string,
): Record<string, unknown> {
  return graph === 'discord'
    ? wireRelationship(record, target)
    : wireGameRelationship(record, target, applicationId);
}

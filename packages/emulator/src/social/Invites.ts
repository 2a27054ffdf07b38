import type { MessageActivityRecord } from '../store/types.js';
import { joinableOnDesktop } from './activityPlatforms.js';
import type { PresenceService, StoredActivity } from './PresenceService.js';
import type { Relationships } from './Relationships.js';

/** Why an invite was refused; routes turn it into the platform's error. */
export class InviteRefusal extends Error {
  constructor(
    readonly reason: 'no_party' | 'blocked' | 'invalid' | 'not_recipient' | 'bad_type' | 'platform',
    message: string,
  ) {
    super(message);
    this.name = 'InviteRefusal';
  }
}

/** A host's joinable party: an activity of this application with a party id and a join secret. */
interface JoinableParty {
  partyId: string;
  secret: string;
  /** Whether its activity's supported platforms include desktop. */
  desktop: boolean;
  /** The presence source (gateway session or local-client connection) that set it. */
  source: string;
}

/** What an invite looks like once validated, ready to be stored on its message. */
export interface InviteRequest {
  type: 1 | 5;
  authorId: string;
  recipientId: string;
  /** The session id the SDK says it sent from; the server prefers the source that holds the party. */
  sessionId: string;
}

/**
 * Activity invites as the platform plays them: a Join invite needs the sender's joinable party, a join
 * request needs the recipient's, accepting hands out the host's current join secret, and an invite goes
 * invalid once its party is no longer the host's.
 */
export class Invites {
  readonly #presence: PresenceService;
  readonly #relationships: Relationships;
  readonly #applicationId: string;

  constructor(presence: PresenceService, relationships: Relationships, applicationId: string) {
    this.#presence = presence;
    this.#relationships = relationships;
    this.#applicationId = applicationId;
  }

  /** Validates an invite and returns the activity record its message carries. */
  prepare(request: InviteRequest): MessageActivityRecord {
    if (this.#relationships.blockedEitherWay(request.authorId, request.recipientId)) {
      throw new InviteRefusal('blocked', 'Cannot send an invite to this user.');
    }
    const hostId = request.type === 1 ? request.authorId : request.recipientId;
    const party = this.joinableParty(hostId);
    if (!party) {
      throw new InviteRefusal(
        'no_party',
        request.type === 1
          ? 'You are not in a party of this application that can be joined.'
          : 'That user is not in a party of this application that can be joined.',
      );
    }
    const sessionId = request.type === 1 ? party.source : request.sessionId;
    return { type: request.type, partyId: party.partyId, sessionId, valid: true };
  }

  /** The join secret for a Join invite accepted by its recipient. */
  accept(
    invite: { authorId: string; recipientId: string; activity: MessageActivityRecord | null },
    by: string,
  ): string {
    const activity = invite.activity;
    if (!activity || activity.type !== 1)
      throw new InviteRefusal('bad_type', 'That message is not an activity invite.');
    if (invite.recipientId !== by)
      throw new InviteRefusal('not_recipient', 'That invite was not sent to you.');
    if (this.#relationships.blockedEitherWay(invite.authorId, by)) {
      throw new InviteRefusal('blocked', 'Cannot accept an invite from this user.');
    }
    const party = this.joinableParty(invite.authorId);
    if (!activity.valid || party?.partyId !== activity.partyId) {
      throw new InviteRefusal('invalid', 'This invite is no longer valid.');
    }
    // Games of the SDK and the desktop client are desktop: an activity joinable elsewhere only says no here.
    if (!party.desktop) {
      throw new InviteRefusal('platform', 'This activity cannot be joined on this platform.');
    }
    return party.secret;
  }

  /** Whether an invite still points at its host's current party. */
  stillValid(invite: { authorId: string; recipientId: string; activity: MessageActivityRecord }): boolean {
    const hostId = invite.activity.type === 1 ? invite.authorId : invite.recipientId;
    return this.joinableParty(hostId)?.partyId === invite.activity.partyId;
  }

  /** The user's joinable party in this application, if any. */
  joinableParty(userId: string): JoinableParty | undefined {
    for (const source of this.#presence.sourceKeys(userId)) {
      const state = this.#presence.source(userId, source);
      if (!state || state.status === 'invisible' || state.status === 'offline') continue;
      for (const activity of state.activities) {
        const party = partyOf(activity, this.#applicationId);
        if (party) return { ...party, source };
      }
    }
    return undefined;
  }
}

function partyOf(
  activity: StoredActivity,
  applicationId: string,
): { partyId: string; secret: string; desktop: boolean } | undefined {
  if (activity.application_id !== applicationId) return undefined;
  const partyId = (activity.party as { id?: unknown } | undefined)?.id;
  const secret = (activity.secrets as { join?: unknown } | undefined)?.join;
  return typeof partyId === 'string' && typeof secret === 'string' && partyId !== '' && secret !== ''
    ? { partyId, secret, desktop: joinableOnDesktop(activity) }
    : undefined;
}

import type { SessionContext, SessionFeature } from '../session/SessionContext.js';
import type { InviteEvents } from './InviteEvents.js';
import type { UserStore } from '../social/UserStore.js';
import { ValidationError } from '@sdkpp/protocol';
import { UserHandle } from '../social/UserHandle.js';
import { requireSnowflake } from '../util/snowflake.js';
import { ActivityActionTypes, inviteFromMessage, type ActivityInvite } from './ActivityInvite.js';

/** What the invite feature needs to know about the player's own rich presence. */
export interface OwnActivity {
  /** The wire activity last set with `updateRichPresence`, or null. */
  current(): Record<string, unknown> | null;
}

/** The platform's message content limit. */
const MAX_CONTENT = 2000;

/**
 * Activity invites and join requests: sent as direct messages that carry the party, received from
 * MESSAGE_CREATE (on every connected session of the player) and MESSAGE_UPDATE (validity changes), and
 * accepted for the host's join secret. What can be checked locally (a joinable party of our own, the
 * invite's type) is checked before any request.
 */
export class InviteManager implements SessionFeature {
  readonly #s: SessionContext<InviteEvents>;
  readonly #users: UserStore;
  readonly #own: OwnActivity;
  #sessionId = '';

  constructor(session: SessionContext<InviteEvents>, users: UserStore, own: OwnActivity) {
    this.#s = session;
    this.#users = users;
    this.#own = own;
  }

  onReady(data: Record<string, unknown>): void {
    this.#sessionId = typeof data.session_id === 'string' ? data.session_id : '';
  }

  onDispatch(event: string, data: unknown): void {
    if (event !== 'MESSAGE_CREATE' && event !== 'MESSAGE_UPDATE') return;
    if (typeof data !== 'object' || data === null) return;
    const invite = inviteFromMessage(data as Record<string, unknown>);
    if (!invite || invite.senderId === this.#s.currentUserId()) return;
    if (invite.applicationId !== '' && invite.applicationId !== this.#s.applicationId()) {
      this.#s.log.verbose(`invite for application ${invite.applicationId} (a sibling application)`);
    }
    this.#s.emit(event === 'MESSAGE_CREATE' ? 'activityInviteCreated' : 'activityInviteUpdated', invite);
  }

  /** Invites a user to the player's party; needs a rich presence with a party id and a join secret. */
  async sendInvite(userId: string, content: string): Promise<void> {
    this.#s.requireReady();
    requireSnowflake(userId, 'user');
    if (typeof content !== 'string' || content.length > MAX_CONTENT) {
      throw new ValidationError(`invite text must be at most ${MAX_CONTENT} characters`);
    }
    const activity = this.#own.current();
    const party = activity?.party as { id?: unknown } | undefined;
    const secrets = activity?.secrets as { join?: unknown } | undefined;
    if (typeof party?.id !== 'string' || typeof secrets?.join !== 'string') {
      throw new ValidationError('an invite needs a rich presence with a party id and a join secret');
    }
    await this.#send(userId, content, ActivityActionTypes.Join, party.id);
  }

  /** Asks to join a user's party; the user must be playing this game in a joinable party. */
  async sendJoinRequest(userId: string): Promise<void> {
    this.#s.requireReady();
    requireSnowflake(userId, 'user');
    const partyId = new UserHandle(this.#users, userId).gameActivity?.party?.id;
    if (partyId === undefined || partyId === '') {
      throw new ValidationError('that user is not in a party of this game that can be joined');
    }
    await this.#send(userId, '', ActivityActionTypes.JoinRequest, partyId);
  }

  /** Lets the sender of a join request in: sends them an invite to the player's party. */
  async replyToJoinRequest(invite: ActivityInvite): Promise<void> {
    if (invite.type !== ActivityActionTypes.JoinRequest) {
      throw new ValidationError('only a join request can be replied to');
    }
    await this.sendInvite(invite.senderId, '');
  }

  /** Accepts an invite; resolves with the host's join secret. */
  async accept(invite: ActivityInvite): Promise<string> {
    this.#s.requireReady();
    if (invite.type !== ActivityActionTypes.Join)
      throw new ValidationError('only a Join invite can be accepted');
    if (!invite.isValid) throw new ValidationError('the invite is no longer valid');
    requireSnowflake(invite.senderId, 'user');
    requireSnowflake(invite.messageId, 'message');
    const reply = await this.#s.api<{ secret?: unknown }>({
      method: 'POST',
      route: `/users/${invite.senderId}/messages/${invite.messageId}/accept-activity-invite`,
      json: {},
    });
    if (typeof reply.secret !== 'string') throw new ValidationError('the platform returned no join secret');
    return reply.secret;
  }

  async #send(userId: string, content: string, type: ActivityActionTypes, partyId: string): Promise<void> {
    const applicationId = this.#s.applicationId();
    await this.#s.api({
      method: 'POST',
      route: `/users/${userId}/messages`,
      json: {
        content,
        ...(applicationId ? { application_id: applicationId } : {}),
        activity: { type, party_id: partyId, session_id: this.#sessionId },
      },
    });
  }
}

import { GatewayClose, GatewayOpcode } from '@sdkpp/protocol';
import { applicationProfilesFor } from '../accounts/applicationProfiles.js';
import type { GatewayHub } from '../gateway/GatewayHub.js';
import { shortId, type EmulatorLog } from '../log.js';
import type { EmulatorStore } from '../store/Store.js';
import type { DirectMessages } from './DirectMessages.js';
import type { Invites } from './Invites.js';
import type { PresenceService } from './PresenceService.js';
import { parsePresenceUpdate } from './presenceUpdate.js';
import type { RelationshipChange, Relationships } from './Relationships.js';
import { wireAnyRelationship, wireGameRelationship, wirePresence, wireRelationship } from './wire.js';

/** What {@link wireSocialGateway} connects: the gateway's sessions and the social services. */
export interface SocialGatewayDeps {
  readonly hub: GatewayHub;
  readonly store: EmulatorStore;
  readonly presence: PresenceService;
  readonly relationships: Relationships;
  readonly messages: DirectMessages;
  readonly invites: Invites;
  readonly log: EmulatorLog;
}

/**
 * Connects the social services to the gateway: sessions bring their users online, op 3 sets presence,
 * presence fans out to friends as PRESENCE_UPDATE, relationship changes reach both sides as
 * RELATIONSHIP_* / GAME_RELATIONSHIP_* events, and READY carries the friend list with presences.
 */
export function wireSocialGateway(ctx: SocialGatewayDeps): void {
  const { hub, presence, relationships, store, log } = ctx;
  const applicationId = store.state.application.id;

  hub.on('sessionStarted', (session) => {
    if (session.kind === 'oauth')
      presence.set(session.userId, session.id, { status: 'online', activities: [] });
  });
  hub.on('sessionEnded', (session) => {
    presence.remove(session.userId, session.id);
  });

  hub.onOp(GatewayOpcode.PresenceUpdate, (session, data, connection) => {
    // A child game's activity is its own, under the publisher (the served application) as its parent.
    const child = session.childApplication;
    const update = parsePresenceUpdate(data, {
      applicationId: child?.id ?? applicationId,
      applicationName: child?.name ?? store.state.application.name,
      ...(child ? { parentApplicationId: applicationId } : {}),
      now: store.now(),
    });
    if (typeof update === 'string') {
      log.line('gateway', `session ${shortId(session.id)} sent an invalid presence update: ${update}`);
      connection.close(GatewayClose.DecodeError, `Invalid payload: ${update}`);
      return;
    }
    presence.set(session.userId, session.id, update);
  });

  // An invite stays valid only while its party is still the host's.
  presence.on('changed', (userId) => {
    for (const message of ctx.messages.validInvitesHostedBy(userId)) {
      if (message.activity && !ctx.invites.stillValid({ ...message, activity: message.activity })) {
        ctx.messages.invalidateInvite(message);
      }
    }
  });

  presence.on('changed', (userId, current) => {
    const payload = wirePresence(userId, current);
    for (const friendId of relationships.friendsOf(userId))
      hub.dispatch(friendId, 'PRESENCE_UPDATE', payload);
  });

  relationships.on('changed', (change) => {
    dispatchRelationshipChange(ctx, change);
  });

  hub.addReadyContributor((session) => {
    const userId = session.userId;
    const users = new Map<string, unknown>();
    const wired = (graph: 'discord' | 'game'): Record<string, unknown>[] =>
      relationships.list(graph, userId).flatMap((record) => {
        const target = store.user(record.targetId);
        if (!target) return [];
        const wire =
          graph === 'discord'
            ? wireRelationship(record, target)
            : wireGameRelationship(record, target, applicationId);
        users.set(target.id, wire.user);
        return [wire];
      });
    const discord = wired('discord');
    const game = wired('game');
    return {
      relationships: discord,
      game_relationships: game,
      presences: relationships.friendsOf(userId).map((id) => wirePresence(id, presence.of(id))),
      users: [...users.values()],
      // The game identities of the user and of everyone in their (unified) friends list.
      user_application_profiles: applicationProfilesFor(store.state, new Set([userId, ...users.keys()])),
    };
  });
}

/** RELATIONSHIP_ADD (also for a type change) or _REMOVE to the owner; friends learn each other's presence. */
function dispatchRelationshipChange(ctx: SocialGatewayDeps, change: RelationshipChange): void {
  const { hub, store, presence } = ctx;
  const prefix = change.graph === 'discord' ? 'RELATIONSHIP' : 'GAME_RELATIONSHIP';
  const target = store.user(change.targetId);
  if (change.record && target) {
    const wire = wireAnyRelationship(change.graph, change.record, target, store.state.application.id);
    hub.dispatch(change.ownerId, `${prefix}_ADD`, { ...wire, should_notify: change.record.type === 3 });
    if (change.record.type === 1) {
      hub.dispatch(
        change.ownerId,
        'PRESENCE_UPDATE',
        wirePresence(change.targetId, presence.of(change.targetId)),
      );
    }
  } else if (change.previousType !== null) {
    const base = { id: change.targetId, type: change.previousType };
    hub.dispatch(
      change.ownerId,
      `${prefix}_REMOVE`,
      change.graph === 'game'
        ? { ...base, application_id: store.state.application.id, user_id: change.targetId }
        : base,
    );
  }
}

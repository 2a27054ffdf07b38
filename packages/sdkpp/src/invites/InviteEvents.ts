import type { ActivityInvite } from './ActivityInvite.js';

/** Events of activity invites, each with its argument tuple (part of the client's events). */
export interface InviteEvents {
  /**
   * An activity invite or join request arrived. Fires on every connected session of the player, so each of
   * their devices can show it.
   */
  activityInviteCreated: [invite: ActivityInvite];
  /** An invite changed, e.g. it is no longer valid because the host's party ended or changed. */
  activityInviteUpdated: [invite: ActivityInvite];
}

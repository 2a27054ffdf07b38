import type { DeauthorizedError } from '../errors/index.js';
import type { ActivityInvite } from '../invites/ActivityInvite.js';
import type { ClientError, ClientStatus } from './ClientStatus.js';

/** Events of a `Client`, each with its argument tuple. */
export interface ClientEvents {
  /** The connection status changed; `errorDetail` holds a close code when `error` is UnexpectedClose. */
  statusChanged: [status: ClientStatus, error: ClientError, errorDetail: number];
  /** The token passed to `updateToken` is about to expire (fires once per token). */
  tokenExpiring: [expiresAt: number];
  /** A refresh failed with `invalid_grant`: the user's link is gone (revoked, unmerged or banned). */
  deauthorized: [error: DeauthorizedError];
  /** A user's data changed. */
  userUpdated: [userId: string];
  /**
   * A relationship was created or changed type (a request arrived, was accepted, a block). `isDiscord` is
   * false for this game's own friend graph.
   */
  relationshipCreated: [userId: string, isDiscordRelationshipUpdate: boolean];
  /** A relationship ended (rejected, cancelled, removed, unblocked). */
  relationshipDeleted: [userId: string, isDiscordRelationshipUpdate: boolean];
  /** A user in the friends list changed in a way that may move them between groups (status, game, type). */
  relationshipGroupsUpdated: [userId: string];
  /**
   * An activity invite or join request arrived. Fires on every connected session of the player, so each of
   * their devices can show it.
   */
  activityInviteCreated: [invite: ActivityInvite];
  /** An invite changed, e.g. it is no longer valid because the host's party ended or changed. */
  activityInviteUpdated: [invite: ActivityInvite];
  /** A message arrived or was sent: a direct message (activity invites included) or a lobby message. */
  messageCreated: [messageId: string];
  /** A message was edited, or the game backend changed its moderation metadata. */
  messageUpdated: [messageId: string];
  /** A message was deleted; `channelId` is the other user's id for a direct message, the lobby id in a lobby. */
  messageDeleted: [messageId: string, channelId: string];
  /**
   * A lobby became available to the player: created, joined, added by the game backend, or recovered after a
   * reconnect. It may fire more than once for one lobby.
   */
  lobbyCreated: [lobbyId: string];
  /** A lobby's metadata or linked channel changed. */
  lobbyUpdated: [lobbyId: string];
  /** A lobby is no longer available: the player left or was removed, or it was deleted or expired. */
  lobbyDeleted: [lobbyId: string];
  /** A user joined a lobby the player is in. */
  lobbyMemberAdded: [lobbyId: string, memberId: string];
  /** A member's metadata, flags, additional name or connection changed. */
  lobbyMemberUpdated: [lobbyId: string, memberId: string];
  /** A member left or was removed from a lobby the player is in. */
  lobbyMemberRemoved: [lobbyId: string, memberId: string];
  /**
   * The player accepted an invite in the desktop client (or clicked Join there): join the party with the
   * secret. `applicationId` is the invite's application (a sibling's id for a publisher's other game).
   * Needs {@link Client.watchLocalClient}.
   */
  activityJoin: [joinSecret: string, applicationId: string];
  /** Any other event subscribed on the desktop client (e.g. GUILD_STATUS), as it arrived. */
  localClientEvent: [event: string, data: unknown];
  /** Every gateway dispatch, for diagnostics. */
  dispatch: [event: string, data: unknown];
  /**
   * Someone joined (`added`) or left the voice call of a lobby the player is in, whether or not the player is
   * in the call.
   */
  voiceParticipantChanged: [lobbyId: string, memberId: string, added: boolean];
  /**
   * An HTTP request started (`waiting`, with the seconds it will wait) or stopped waiting on a rate limit;
   * `route` is the request, e.g. `POST /users/123/messages`. While any request waits, the status shows
   * {@link ClientStatus.HttpWait}. Waiting requests are sent again by themselves.
   */
  httpWait: [waiting: boolean, retryAfterSeconds: number, route: string];
  /**
   * With {@link Client.setNoAudioInputThreshold} set: the microphone started delivering sound at or above
   * the threshold (`true`, at once) or stayed below it for a second (`false`), while in a call. Only changes
   * are reported.
   */
  audioInputDetected: [inputDetected: boolean];
}

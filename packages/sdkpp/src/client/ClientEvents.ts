import type { DeauthorizedError } from '@sdkpp/protocol';
import type { VoiceEvents } from '../voice/call/VoiceEvents.js';
import type { InviteEvents } from '../invites/InviteEvents.js';
import type { LobbyEvents } from '../lobbies/LobbyEvents.js';
import type { MessageEvents } from '../chat/MessageEvents.js';
import type { SocialEvents } from '../social/SocialEvents.js';
import type { GuildStatus } from '../guilds/guildStatus.js';
import type { ClientError, ClientStatus } from './ClientStatus.js';

/**
 * Events of a `Client`, each with its argument tuple: the connection's and the local client's own, and those
 * of each feature (users and relationships, messages, invites, lobbies, calls).
 */
export interface ClientEvents extends SocialEvents, MessageEvents, InviteEvents, LobbyEvents, VoiceEvents {
  /** The connection status changed; `errorDetail` holds a close code when `error` is UnexpectedClose. */
  statusChanged: [status: ClientStatus, error: ClientError, errorDetail: number];
  /** The token passed to `updateToken` is about to expire (fires once per token). */
  tokenExpiring: [expiresAt: number];
  /** A refresh failed with `invalid_grant`: the user's link is gone (revoked, unmerged or banned). */
  deauthorized: [error: DeauthorizedError];
  /**
   * The player accepted an invite in the desktop client (or clicked Join there): join the party with the
   * secret. `applicationId` is the invite's application (a sibling's id for a publisher's other game).
   * Needs {@link Client.watchLocalClient}.
   */
  activityJoin: [joinSecret: string, applicationId: string];
  /**
   * A guild watched with {@link Client.subscribeGuildStatus} changed (its name or icon), as the desktop client
   * reports it.
   */
  guildStatus: [status: GuildStatus];
  /** Any event subscribed on the desktop client with `subscribeLocalClientEvent`, as it arrived. */
  localClientEvent: [event: string, data: unknown];
  /** Every gateway dispatch, for diagnostics. */
  dispatch: [event: string, data: unknown];
  /**
   * An HTTP request started (`waiting`, with the seconds it will wait) or stopped waiting on a rate limit;
   * `route` is the request, e.g. `POST /users/123/messages`. While any request waits, the status shows
   * {@link ClientStatus.HttpWait}. Waiting requests are sent again by themselves.
   */
  httpWait: [waiting: boolean, retryAfterSeconds: number, route: string];
}

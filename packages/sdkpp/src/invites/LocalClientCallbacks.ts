import type { ActivityInvite } from './ActivityInvite.js';
import { inviteFromLocalClient } from './localClientInvite.js';
import type { LogWriter } from '../logging/index.js';
import { guildStatusFromWire, type GuildStatus } from '../guilds/guildStatus.js';

/** Where {@link LocalClientCallbacks} hands what the desktop client sent, as the client's events. */
export interface LocalClientEventSink {
  /** Our application id ('' before one is set): the application of a join that names none. */
  applicationId(): string;
  /** ACTIVITY_JOIN: the player joins from the desktop client. */
  activityJoin(joinSecret: string, applicationId: string): void;
  /** ACTIVITY_INVITE or ACTIVITY_JOIN_REQUEST, with the sender as the desktop client described it. */
  invite(invite: ActivityInvite, sender: unknown): void;
  /** GUILD_STATUS of a watched guild. */
  guildStatus(status: GuildStatus): void;
  /** Any other subscribed event, as it arrived. */
  other(evt: string, data: unknown): void;
  /** A game callback threw; `name` says which. */
  callbackError(error: unknown, name: string): void;
  log: LogWriter;
}

/** Game callback for the desktop client's authorize requests. */
export type AuthorizeRequestCallback = (data: unknown) => void;
/** Game callback for joins from the desktop client. */
export type ActivityJoinCallback = (joinSecret: string) => void;
/** Game callback for joins from the desktop client, with the invite's application. */
export type ActivityJoinWithApplicationCallback = (applicationId: string, joinSecret: string) => void;

/**
 * The game's callbacks for desktop-client events, and the routing of each event to them and to the client's
 * events. A malformed event is logged and dropped; a throwing callback is reported, never rethrown.
 */
export class LocalClientCallbacks {
  /** Called with AUTHORIZE_REQUEST's data. */
  authorizeRequest: AuthorizeRequestCallback | undefined;
  /** Called with ACTIVITY_JOIN's secret. */
  activityJoin: ActivityJoinCallback | undefined;
  /** Called with ACTIVITY_JOIN's application and secret. */
  activityJoinWithApplication: ActivityJoinWithApplicationCallback | undefined;
  /** Called when the desktop client's device authorization screen closes. */
  authorizeDeviceScreenClosed: (() => void) | undefined;
  readonly #sink: LocalClientEventSink;

  constructor(sink: LocalClientEventSink) {
    this.#sink = sink;
  }

  /** Handles one event the desktop client dispatched. */
  route(evt: string, data: unknown): void {
    switch (evt) {
      case 'AUTHORIZE_REQUEST':
        this.#run('authorizeRequestCallback', () => this.authorizeRequest?.(data));
        return;
      case 'ACTIVITY_JOIN':
        this.#join(data);
        return;
      case 'AUTHORIZE_DEVICE_SCREEN_CLOSED':
        this.#run('authorizeDeviceScreenClosedCallback', () => this.authorizeDeviceScreenClosed?.());
        this.#sink.other(evt, data);
        return;
      case 'ACTIVITY_JOIN_REQUEST':
      case 'ACTIVITY_INVITE': {
        const invite = inviteFromLocalClient(evt, data, this.#sink.applicationId());
        if (!invite) {
          this.#sink.log.warn(`ignored a malformed ${evt} from the desktop client`);
          return;
        }
        this.#sink.invite(invite, (data as { user?: unknown }).user);
        return;
      }
      case 'GUILD_STATUS': {
        const status = guildStatusFromWire(data);
        if (status) this.#sink.guildStatus(status);
        else this.#sink.log.warn('ignored a malformed GUILD_STATUS from the desktop client');
        // Games that subscribed through subscribeLocalClientEvent still get it as it arrived.
        this.#sink.other(evt, data);
        return;
      }
      default:
        this.#sink.other(evt, data);
    }
  }

  #join(data: unknown): void {
    const d = (typeof data === 'object' && data !== null ? data : {}) as {
      secret?: unknown;
      application_id?: unknown;
    };
    if (typeof d.secret !== 'string' || d.secret === '') {
      this.#sink.log.warn('ignored an ACTIVITY_JOIN without a secret from the desktop client');
      return;
    }
    const secret = d.secret;
    const applicationId =
      typeof d.application_id === 'string' && d.application_id !== ''
        ? d.application_id
        : this.#sink.applicationId();
    this.#sink.activityJoin(secret, applicationId);
    this.#run('activityJoinCallback', () => this.activityJoin?.(secret));
    this.#run('activityJoinWithApplicationCallback', () =>
      this.activityJoinWithApplication?.(applicationId, secret),
    );
  }

  #run(name: string, callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.#sink.callbackError(error, name);
    }
  }
}

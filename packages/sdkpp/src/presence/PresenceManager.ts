import { ClientNotReadyError, ValidationError } from '@sdkpp/protocol';
import { statusToWire, type StatusType } from './StatusType.js';
import type { GatewayConnection } from '../gateway/GatewayConnection.js';
import { GatewayOpcode } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import type { IpcTransport, RpcError } from '../rpc/IpcTransport.js';
import type { Clock } from '@sdkpp/protocol';
import type { Activity } from './Activity.js';
import { activityToWire } from './activityWire.js';
import { PresenceCoalescer } from './PresenceCoalescer.js';

/** Options of a {@link PresenceManager}. */
export interface PresenceManagerOptions {
  log: LogWriter;
  clock: Clock;
  /** The gateway connection while the client is Ready, else undefined. */
  readyGateway: () => GatewayConnection | undefined;
  applicationId: () => string | undefined;
  /** A connected transport to the local client, or undefined when none runs (or RPC is off). */
  localClient: () => Promise<IpcTransport | undefined>;
  /** Why the last desktop client refused the game (e.g. 4000 for an unknown application id), if it did. */
  localClientRefusal?: () => RpcError | undefined;
}

type WireActivity = Record<string, unknown>;

/**
 * Rich presence: through the gateway when the client is Ready (coalesced to the platform's 5 per 20 s), else
 * through a local desktop client over RPC, which needs no sign-in.
 */
export class PresenceManager {
  readonly #o: PresenceManagerOptions;
  readonly #coalescer: PresenceCoalescer<WireActivity | null>;
  #current: WireActivity | null = null;
  #status: 'online' | 'idle' | 'dnd' | 'invisible' = 'online';
  /** The desktop client that shows an activity set before the connection, to be cleared once Ready. */
  #rpcShowing: IpcTransport | undefined;

  constructor(options: PresenceManagerOptions) {
    this.#o = options;
    this.#coalescer = new PresenceCoalescer(options.clock, (activity) => {
      this.#sendToGateway(activity);
    });
  }

  /** The activity last set (wire form, with its secrets), or null. */
  get current(): WireActivity | null {
    return this.#current;
  }

  /** Validates and sets the activity; throws `ValidationError` before any I/O for a bad one. */
  async update(activity: Activity): Promise<void> {
    const wire = activityToWire(activity);
    const own = this.#o.applicationId();
    if (activity.applicationId !== undefined && own && activity.applicationId !== own) {
      throw new ValidationError(
        `activity.applicationId ${activity.applicationId} is not this client's application (${own}): the platform attributes an activity to the token's application`,
      );
    }
    await this.#set(wire);
  }

  /** Clears the activity. */
  async clear(): Promise<void> {
    await this.#set(null);
  }

  /** Sets the online status sent with the presence; needs a Ready gateway (a local client sets its own). */
  setStatus(status: StatusType): Promise<void> {
    const wire = statusToWire(status);
    if (wire === undefined) {
      return Promise.reject(new ValidationError('the status must be Online, Idle, Dnd or Invisible'));
    }
    if (!this.#o.readyGateway()) {
      return Promise.reject(new ClientNotReadyError('setting the online status needs a Ready connection'));
    }
    this.#status = wire;
    this.#coalescer.submit(this.#current);
    return Promise.resolve();
  }

  /** After a new session (READY), the platform has forgotten the presence: send it again. */
  onReady(): void {
    if (this.#current || this.#status !== 'online') this.#coalescer.submit(this.#current);
    // The gateway now carries the presence; the desktop client's copy would show it twice.
    const rpc = this.#rpcShowing;
    this.#rpcShowing = undefined;
    if (rpc?.connected) {
      rpc.request('SET_ACTIVITY', { pid: process.pid, activity: null }).catch((error: unknown) => {
        this.#o.log.warn(`clearing the desktop client's activity failed: ${(error as Error).message}`);
      });
    }
  }

  /** Stops a waiting update (on disconnect). */
  cancel(): void {
    this.#coalescer.cancel();
  }

  async #set(activity: WireActivity | null): Promise<void> {
    this.#current = activity;
    if (this.#o.readyGateway()) {
      this.#coalescer.submit(activity);
      return;
    }
    const rpc = await this.#o.localClient();
    if (!rpc) {
      // A desktop client that refused the game says why (its close code); without one, the client isn't ready.
      const refusal = this.#o.localClientRefusal?.();
      if (refusal) {
        this.#o.log.warn(`rich presence: the desktop client refused the game (${refusal.message})`);
        throw refusal;
      }
      throw new ClientNotReadyError('rich presence needs a Ready connection or a running local client');
    }
    await rpc.request('SET_ACTIVITY', { pid: process.pid, activity });
    this.#rpcShowing = activity ? rpc : undefined;
    this.#o.log.info(`presence ${activity ? 'set' : 'cleared'} through the local client`);
  }

  #sendToGateway(activity: WireActivity | null): void {
    const gateway = this.#o.readyGateway();
    if (!gateway) return;
    const applicationId = this.#o.applicationId();
    const activities = activity
      ? [{ ...activity, ...(applicationId ? { application_id: applicationId } : {}) }]
      : [];
    gateway.send(GatewayOpcode.PresenceUpdate, { since: null, activities, status: this.#status, afk: false });
    this.#o.log.verbose(`presence ${activity ? 'updated' : 'cleared'} through the gateway`);
  }
}

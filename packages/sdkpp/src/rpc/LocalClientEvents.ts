import type { LogWriter } from '../logging/index.js';
import type { Clock, TimerHandle } from '@sdkpp/protocol';
import { RpcError, subscriptionKey, type IpcTransport } from './IpcTransport.js';

/** How often to look for a desktop client while the game wants its events and none is running. */
const RESCAN_MS = 5_000;

/** One wanted subscription. */
interface Subscription {
  evt: string;
  args: Record<string, unknown>;
}

/** Options of {@link LocalClientEvents}. */
export interface LocalClientEventsOptions {
  /** A connected transport, or undefined when no desktop client answers. */
  transport: () => Promise<IpcTransport | undefined>;
  /** Receives every subscribed event. */
  deliver: (evt: string, data: unknown) => void;
  log: LogWriter;
  clock: Clock;
}

/**
 * The desktop client's events the game asked for (AUTHORIZE_REQUEST, ACTIVITY_JOIN, …): subscribes when a
 * desktop client is found, keeps looking for one while none runs, and relies on the transport to renew the
 * subscriptions after the desktop client restarts.
 */
export class LocalClientEvents {
  readonly #o: LocalClientEventsOptions;
  /** Wanted subscriptions by {@link subscriptionKey}: the event and its arguments (GUILD_STATUS's guild). */
  readonly #wanted = new Map<string, Subscription>();
  readonly #listening = new WeakSet<IpcTransport>();
  #transport: IpcTransport | undefined;
  #retry: TimerHandle | undefined;
  #closed = false;

  constructor(options: LocalClientEventsOptions) {
    this.#o = options;
  }

  /** Whether an event is wanted. */
  wants(evt: string): boolean {
    for (const wanted of this.#wanted.values()) if (wanted.evt === evt) return true;
    return false;
  }

  /** Subscribes to events (now if a desktop client runs, else as soon as one is found). */
  async want(...events: string[]): Promise<void> {
    const added = events
      .map((evt) => ({ evt, args: {} }))
      .filter((sub) => !this.#wanted.has(subscriptionKey(sub.evt, sub.args)));
    for (const sub of added) this.#wanted.set(subscriptionKey(sub.evt, sub.args), sub);
    const { transport, adopted } = await this.#connect();
    // A transport adopted just now was subscribed to everything wanted, these included.
    if (!transport || adopted) return;
    await Promise.all(added.map((sub) => this.#subscribe(transport, sub)));
  }

  /**
   * Subscribes to an event with arguments (GUILD_STATUS of one guild). Unlike {@link want}, a refusal by a
   * running desktop client rejects with its `RpcError` and the subscription is dropped; with none running it
   * is made once one is found.
   */
  async wantWith(evt: string, args: Record<string, unknown>): Promise<void> {
    const key = subscriptionKey(evt, args);
    if (this.#wanted.has(key)) return;
    this.#wanted.set(key, { evt, args });
    const { transport } = await this.#connect();
    if (!transport) return;
    // A transport adopted just now subscribed this already (a refusal only logged there); asking again is
    // harmless and gives the caller the desktop client's answer.
    try {
      await transport.subscribe(evt, args);
    } catch (error) {
      this.#wanted.delete(key);
      throw error;
    }
  }

  /** Stops an event (with the arguments it was wanted with). */
  async unwant(evt: string, args: Record<string, unknown> = {}): Promise<void> {
    if (!this.#wanted.delete(subscriptionKey(evt, args))) return;
    const transport = this.#transport;
    if (transport?.connected) {
      await transport.unsubscribe(evt, args).catch((error: unknown) => {
        this.#o.log.warn(`unsubscribing from ${evt} failed: ${(error as Error).message}`);
      });
    }
  }

  /** Stops looking for a desktop client. */
  close(): void {
    this.#closed = true;
    this.#o.clock.clearTimeout(this.#retry);
    this.#retry = undefined;
  }

  async #connect(): Promise<{ transport: IpcTransport | undefined; adopted: boolean }> {
    const transport = await this.#o.transport();
    if (!transport) {
      this.#scheduleRetry();
      return { transport: undefined, adopted: false };
    }
    const adopted = !this.#listening.has(transport);
    if (adopted) {
      this.#listening.add(transport);
      transport.on('dispatch', (evt, data) => {
        if (this.wants(evt)) this.#o.deliver(evt, data);
      });
      this.#transport = transport;
      // Everything wanted before this transport existed is subscribed now.
      await Promise.all([...this.#wanted.values()].map((sub) => this.#subscribe(transport, sub)));
    }
    return { transport, adopted };
  }

  async #subscribe(transport: IpcTransport, { evt, args }: Subscription): Promise<void> {
    try {
      await transport.subscribe(evt, args);
      this.#o.log.verbose(`subscribed to ${evt} on the desktop client`);
    } catch (error) {
      // A refusal ends the want: the transport forgot it too, so no reconnect sends it again.
      if (error instanceof RpcError && error.code !== undefined)
        this.#wanted.delete(subscriptionKey(evt, args));
      this.#o.log.warn(`subscribing to ${evt} failed: ${(error as Error).message}`);
    }
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retry !== undefined || this.#wanted.size === 0) return;
    this.#retry = this.#o.clock.setTimeout(
      () => {
        this.#retry = undefined;
        void this.#connect();
      },
      RESCAN_MS,
      { unref: true },
    );
  }
}

import type { LogWriter } from '../logging/index.js';
import type { Clock, TimerHandle } from '@sdkpp/protocol';
import type { IpcTransport } from './IpcTransport.js';

/** How often to look for a desktop client while the game wants its events and none is running. */
const RESCAN_MS = 5_000;

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
  readonly #wanted = new Set<string>();
  readonly #listening = new WeakSet<IpcTransport>();
  #transport: IpcTransport | undefined;
  #retry: TimerHandle | undefined;
  #closed = false;

  constructor(options: LocalClientEventsOptions) {
    this.#o = options;
  }

  /** Whether an event is wanted. */
  wants(evt: string): boolean {
    return this.#wanted.has(evt);
  }

  /** Subscribes to events (now if a desktop client runs, else as soon as one is found). */
  async want(...events: string[]): Promise<void> {
    const added = events.filter((evt) => !this.#wanted.has(evt));
    for (const evt of added) this.#wanted.add(evt);
    const { transport, adopted } = await this.#connect();
    // A transport adopted just now was subscribed to everything wanted, these included.
    if (!transport || adopted) return;
    await Promise.all(added.map((evt) => this.#subscribe(transport, evt)));
  }

  /** Stops an event. */
  async unwant(evt: string): Promise<void> {
    if (!this.#wanted.delete(evt)) return;
    const transport = this.#transport;
    if (transport?.connected) {
      await transport.unsubscribe(evt).catch((error: unknown) => {
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
        if (this.#wanted.has(evt)) this.#o.deliver(evt, data);
      });
      this.#transport = transport;
      // Everything wanted before this transport existed is subscribed now.
      await Promise.all([...this.#wanted].map((evt) => this.#subscribe(transport, evt)));
    }
    return { transport, adopted };
  }

  async #subscribe(transport: IpcTransport, evt: string): Promise<void> {
    try {
      await transport.subscribe(evt);
      this.#o.log.verbose(`subscribed to ${evt} on the desktop client`);
    } catch (error) {
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

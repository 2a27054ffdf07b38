import type { Clock } from '@sdkpp/protocol';
import type { MessageStore, WireMessage } from './MessageStore.js';

/** History reaches back at most 72 hours (the platform's window for DMs and lobbies). */
export const HISTORY_WINDOW_MS = 72 * 60 * 60_000;

/**
 * Answers history requests of a channel from the {@link MessageStore} when it can, and otherwise with one
 * request, shared by concurrent callers asking for no more than it fetches.
 */
export class HistoryLoader {
  readonly #store: MessageStore;
  readonly #clock: Clock;
  /** Fetches the newest `limit` messages of a channel, newest first, and puts them in the store. */
  readonly #fetch: (channelId: string, limit: number) => Promise<WireMessage[]>;
  readonly #inFlight = new Map<string, { limit: number; done: Promise<WireMessage[]> }>();

  constructor(
    store: MessageStore,
    clock: Clock,
    fetch: (channelId: string, limit: number) => Promise<WireMessage[]>,
  ) {
    this.#store = store;
    this.#clock = clock;
    this.#fetch = fetch;
  }

  /** The newest `limit` messages of the channel within the window, oldest first. */
  async load(channelId: string, limit: number): Promise<WireMessage[]> {
    const notBefore = this.#clock.now() - HISTORY_WINDOW_MS;
    let messages = this.#store.cached(channelId, limit, notBefore);
    const pending = this.#inFlight.get(channelId);
    if (!messages && pending && pending.limit >= limit) {
      // The same channel is being fetched with at least this limit: its reply answers this call too.
      await pending.done.catch(() => undefined);
      messages = this.#store.cached(channelId, limit, notBefore);
    }
    if (messages) return messages;
    const done = this.#fetchAndFill(channelId, limit);
    this.#inFlight.set(channelId, { limit, done });
    let newestFirst: WireMessage[];
    try {
      newestFirst = await done;
    } finally {
      if (this.#inFlight.get(channelId)?.done === done) this.#inFlight.delete(channelId);
    }
    return this.#store.cached(channelId, limit, notBefore) ?? newestFirst.slice(0, limit).reverse();
  }

  /** Forgets requests under way (their replies still fill the store, which may have been cleared). */
  clear(): void {
    this.#inFlight.clear();
  }

  async #fetchAndFill(channelId: string, limit: number): Promise<WireMessage[]> {
    const newestFirst = await this.#fetch(channelId, limit);
    this.#store.fill(channelId, newestFirst, limit);
    return newestFirst;
  }
}

/** Maps each event name to the tuple of arguments its listeners receive. */
export type EventMap = { [event: string]: unknown[] };

/** A function called with an event's arguments. */
export type Listener<Args extends unknown[]> = (...args: Args) => void;
/** Listeners are stored untyped; the public methods keep the types. */
type AnyListener = (...args: unknown[]) => void;

/**
 * A small typed event emitter. A listener that throws never breaks the emitter or the other listeners:
 * the error goes to {@link TypedEmitter.onListenerError} instead, so a game's bug cannot take the SDK down.
 */
export class TypedEmitter<Events extends EventMap> {
  readonly #listeners = new Map<keyof Events, Set<AnyListener>>();

  /** Adds a listener. */
  on<E extends keyof Events>(event: E, listener: Listener<Events[E]>): this {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as unknown as AnyListener);
    return this;
  }

  /** Adds a listener that runs at most once. */
  once<E extends keyof Events>(event: E, listener: Listener<Events[E]>): this {
    const wrapper: Listener<Events[E]> = (...args) => {
      this.off(event, wrapper);
      listener(...args);
    };
    return this.on(event, wrapper);
  }

  /** Removes a listener added with `on`. */
  off<E extends keyof Events>(event: E, listener: Listener<Events[E]>): this {
    this.#listeners.get(event)?.delete(listener as unknown as AnyListener);
    return this;
  }

  /** Resolves with the arguments of the next `event`; rejects if `signal` aborts first. */
  waitFor<E extends keyof Events>(event: E, options: { signal?: AbortSignal } = {}): Promise<Events[E]> {
    const { signal } = options;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = (): void => {
        this.off(event, listener);
        reject(signal?.reason as Error);
      };
      const listener: Listener<Events[E]> = (...args) => {
        this.off(event, listener);
        signal?.removeEventListener('abort', onAbort);
        resolve(args);
      };
      this.on(event, listener);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Number of listeners for `event`. */
  listenerCount(event: keyof Events): number {
    return this.#listeners.get(event)?.size ?? 0;
  }

  /** Calls every listener of `event` in the order they were added. */
  protected emit<E extends keyof Events>(event: E, ...args: Events[E]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(...args);
      } catch (error) {
        this.onListenerError(error, String(event));
      }
    }
  }

  /** Receives errors thrown by listeners. Subclasses log them. */
  protected onListenerError(_error: unknown, _event: string): void {
    // Default: swallow, so one faulty listener cannot stop the others.
  }
}

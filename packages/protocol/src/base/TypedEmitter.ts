import { abortedError } from './withSignal.js';

/**
 * The shape of an event map: each event name maps to the tuple of arguments its listeners receive. Maps are
 * interfaces without an index signature, so a misspelt event name does not compile.
 */
export type EventMap<Events> = { [E in keyof Events]: unknown[] };

/** A function called with an event's arguments. */
export type Listener<Args extends unknown[]> = (...args: Args) => void;
/** Listeners are stored untyped; the public methods keep the types. */
type AnyListener = (...args: unknown[]) => void;

/**
 * A small typed event emitter. A listener that throws never breaks the emitter or the other listeners:
 * the error goes to {@link TypedEmitter.onListenerError} instead, so a game's bug cannot take the SDK down.
 */
export class TypedEmitter<Events extends EventMap<Events>> {
  readonly #listeners = new Map<keyof Events, Set<AnyListener>>();
  /** Rejecters of the pending `waitFor()` promises, for `rejectWaiters()`. */
  readonly #waiters = new Set<(error: Error) => void>();

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

  /**
   * Resolves with the arguments of the next `event`. Rejects with `AbortedError` if `signal` aborts first (at
   * once for an already-aborted signal), and with the owner's error when it shuts down (e.g.
   * `ClientDestroyedError` after `destroy()`).
   */
  waitFor<E extends keyof Events>(event: E, options: { signal?: AbortSignal } = {}): Promise<Events[E]> {
    const { signal } = options;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortedError(signal, `waiting for ${String(event)}`));
        return;
      }
      const finish = (): void => {
        this.off(event, listener);
        signal?.removeEventListener('abort', onAbort);
        this.#waiters.delete(fail);
      };
      const fail = (error: Error): void => {
        finish();
        reject(error);
      };
      const onAbort = (): void => {
        fail(abortedError(signal, `waiting for ${String(event)}`));
      };
      const listener: Listener<Events[E]> = (...args) => {
        finish();
        resolve(args);
      };
      this.on(event, listener);
      this.#waiters.add(fail);
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

  /** Rejects every pending `waitFor()` with `error` (the owner is shutting down). */
  protected rejectWaiters(error: Error): void {
    for (const fail of [...this.#waiters]) fail(error);
  }

  /** Receives errors thrown by listeners. Subclasses log them. */
  protected onListenerError(_error: unknown, _event: string): void {
    // Default: swallow, so one faulty listener cannot stop the others.
  }
}

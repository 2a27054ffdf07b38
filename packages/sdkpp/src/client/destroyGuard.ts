import { ClientDestroyedError } from '@sdkpp/protocol';

/**
 * Guards every method of a class after its instance is destroyed: an `async` method then rejects with
 * `ClientDestroyedError`, any other method throws it, naming the method. Methods in `exempt` keep working
 * (the destroy itself, and status reads a game may still make while shutting down).
 *
 * The guard goes by the method's kind, not its return type, which is why the guarded class's methods that
 * return a Promise are `async` (a lint rule keeps it so): a Promise-returning method must reject, not throw.
 */
export function guardAfterDestroy<T extends object>(
  prototype: T,
  isDestroyed: (instance: T) => boolean,
  exempt: ReadonlySet<PropertyKey>,
): void {
  for (const key of Reflect.ownKeys(prototype)) {
    if (key === 'constructor' || exempt.has(key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
    const original: unknown = descriptor?.value;
    if (typeof original !== 'function') continue;
    const method = original as (this: T, ...args: unknown[]) => unknown;
    const isAsync = method.constructor.name === 'AsyncFunction';
    const name = String(key);
    const guarded = {
      [name](this: T, ...args: unknown[]): unknown {
        if (!isDestroyed(this)) return method.apply(this, args);
        const error = new ClientDestroyedError(`${name}() was called after destroy()`);
        if (isAsync) return Promise.reject(error);
        throw error;
      },
    }[name];
    Object.defineProperty(prototype, key, { ...descriptor, value: guarded });
  }
}

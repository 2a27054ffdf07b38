import { AsyncLocalStorage } from 'node:async_hooks';

import { AbortedError } from '../errors/SdkError.js';

/**
 * The signal of the SDK call under way. A public method runs its work inside {@link withSignal}, and the HTTP
 * layer reads the signal from here, so every request the call makes (rate-limit waits included) is aborted
 * with it, without each feature passing the signal down by hand.
 */
const callSignal = new AsyncLocalStorage<AbortSignal>();

/** The signal of the SDK call under way, if it was given one. */
export function currentSignal(): AbortSignal | undefined {
  return callSignal.getStore();
}

/**
 * Runs `work` with `signal` as the call's signal: an already-aborted signal rejects at once with
 * `AbortedError` before anything starts; a later abort rejects at once too, and aborts the call's HTTP
 * requests. A request the platform already received may still take effect.
 */
export async function withSignal<T>(
  signal: AbortSignal | undefined,
  what: string,
  work: () => Promise<T>,
): Promise<T> {
  if (!signal) return work();
  if (signal.aborted) throw abortedError(signal, what);
  const running = callSignal.run(signal, work);
  return untilAborted(running, signal, () => abortedError(signal, what));
}

/**
 * Settles as `promise` does, or rejects with `reason()` as soon as `signal` aborts (at once when it already
 * has). The promise's own later outcome is then dropped.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, reason: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.catch(() => undefined);
      reject(reason());
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The error an aborted wait rejects with: the signal's reason when it is already an `AbortedError`, else an
 * `AbortedError` that keeps the reason as its cause.
 */
export function abortedError(signal: AbortSignal | undefined, what: string): AbortedError {
  const reason: unknown = signal?.reason;
  if (reason instanceof AbortedError) return reason;
  return new AbortedError(`${what} was aborted`, reason === undefined ? {} : { cause: reason });
}

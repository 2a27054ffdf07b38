/**
 * The SDK's callback pump. As in the C++ SDK, results and events are queued and delivered on the game's
 * thread when it calls {@link RunCallbacks} (typically once per frame). {@link SetFreeThreaded} delivers them
 * as soon as they happen instead. This is the one process-wide state of the bindings, as `RunCallbacks` is
 * process-wide in the C++ SDK.
 */
const queue: Array<() => void> = [];
let freeThreaded = false;

/** @internal Queues a callback invocation, or runs it soon in free-threaded mode. */
export function enqueueCallback(invoke: () => void): void {
  if (freeThreaded) {
    queueMicrotask(() => {
      runSafely(invoke);
    });
  } else {
    queue.push(invoke);
  }
}

/** Delivers every queued callback, in order. Call it once per frame from the game loop. */
export function RunCallbacks(): void {
  const batch = queue.splice(0, queue.length);
  for (const invoke of batch) runSafely(invoke);
}

/** Delivers callbacks as they happen, without {@link RunCallbacks}; delivers anything already queued. */
export function SetFreeThreaded(): void {
  freeThreaded = true;
  RunCallbacks();
}

/** Returns to queued delivery through {@link RunCallbacks}. */
export function ResetCallbacks(): void {
  freeThreaded = false;
  queue.length = 0;
}

function runSafely(invoke: () => void): void {
  try {
    invoke();
  } catch (error) {
    // A game callback that throws must not stop the others; surface it like an uncaught error would.
    queueMicrotask(() => {
      throw error;
    });
  }
}

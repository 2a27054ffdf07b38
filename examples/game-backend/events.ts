import type { Client, ClientEvents } from 'sdkpp';

/**
 * Does `action`, and resolves once `client` has seen the event it causes (matching `match`): the game
 * backend changes things over HTTP, and the players' games learn of them through the gateway.
 */
export async function seenAfter<E extends keyof ClientEvents>(
  client: Client,
  event: E,
  match: (...args: ClientEvents[E]) => boolean,
  action: () => Promise<unknown>,
  timeoutMs = 10_000,
): Promise<ClientEvents[E]> {
  let listener: ((...args: ClientEvents[E]) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const seen = new Promise<ClientEvents[E]>((resolve, reject) => {
    listener = (...args: ClientEvents[E]): void => {
      if (match(...args)) resolve(args);
    };
    client.on(event, listener);
    timer = setTimeout(() => {
      reject(new Error(`no ${event} event within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await action();
    return await seen;
  } finally {
    if (listener) client.off(event, listener);
    clearTimeout(timer);
  }
}

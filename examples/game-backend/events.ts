import type { Client } from 'sdkpp';

/**
 * Does `action`, and resolves once `client` has seen the event it causes (matching `match`): the game
 * backend changes things over HTTP, and the players' games learn of them through the gateway.
 */
export async function seenAfter<A extends unknown[]>(
  client: Client,
  event: string,
  match: (...args: A) => boolean,
  action: () => Promise<unknown>,
  timeoutMs = 10_000,
): Promise<A> {
  let listener: ((...args: unknown[]) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const seen = new Promise<A>((resolve, reject) => {
    listener = (...args: unknown[]): void => {
      if (match(...(args as A))) resolve(args as A);
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

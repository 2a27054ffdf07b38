import { describe, expect, it } from 'vitest';

import {
  AbortedError,
  Client,
  ClientDestroyedError,
  type ClientEvents,
} from '../../../packages/sdkpp/src/index.js';
import { TypedEmitter } from '../../../packages/protocol/src/base/TypedEmitter.js';

interface TestEvents {
  tick: [count: number];
}

class Ticker extends TypedEmitter<TestEvents> {
  tick(count: number): void {
    this.emit('tick', count);
  }
  shutDown(): void {
    this.rejectWaiters(new ClientDestroyedError());
  }
}

describe('TypedEmitter', () => {
  it('checks event names and argument types at compile time', () => {
    const client = new Client({ localClient: false });
    // @ts-expect-error a misspelt event name must not compile (no index signature on ClientEvents)
    client.on('statusChangd', () => undefined);
    // @ts-expect-error the listener's arguments are the event's
    client.on('lobbyCreated', (lobbyId: number) => lobbyId);
    const events: (keyof ClientEvents)[] = ['statusChanged', 'lobbyCreated'];
    expect(events).toHaveLength(2);
  });

  it('waitFor resolves with the next event arguments', async () => {
    const ticker = new Ticker();
    const next = ticker.waitFor('tick');
    ticker.tick(3);
    await expect(next).resolves.toEqual([3]);
    expect(ticker.listenerCount('tick')).toBe(0);
  });

  it('waitFor rejects with AbortedError, at once for an aborted signal and later on abort', async () => {
    const ticker = new Ticker();
    await expect(ticker.waitFor('tick', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      AbortedError,
    );
    const controller = new AbortController();
    const pending = ticker.waitFor('tick', { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as Error).cause).toBeInstanceOf(DOMException);
    expect(ticker.listenerCount('tick')).toBe(0);
  });

  it('waitFor rejects with the owner error when it shuts down', async () => {
    const ticker = new Ticker();
    const pending = ticker.waitFor('tick');
    ticker.shutDown();
    await expect(pending).rejects.toBeInstanceOf(ClientDestroyedError);
    expect(ticker.listenerCount('tick')).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';

import { AbortedError, ClientStatus, HttpError } from '../../packages/sdkpp/src/index.js';
import { emulatorFor, linkAndConnect, userAt } from './helpers.js';

const DM_ROUTE = '/users/:user_id/messages';

interface WaitEvent {
  waiting: boolean;
  seconds: number;
  route: string;
}

describe('HTTP rate limits (SDK ↔ emulator)', () => {
  it('waits out a tight limit: every message is sent exactly once, in order, with HttpWait shown meanwhile', async () => {
    const emulator = await emulatorFor({
      rateLimits: { routes: { [`POST ${DM_ROUTE}`]: { limit: 2, windowMs: 1_000 } } },
    });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const statuses: ClientStatus[] = [];
    const waits: WaitEvent[] = [];
    alice.client.on('statusChanged', (status) => statuses.push(status));
    // Features keep working while HttpWait shows: they check the connection, not the shown status.
    let duringWait: Promise<unknown> | undefined;
    alice.client.on('httpWait', (waiting, seconds, route) => {
      waits.push({ waiting, seconds, route });
      if (waiting && duringWait === undefined) {
        expect(alice.client.getStatus()).toBe(ClientStatus.HttpWait);
        duringWait = alice.client.getUserMessageSummaries();
      }
    });

    const contents = [1, 2, 3, 4, 5].map((i) => `message ${i}`);
    const ids = await Promise.all(contents.map((c) => alice.client.sendUserMessage(bob.user.id, c)));

    expect(new Set(ids).size).toBe(5);
    expect(emulator.requestCount('POST', DM_ROUTE)).toBe(5);
    const history = await bob.client.getUserMessagesWithLimit(alice.user.id, 10);
    expect(history.map((m) => m.content)).toEqual(contents);

    expect(statuses).toContain(ClientStatus.HttpWait);
    expect(statuses.at(-1)).toBe(ClientStatus.Ready);
    expect(alice.client.getStatus()).toBe(ClientStatus.Ready);
    const started = waits.filter((w) => w.waiting);
    expect(started.length).toBeGreaterThan(0);
    expect(waits.filter((w) => !w.waiting)).toHaveLength(started.length);
    for (const wait of started) {
      expect(wait.route).toBe(`POST /users/${bob.user.id}/messages`);
      expect(wait.seconds).toBeGreaterThan(0);
      expect(wait.seconds).toBeLessThanOrEqual(1);
    }
    await expect(duringWait).resolves.toBeDefined();
  });

  it('fails with a retryable HttpError carrying retryAfter when the wait is longer than the maximum, sending nothing more', async () => {
    const emulatorLines: string[] = [];
    const emulator = await emulatorFor({
      rateLimits: { routes: { [`POST ${DM_ROUTE}`]: { limit: 1, windowMs: 60_000 } } },
      log: (line) => emulatorLines.push(line),
    });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0), { maxRateLimitWaitMs: 2_000 });
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const waits: WaitEvent[] = [];
    alice.client.on('httpWait', (waiting, seconds, route) => waits.push({ waiting, seconds, route }));

    // Another program of Alice's uses up the limit, so the SDK first hears of it from a 429.
    const raw = await fetch(`${emulator.api}/users/${bob.user.id}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${alice.accessToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'from elsewhere' }),
    });
    expect(raw.status).toBe(200);

    const refused = await alice.client.sendUserMessage(bob.user.id, 'too soon').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 429, retryable: true });
    expect((refused as HttpError).retryAfter).toBeGreaterThan(2);
    expect(emulatorLines.filter((l) => l.includes('rate limited'))).toHaveLength(1);

    // Now the SDK knows the bucket is exhausted for about a minute: it fails at once without sending.
    const again = await alice.client.sendUserMessage(bob.user.id, 'still too soon').catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 429, retryable: true });
    expect((again as HttpError).retryAfter).toBeGreaterThan(2);
    expect(emulatorLines.filter((l) => l.includes('rate limited'))).toHaveLength(1);
    expect(emulator.requestCount('POST', DM_ROUTE)).toBe(1);
    expect(waits).toEqual([]);
    expect(alice.client.getStatus()).toBe(ClientStatus.Ready);
  });

  it('rejects with AbortedError when aborted while waiting, and shows the connection status again', async () => {
    const emulator = await emulatorFor({
      rateLimits: { routes: { 'GET /oauth2/@me': { limit: 3, windowMs: 60_000 } } },
    });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0), { maxRateLimitWaitMs: 120_000 });
    const statuses: ClientStatus[] = [];
    alice.client.on('statusChanged', (status) => statuses.push(status));
    let result: unknown;
    for (let i = 0; i < 5 && result === undefined; i += 1) {
      const controller = new AbortController();
      const waiting = new Promise<'waiting'>((resolve) => {
        alice.client.once('httpWait', () => {
          resolve('waiting');
        });
      });
      const call = alice.client
        .fetchCurrentUser(alice.accessToken, { signal: controller.signal })
        .catch((e: unknown) => e);
      if ((await Promise.race([waiting, call.then(() => 'done' as const)])) === 'waiting') {
        const handled = emulator.requestCount('GET', '/oauth2/@me');
        controller.abort();
        result = await call;
        expect(emulator.requestCount('GET', '/oauth2/@me')).toBe(handled);
      }
    }
    expect(result).toBeInstanceOf(AbortedError);
    expect(statuses).toEqual([ClientStatus.HttpWait, ClientStatus.Ready]);
    expect(alice.client.getStatus()).toBe(ClientStatus.Ready);
  });
});

import { describe, expect, it } from 'vitest';

import { runEmulatorCommand } from '../../packages/emulator/src/cli.js';
import { developmentRouteKeys } from '../../packages/emulator/src/http/rateLimits.js';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../packages/emulator/src/index.js';
import { signIn } from './helpers.js';
import { call as apiCall, closeAfterEach } from './lobbyHelpers.js';

const DM_ROUTE = '/users/:user_id/messages';

const call = apiCall<unknown>;

const { running } = closeAfterEach();

async function emulator(rateLimits: EmulatorOptions['rateLimits']): Promise<Emulator> {
  const emu = await startEmulator({ autoConsent: true, users: 3, ...(rateLimits ? { rateLimits } : {}) });
  running.push(emu);
  return emu;
}

async function bearer(emu: Emulator, user: string): Promise<string> {
  return `Bearer ${(await signIn(emu, user)).access_token}`;
}

function userId(emu: Emulator, index: number): string {
  const user = emu.users[index];
  if (!user) throw new Error(`no user #${index}`);
  return user.id;
}

describe('HTTP rate limits (emulator)', () => {
  it('sends the bucket headers, counting down per route, caller and target user, then 429 without running the route', async () => {
    const emu = await emulator({ routes: { [`POST ${DM_ROUTE}`]: { limit: 3, windowMs: 60_000 } } });
    const alice = await bearer(emu, 'alice');
    const bob = await bearer(emu, 'bob');
    await bearer(emu, 'carol');
    const bobId = userId(emu, 1);

    const remaining: string[] = [];
    const buckets = new Set<string>();
    for (let i = 1; i <= 3; i += 1) {
      const sent = await call(emu, alice, 'POST', `/users/${bobId}/messages`, { content: `m${i}` });
      expect(sent.status).toBe(200);
      expect(sent.headers.get('x-ratelimit-limit')).toBe('3');
      remaining.push(sent.headers.get('x-ratelimit-remaining') ?? '');
      buckets.add(sent.headers.get('x-ratelimit-bucket') ?? '');
      const resetAfter = Number(sent.headers.get('x-ratelimit-reset-after'));
      expect(resetAfter).toBeGreaterThan(0);
      expect(resetAfter).toBeLessThanOrEqual(60);
      expect(Number(sent.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    expect(buckets.size).toBe(1);
    expect([...buckets][0]).toMatch(/^[0-9a-f]{32}$/);
    expect(emu.requestCount('POST', DM_ROUTE)).toBe(3);

    const refused = await call(emu, alice, 'POST', `/users/${bobId}/messages`, { content: 'one too many' });
    expect(refused.status).toBe(429);
    const body = refused.json as { retry_after: number };
    expect(refused.json).toEqual({
      message: 'You are being rate limited.',
      retry_after: body.retry_after,
      global: false,
      code: 0,
    });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(60);
    expect(refused.headers.get('retry-after')).toBe(String(Math.ceil(body.retry_after)));
    expect(refused.headers.get('x-ratelimit-scope')).toBe('user');
    expect(refused.headers.get('x-ratelimit-global')).toBeNull();
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-bucket')).toBe([...buckets][0]);

    // The route never ran: not counted, and the message does not exist.
    expect(emu.requestCount('POST', DM_ROUTE)).toBe(3);
    const history = await call(emu, bob, 'GET', `/users/${userId(emu, 0)}/messages?limit=50`);
    expect((history.json as Array<{ content: string }>).map((m) => m.content)).not.toContain('one too many');

    // Another target user (the major parameter) and another caller each have their own count.
    const toCarol = await call(emu, alice, 'POST', `/users/${userId(emu, 2)}/messages`, { content: 'hi' });
    expect(toCarol.status).toBe(200);
    expect(toCarol.headers.get('x-ratelimit-remaining')).toBe('2');
    const fromBob = await call(emu, bob, 'POST', `/users/${userId(emu, 0)}/messages`, { content: 'hi' });
    expect(fromBob.status).toBe(200);
    expect(fromBob.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('limits every route of one token globally, with the global 429 shape, leaving other tokens alone', async () => {
    const emu = await emulator({ global: { limit: 2, windowMs: 60_000 } });
    const alice = await bearer(emu, 'alice');
    const bob = await bearer(emu, 'bob');
    expect((await call(emu, alice, 'GET', '/users/@me')).status).toBe(200);
    expect((await call(emu, alice, 'GET', '/users/@me/relationships')).status).toBe(200);
    const before = emu.requestCount('GET', '/users/@me');

    const refused = await call(emu, alice, 'GET', '/users/@me');
    expect(refused.status).toBe(429);
    const body = refused.json as { retry_after: number };
    expect(refused.json).toEqual({
      message: 'You are being rate limited.',
      retry_after: body.retry_after,
      global: true,
      code: 0,
    });
    expect(refused.headers.get('x-ratelimit-global')).toBe('true');
    expect(refused.headers.get('x-ratelimit-scope')).toBe('global');
    expect(refused.headers.get('retry-after')).toBe(String(Math.ceil(body.retry_after)));
    expect((await call(emu, alice, 'GET', '/users/@me/relationships')).status).toBe(429);
    expect(emu.requestCount('GET', '/users/@me')).toBe(before);

    expect((await call(emu, bob, 'GET', '/users/@me')).status).toBe(200);
  });

  it('limits requests without credentials per remote address', async () => {
    const emu = await emulator({ unauthenticated: { limit: 2, windowMs: 60_000 } });
    expect((await call(emu, null, 'GET', '/users/@me')).status).toBe(401);
    expect((await call(emu, 'Bearer not-a-token', 'GET', '/users/@me')).status).toBe(401);
    const refused = await call(emu, null, 'GET', '/gateway');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-scope')).toBe('global');
    expect(emu.requestCount('GET', '/gateway')).toBe(0);
  });

  it('keeps one count for the whole application on a shared route (scope shared)', async () => {
    const emu = await emulator({
      routes: { [`POST ${DM_ROUTE}`]: { limit: 1, windowMs: 60_000, per: 'application' } },
    });
    const alice = await bearer(emu, 'alice');
    const bob = await bearer(emu, 'bob');
    expect(
      (await call(emu, alice, 'POST', `/users/${userId(emu, 1)}/messages`, { content: 'a' })).status,
    ).toBe(200);
    const refused = await call(emu, bob, 'POST', `/users/${userId(emu, 0)}/messages`, { content: 'b' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-scope')).toBe('shared');
    expect((refused.json as { global: boolean }).global).toBe(false);
  });

  it("sends headers by default and the platform's development limits with 'development'", async () => {
    const byDefault = await emulator(undefined);
    const alice = await bearer(byDefault, 'alice');
    const me = await call(byDefault, alice, 'GET', '/users/@me');
    expect(me.headers.get('x-ratelimit-limit')).toBe('250');
    expect(me.headers.get('x-ratelimit-remaining')).toBe('249');

    const development = await emulator('development');
    const devAlice = await bearer(development, 'alice');
    await bearer(development, 'bob');
    const sent = await call(development, devAlice, 'POST', `/users/${userId(development, 1)}/messages`, {
      content: 'hi',
    });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('x-ratelimit-limit')).toBe('100');
    expect(Number(sent.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(7000);
  });

  it("sends no rate-limit headers and never 429 with 'off', nor on a route turned off", async () => {
    const emu = await emulator('off');
    const alice = await bearer(emu, 'alice');
    for (let i = 0; i < 5; i += 1) {
      const me = await call(emu, alice, 'GET', '/users/@me');
      expect(me.status).toBe(200);
      expect(me.headers.get('x-ratelimit-limit')).toBeNull();
      expect(me.headers.get('x-ratelimit-bucket')).toBeNull();
    }
    const routeOff = await emulator({ routes: { 'GET /users/@me': null }, global: null });
    const bob = await bearer(routeOff, 'bob');
    expect((await call(routeOff, bob, 'GET', '/users/@me')).headers.get('x-ratelimit-limit')).toBeNull();
  });

  it("names only routes the emulator serves in the 'development' preset", async () => {
    // Naming a route explicitly fails on a typo, so this proves the preset's keys match the real routes.
    const routes = Object.fromEntries(
      developmentRouteKeys().map((key) => [
        key,
        { limit: 100, windowMs: 7_200_000, per: 'application' as const },
      ]),
    );
    expect(Object.keys(routes)).toContain('PATCH /lobbies/:lobby_id/channel-linking');
    running.push(await startEmulator({ rateLimits: { base: 'development', routes } }));
  });

  it('refuses to start on a route it does not serve or a malformed rule', async () => {
    await expect(
      startEmulator({ rateLimits: { routes: { 'POST /nowhere': { limit: 1, windowMs: 1 } } } }),
    ).rejects.toThrow(/no route "POST \/nowhere"/);
    await expect(startEmulator({ rateLimits: { global: { limit: 0, windowMs: 1000 } } })).rejects.toThrow(
      RangeError,
    );
    await expect(startEmulator({ rateLimits: 'sometimes' as 'off' })).rejects.toThrow(RangeError);
  });

  it('takes --rate-limits on the command line', async () => {
    const run = async (
      args: string[],
      probe?: (api: string) => Promise<void>,
    ): Promise<{ code: number; err: string }> => {
      let out = '';
      let err = '';
      let stop!: (signal: string) => void;
      const stopped = new Promise<string>((resolve) => {
        stop = resolve;
      });
      const done = runEmulatorCommand([...args, '--json', '--port', '0'], {
        stdout: (text) => {
          out += text;
          if (out.includes('\n') && probe) {
            const { api } = JSON.parse(out) as { api: string };
            void probe(api).finally(() => {
              stop('SIGTERM');
            });
          }
        },
        stderr: (text) => {
          err += text;
        },
        stopRequested: () => stopped,
      });
      return { code: await done, err };
    };
    const limits: Array<string | null> = [];
    const probe = async (api: string): Promise<void> => {
      limits.push((await fetch(`${api}/users/@me`)).headers.get('x-ratelimit-limit'));
    };
    expect((await run(['--rate-limits', 'off'], probe)).code).toBe(0);
    expect((await run(['--rate-limits', 'development'], probe)).code).toBe(0);
    expect(limits).toEqual([null, '250']);
    const bad = await run(['--rate-limits', 'sometimes']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--rate-limits must be default, development or off');
  });
});

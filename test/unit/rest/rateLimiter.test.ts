import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { AbortedError, HttpError, NetworkError } from '../../../packages/protocol/src/errors/index.js';
import { Logger, LoggingSeverity } from '../../../packages/sdkpp/src/logging/index.js';
import { routeKeyOf } from '../../../packages/sdkpp/src/rest/RateLimiter.js';
import { RestClient } from '../../../packages/sdkpp/src/rest/RestClient.js';
import { FakeClock } from '../../fakes/FakeClock.js';

/** What the test server answers: a status, headers and a JSON body, or nothing at all (a hang). */
type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang';

/** A local HTTP server whose answers the test scripts per request; it records what arrived. */
class ScriptedServer {
  readonly server: Server;
  readonly received: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  #answer: (req: IncomingMessage, n: number) => Answer | Promise<Answer>;
  readonly #hanging: ServerResponse[] = [];

  constructor(answer: (req: IncomingMessage, n: number) => Answer | Promise<Answer>) {
    this.#answer = answer;
    this.server = createServer((req, res) => {
      void this.#handle(req, res);
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.received.push(`${req.method} ${req.url}`);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const answer = await this.#answer(req, this.received.length);
    if (answer === 'hang') {
      this.#hanging.push(res);
      return;
    }
    this.inFlight -= 1;
    res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api`;
  }

  async close(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Wait {
  waiting: boolean;
  seconds: number;
  route: string;
}

async function setup(
  answer: (req: IncomingMessage, n: number) => Answer | Promise<Answer>,
  options: { maxWaitMs?: number; maxRetries?: number; timeoutMs?: number } = {},
) {
  const server = new ScriptedServer(answer);
  servers.push(server);
  const apiBase = await server.start();
  const clock = new FakeClock();
  const waits: Wait[] = [];
  const lines: string[] = [];
  const logger = new Logger({ debug: true });
  logger.addCallback((line) => lines.push(line), LoggingSeverity.Verbose);
  let onWaitStart: (() => void) | undefined;
  const rest = new RestClient({
    apiBase,
    timeoutMs: () => options.timeoutMs ?? 5_000,
    log: logger.writer('http'),
    clock,
    rateLimits: {
      ...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      onWait: (waiting, seconds, route) => {
        waits.push({ waiting, seconds, route });
        if (waiting) onWaitStart?.();
      },
    },
  });
  /** Resolves at the next wait start. */
  const nextWait = (): Promise<void> =>
    new Promise((resolve) => {
      onWaitStart = () => {
        onWaitStart = undefined;
        resolve();
      };
    });
  return { server, rest, clock, waits, lines, nextWait };
}

const limited = (
  retryAfter: number,
  extra: { global?: boolean; headers?: Record<string, string> } = {},
): Answer => ({
  status: 429,
  headers: {
    'Retry-After': String(Math.ceil(retryAfter)),
    'X-RateLimit-Scope': extra.global ? 'global' : 'user',
    ...(extra.global ? { 'X-RateLimit-Global': 'true' } : {}),
    ...extra.headers,
  },
  body: {
    message: 'You are being rate limited.',
    retry_after: retryAfter,
    global: extra.global ?? false,
    code: 0,
  },
});

describe('RateLimiter (RestClient against a local server)', () => {
  it('waits retry_after after a 429 and sends the request again, reporting the wait', async () => {
    const { server, rest, clock, waits, lines, nextWait } = await setup((_req, n) =>
      n === 1 ? limited(2.5) : { status: 200, body: { ok: true } },
    );
    const waited = nextWait();
    const result = rest.request<{ ok: boolean }>({
      method: 'POST',
      route: '/users/123456789012345678/messages',
    });
    await waited;
    expect(server.received).toHaveLength(1);
    clock.advance(2_500);
    expect((await result).body).toEqual({ ok: true });
    expect(server.received).toHaveLength(2);
    expect(lines.some((l) => /POST \/users\/123456789012345678\/messages: waiting 2\.5 s/.test(l))).toBe(
      true,
    );
    expect(waits).toEqual([
      { waiting: true, seconds: 2.5, route: 'POST /users/123456789012345678/messages' },
      { waiting: false, seconds: 0, route: 'POST /users/123456789012345678/messages' },
    ]);
  });

  it('uses the Retry-After header when the body has no retry_after', async () => {
    const { server, rest, clock, waits, nextWait } = await setup((_req, n) =>
      n === 1
        ? { status: 429, headers: { 'Retry-After': '3' }, body: { message: 'slow down' } }
        : { status: 204 },
    );
    const waited = nextWait();
    const result = rest.request({ method: 'GET', route: '/users/@me' });
    await waited;
    expect(waits[0]?.seconds).toBe(3);
    clock.advance(3_000);
    expect((await result).status).toBe(204);
    expect(server.received).toHaveLength(2);
  });

  it('learns an exhausted bucket from the headers and waits before sending, without a 429', async () => {
    const { server, rest, clock, waits, nextWait } = await setup(() => ({
      status: 200,
      headers: {
        'X-RateLimit-Limit': '1',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset-After': '4.000',
        'X-RateLimit-Bucket': 'abc',
      },
      body: {},
    }));
    await rest.request({ method: 'POST', route: '/lobbies/111111111111111111/messages' });
    const waited = nextWait();
    const second = rest.request({ method: 'POST', route: '/lobbies/111111111111111111/messages' });
    await waited;
    expect(server.received).toHaveLength(1);
    expect(waits[0]?.seconds).toBe(4);
    clock.advance(4_000);
    await second;
    expect(server.received).toHaveLength(2);

    // Another lobby (the major parameter) is another counter: no wait.
    await rest.request({ method: 'POST', route: '/lobbies/222222222222222222/messages' });
    expect(server.received).toHaveLength(3);
    expect(waits.filter((w) => w.waiting)).toHaveLength(1);
  });

  it('pauses every request after a global 429', async () => {
    const { server, rest, clock, waits, nextWait } = await setup((req, n) =>
      n === 1 && req.url?.endsWith('/a') ? limited(5, { global: true }) : { status: 200, body: {} },
    );
    const waitedA = nextWait();
    const a = rest.request({ method: 'GET', route: '/a' });
    await waitedA;
    const waitedB = nextWait();
    const b = rest.request({ method: 'GET', route: '/b' });
    await waitedB;
    expect(server.received).toEqual(['GET /api/a']);
    expect(waits.filter((w) => w.waiting).map((w) => w.route)).toEqual(['GET /a', 'GET /b']);
    clock.advance(5_000);
    await Promise.all([a, b]);
    expect(server.received).toHaveLength(3);
  });

  it('keeps the order of requests of one route, one at a time', async () => {
    let releaseFirst!: () => void;
    const first = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const { server, rest } = await setup(async (_req, n) => {
      if (n === 1) await first;
      return { status: 200, body: {} };
    });
    const route = '/users/123456789012345678/messages';
    const calls = [1, 2, 3].map((i) => rest.request({ method: 'POST', route, query: { i: String(i) } }));
    // The first reaches the server (within 5 s: a fixed 50 ms was too short on a loaded machine), and while
    // it is held, the other two stay queued.
    for (let waited = 0; server.received.length === 0 && waited < 5000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.received).toHaveLength(1);
    releaseFirst();
    await Promise.all(calls);
    expect(server.received).toEqual([1, 2, 3].map((i) => `POST /api${route}?i=${i}`));
    expect(server.maxInFlight).toBe(1);
  });

  it('fails with a retryable HttpError carrying retryAfter when the wait is longer than the maximum, and sends nothing more', async () => {
    const { server, rest, waits } = await setup(() => limited(120), { maxWaitMs: 60_000 });
    const route = '/users/123456789012345678/messages';
    const error = await rest.request({ method: 'POST', route }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfter: 120 });
    expect(server.received).toHaveLength(1);

    // The bucket is known to be exhausted for two minutes: the next call fails at once, unsent.
    const again = await rest.request({ method: 'POST', route }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(HttpError);
    expect(again).toMatchObject({ status: 429, retryable: true });
    expect((again as HttpError).retryAfter).toBeGreaterThan(60);
    expect(server.received).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('gives up after the configured number of retries', async () => {
    const { server, rest, clock } = await setup(() => limited(1), { maxRetries: 2 });
    let settled = false;
    const result = rest.request({ method: 'GET', route: '/users/@me' }).catch((e: unknown) => {
      settled = true;
      return e;
    });
    while (!settled) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      clock.advance(1_000);
    }
    expect(await result).toMatchObject({ status: 429, retryable: true, retryAfter: 1 });
    expect(server.received).toHaveLength(3);
  });

  it('rejects with AbortedError when aborted while waiting, having sent nothing more', async () => {
    const { server, rest, waits, nextWait } = await setup((_req, n) =>
      n === 1 ? limited(30) : { status: 200, body: {} },
    );
    const controller = new AbortController();
    const waited = nextWait();
    const aborted = rest
      .request({ method: 'GET', route: '/users/@me', signal: controller.signal })
      .catch((e: unknown) => e);
    await waited;
    controller.abort();
    expect(await aborted).toBeInstanceOf(AbortedError);
    expect(server.received).toHaveLength(1);
    expect(waits.at(-1)).toMatchObject({ waiting: false });
  });

  it('never sends again after a timeout or an error status other than 429', async () => {
    const { server, rest } = await setup(
      (req) => (req.url?.endsWith('/slow') ? 'hang' : { status: 500, body: { message: 'oops', code: 0 } }),
      { timeoutMs: 100 },
    );
    const timedOut = await rest.request({ method: 'POST', route: '/slow' }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(NetworkError);
    const failed = await rest.request({ method: 'POST', route: '/broken' }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ status: 500 });
    expect(server.received).toEqual(['POST /api/slow', 'POST /api/broken']);
  });

  it('keys routes by their shape and major parameter', () => {
    expect(routeKeyOf('POST', '/users/123456789012345678/messages')).toBe(
      'POST /users/:id/messages 123456789012345678',
    );
    expect(routeKeyOf('GET', '/users/@me/guilds')).toBe('GET /users/@me/guilds @me');
    expect(routeKeyOf('PUT', '/lobbies/111111111111111111/members/222222222222222222')).toBe(
      'PUT /lobbies/:id/members/:id 111111111111111111',
    );
    expect(routeKeyOf('POST', '/oauth2/token')).toBe('POST /oauth2/token ');
  });
});

import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { safeEqual } from '../random.js';
import type { EmulatorStore } from '../store/Store.js';
import type { RateLimitRule, RateLimitsOption, RateLimitSettings } from '../types.js';
import { readCredentials } from './authHeader.js';
import { jsonReply, type Reply } from './replies.js';

/** A rule with where its counter lives: per caller and major parameter, or one for the whole application. */
interface ResolvedRule extends RateLimitRule {
  /** `caller`: one counter per caller and major parameter (the platform's buckets); `application`: one in all. */
  per: 'caller' | 'application';
}

/** {@link RateLimitsOption} resolved: `null` everywhere means "not limited". */
export interface RateLimitConfig {
  /** Every request of one token, across routes; `null` when off. */
  global: RateLimitRule | null;
  /** Requests without valid credentials, per remote address, across routes. */
  unauthenticated: RateLimitRule | null;
  /** The rule of a route without its own entry; `null`: such routes are not limited. */
  route: ResolvedRule | null;
  /** Rules by `"METHOD /pattern"`; `null` turns a route's limit off. */
  routes: Record<string, ResolvedRule | null>;
  /** The route keys the options named, which must exist (a typo would silently limit nothing). */
  explicitRoutes: string[];
}

const SECOND = 1000;
const TWO_HOURS = 2 * 60 * 60 * SECOND;

/**
 * Emulator-defined: generous limits that a game in normal use and this repository's test suites never meet.
 * The platform allows a bot 50 requests/s; loopback tests burst much faster than any game over the internet,
 * so the emulator allows ten times that per token.
 */
const DEFAULT_CONFIG: RateLimitConfig = {
  global: { limit: 500, windowMs: SECOND },
  unauthenticated: { limit: 500, windowMs: SECOND },
  route: { limit: 250, windowMs: SECOND, per: 'caller' },
  routes: {},
  explicitRoutes: [],
};

const DEV_LOBBY: ResolvedRule = { limit: 100, windowMs: TWO_HOURS, per: 'application' };

/**
 * The platform's development (pre-approval) limits per application (wire-protocols §4.8): 100 per 2 h for
 * lobby create/join/update, member changes, bulk, invites and lobby messages; 20 per 2 h for channel linking;
 * 100 per 2 h for direct messages. Each route counts on its own.
 */
const DEVELOPMENT_ROUTES: Record<string, ResolvedRule> = {
  'PUT /lobbies': DEV_LOBBY,
  'POST /lobbies': DEV_LOBBY,
  'PATCH /lobbies/:lobby_id': DEV_LOBBY,
  'PUT /lobbies/:lobby_id/members/:user_id': DEV_LOBBY,
  'DELETE /lobbies/:lobby_id/members/:user_id': DEV_LOBBY,
  'DELETE /lobbies/:lobby_id/members/@me': DEV_LOBBY,
  'POST /lobbies/:lobby_id/members/bulk': DEV_LOBBY,
  'POST /lobbies/:lobby_id/members/@me/invites': DEV_LOBBY,
  'POST /lobbies/:lobby_id/members/:user_id/invites': DEV_LOBBY,
  'POST /lobbies/:lobby_id/messages': DEV_LOBBY,
  'PATCH /lobbies/:lobby_id/channel-linking': { limit: 20, windowMs: TWO_HOURS, per: 'application' },
  'POST /users/:user_id/messages': { limit: 100, windowMs: TWO_HOURS, per: 'application' },
};

/** The routes the `'development'` preset limits, by `"METHOD /pattern"`. */
export function developmentRouteKeys(): string[] {
  return Object.keys(DEVELOPMENT_ROUTES);
}

const OFF_CONFIG: RateLimitConfig = {
  global: null,
  unauthenticated: null,
  route: null,
  routes: {},
  explicitRoutes: [],
};

function preset(name: 'off' | 'default' | 'development'): RateLimitConfig {
  if (name === 'off') return { ...OFF_CONFIG, routes: {}, explicitRoutes: [] };
  if (name === 'development')
    return { ...DEFAULT_CONFIG, routes: { ...DEVELOPMENT_ROUTES }, explicitRoutes: [] };
  return { ...DEFAULT_CONFIG, routes: {}, explicitRoutes: [] };
}

function checkedRule(name: string, rule: unknown): RateLimitRule {
  const r = rule as Partial<RateLimitRule> | null;
  if (
    typeof r !== 'object' ||
    r === null ||
    !Number.isInteger(r.limit) ||
    (r.limit ?? 0) < 1 ||
    !Number.isInteger(r.windowMs) ||
    (r.windowMs ?? 0) < 1
  ) {
    throw new RangeError(`EmulatorOptions.rateLimits.${name} must be {limit, windowMs}, integers ≥ 1`);
  }
  return { limit: r.limit as number, windowMs: r.windowMs as number };
}

const ROUTE_KEY = /^(GET|POST|PUT|PATCH|DELETE) \/\S*$/;

/** Resolves {@link RateLimitsOption}; throws a `RangeError` naming the first bad field. */
export function resolveRateLimits(option: RateLimitsOption | undefined): RateLimitConfig {
  if (option === undefined || option === 'default') return preset('default');
  if (option === 'off' || option === 'development') return preset(option);
  if (typeof option !== 'object' || option === null) {
    throw new RangeError(
      "EmulatorOptions.rateLimits must be 'off', 'default', 'development' or a settings object",
    );
  }
  const settings: RateLimitSettings = option;
  const base = settings.base ?? 'default';
  if (base !== 'off' && base !== 'default' && base !== 'development') {
    throw new RangeError("EmulatorOptions.rateLimits.base must be 'off', 'default' or 'development'");
  }
  const config = preset(base);
  if (settings.global !== undefined)
    config.global = settings.global === null ? null : checkedRule('global', settings.global);
  if (settings.unauthenticated !== undefined) {
    config.unauthenticated =
      settings.unauthenticated === null ? null : checkedRule('unauthenticated', settings.unauthenticated);
  }
  for (const [key, rule] of Object.entries(settings.routes ?? {})) {
    if (!ROUTE_KEY.test(key)) {
      throw new RangeError(`EmulatorOptions.rateLimits.routes: "${key}" is not "METHOD /pattern"`);
    }
    config.explicitRoutes.push(key);
    config.routes[key] =
      rule === null ? null : { ...checkedRule(`routes["${key}"]`, rule), per: rule.per ?? 'caller' };
  }
  return config;
}

/** The route parameters that pick a bucket's counter, as the platform's top-level resources do. */
const MAJOR_PARAMETERS = ['lobby_id', 'guild_id', 'channel_id', 'user_id', 'user_a'];

/** What the limiter needs to know about the request being answered. */
export interface LimitedRequest {
  /** `"METHOD /pattern"` of the matched route. */
  routeKey: string;
  params: Readonly<Record<string, string>>;
  raw: IncomingMessage;
}

/** The verdict on one request: a 429 to send instead of running the route, or headers to add to its reply. */
export type RateLimitVerdict =
  | { kind: 'limited'; reply: Reply; scope: 'user' | 'global' | 'shared'; retryAfter: number }
  | { kind: 'allowed'; headers: Record<string, string> };

interface Window {
  startedAt: number;
  count: number;
}

/** Fixed-window counters; a window starts with its first request and lasts `windowMs`. */
class Windows {
  readonly #windows = new Map<string, Window>();

  /** The live window of `key` at `now` (a fresh one when it ended or the clock went back). */
  current(key: string, rule: RateLimitRule, now: number): Window {
    let window = this.#windows.get(key);
    if (!window || now >= window.startedAt + rule.windowMs || now < window.startedAt) {
      window = { startedAt: now, count: 0 };
      this.#windows.set(key, window);
    }
    return window;
  }

  /** Forgets ended windows, so callers that never come back do not pile up. */
  sweep(now: number, longestMs: number): void {
    for (const [key, window] of this.#windows) {
      if (now - window.startedAt > longestMs) this.#windows.delete(key);
    }
  }
}

/** Seconds with three decimals, as the platform writes them. */
function seconds(ms: number): string {
  return (Math.max(0, ms) / SECOND).toFixed(3);
}

/**
 * The emulator's HTTP rate limits (wire-protocols §4.11): per-route buckets keyed by the route and its major
 * parameter per caller, a global limit per token, and a limit per remote address for requests without valid
 * credentials. Every limited response carries the `X-RateLimit-*` headers; a request over a limit gets the
 * platform's 429 and is not handled at all.
 */
export class HttpRateLimits {
  readonly #config: RateLimitConfig;
  readonly #store: EmulatorStore;
  readonly #windows = new Windows();
  readonly #longestMs: number;
  #checks = 0;

  constructor(config: RateLimitConfig, store: EmulatorStore) {
    this.#config = config;
    this.#store = store;
    const rules = [config.global, config.unauthenticated, config.route, ...Object.values(config.routes)];
    this.#longestMs = Math.max(0, ...rules.map((r) => r?.windowMs ?? 0));
  }

  /** Throws a `RangeError` for a route the options named that the emulator does not serve (a typo). */
  checkRoutes(known: Iterable<string>): void {
    const all = new Set(known);
    for (const key of this.#config.explicitRoutes) {
      if (!all.has(key)) throw new RangeError(`EmulatorOptions.rateLimits.routes: no route "${key}"`);
    }
  }

  /** Counts `request` against its limits, or refuses it with a 429 (counting nothing). */
  check(request: LimitedRequest): RateLimitVerdict {
    // The emulator's clock, so advanceTime() also ends rate-limit windows.
    const now = this.#store.now();
    if ((this.#checks += 1) % 1000 === 0) this.#windows.sweep(now, this.#longestMs);
    const caller = this.#caller(request.raw);
    const globalRule = caller.authenticated ? this.#config.global : this.#config.unauthenticated;
    const routeRule =
      request.routeKey in this.#config.routes ? this.#config.routes[request.routeKey] : this.#config.route;
    if (!globalRule && !routeRule) return { kind: 'allowed', headers: {} };

    const bucket = createHash('sha256').update(request.routeKey).digest('hex').slice(0, 32);
    const major = MAJOR_PARAMETERS.map((name) => request.params[name]).find((v) => v !== undefined) ?? '';
    const routeWindow = routeRule
      ? this.#windows.current(
          routeRule.per === 'application' ? `app ${bucket}` : `route ${bucket} ${major} ${caller.key}`,
          routeRule,
          now,
        )
      : undefined;
    const globalWindow = globalRule
      ? this.#windows.current(`global ${caller.key}`, globalRule, now)
      : undefined;

    const headers = (count: number): Record<string, string> => {
      if (!routeRule || !routeWindow) return {};
      const resetAt = routeWindow.startedAt + routeRule.windowMs;
      return {
        'X-RateLimit-Limit': String(routeRule.limit),
        'X-RateLimit-Remaining': String(Math.max(0, routeRule.limit - count)),
        'X-RateLimit-Reset': seconds(resetAt),
        'X-RateLimit-Reset-After': seconds(resetAt - now),
        'X-RateLimit-Bucket': bucket,
      };
    };

    if (globalRule && globalWindow && globalWindow.count >= globalRule.limit) {
      const retryMs = globalWindow.startedAt + globalRule.windowMs - now;
      return this.#limited(retryMs, 'global', routeWindow ? headers(routeWindow.count) : {});
    }
    if (routeRule && routeWindow && routeWindow.count >= routeRule.limit) {
      const retryMs = routeWindow.startedAt + routeRule.windowMs - now;
      const scope = routeRule.per === 'application' ? 'shared' : 'user';
      return this.#limited(retryMs, scope, headers(routeWindow.count));
    }
    if (globalWindow) globalWindow.count += 1;
    if (routeWindow) routeWindow.count += 1;
    return { kind: 'allowed', headers: headers(routeWindow?.count ?? 0) };
  }

  #limited(
    retryMs: number,
    scope: 'user' | 'global' | 'shared',
    headers: Record<string, string>,
  ): RateLimitVerdict {
    const retryAfter = Math.max(0.001, Number(seconds(retryMs)));
    const global = scope === 'global';
    const reply = jsonReply(
      429,
      { message: 'You are being rate limited.', retry_after: retryAfter, global, code: 0 },
      {
        ...headers,
        'Retry-After': String(Math.ceil(retryAfter)),
        'X-RateLimit-Scope': scope,
        ...(global ? { 'X-RateLimit-Global': 'true' } : {}),
      },
    );
    return { kind: 'limited', reply, scope, retryAfter };
  }

  /** Who is counted: the user behind a live Bearer token, the application's bot, or else the remote address. */
  #caller(raw: IncomingMessage): { key: string; authenticated: boolean } {
    const credentials = readCredentials(raw);
    if (credentials.scheme === 'bearer') {
      const token = this.#store.accessToken(credentials.token);
      if (token) return { key: `user ${token.userId}`, authenticated: true };
    } else if (
      credentials.scheme === 'bot' &&
      safeEqual(credentials.token, this.#store.state.application.botToken)
    ) {
      return { key: 'bot', authenticated: true };
    }
    return { key: `ip ${raw.socket.remoteAddress ?? 'unknown'}`, authenticated: false };
  }
}

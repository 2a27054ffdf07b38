import type { EmulatorContext } from '../context.js';
import { unauthorized } from '../platform/errors.js';
import { safeEqual } from '../random.js';
import type { AccessTokenRecord, UserRecord } from '../store/types.js';
import { readCredentials } from './authHeader.js';
import type { RouteRequest } from './router.js';

/** Who made a request. */
export type Caller =
  { kind: 'bearer'; user: UserRecord; token: AccessTokenRecord } | { kind: 'bot'; user: UserRecord };

/** The caller of a request with `Authorization: Bearer` (live token, existing unbanned user) or `Bot`. */
export function authenticate(
  ctx: EmulatorContext,
  req: RouteRequest,
  allow: { bearer: boolean; bot: boolean },
): Caller {
  const credentials = readCredentials(req.raw);
  if (credentials.scheme === 'bearer' && allow.bearer) {
    const token = ctx.store.accessToken(credentials.token);
    const user = token ? ctx.store.user(token.userId) : undefined;
    if (token && user && !user.banned) return { kind: 'bearer', user, token };
  }
  if (
    credentials.scheme === 'bot' &&
    allow.bot &&
    safeEqual(credentials.token, ctx.store.state.application.botToken)
  ) {
    return { kind: 'bot', user: ctx.store.botUser() };
  }
  throw unauthorized();
}

/** The caller of a Bearer-only route. */
export function requireBearer(ctx: EmulatorContext, req: RouteRequest): Extract<Caller, { kind: 'bearer' }> {
  return authenticate(ctx, req, { bearer: true, bot: false }) as Extract<Caller, { kind: 'bearer' }>;
}

/** Checks `Authorization: Bot <token>`. */
export function requireBot(ctx: EmulatorContext, req: RouteRequest): void {
  authenticate(ctx, req, { bearer: false, bot: true });
}

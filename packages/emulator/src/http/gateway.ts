import type { EmulatorContext } from '../context.js';
import { jsonReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';

/** `GET /gateway` (no auth) and `GET /gateway/bot` (bot auth), reference §1.1. */
export function gatewayRoutes(ctx: EmulatorContext): Route[] {
  return [
    apiRoute('GET', '/gateway', () => jsonReply(200, { url: ctx.urls.gateway })),
    apiRoute('GET', '/gateway/bot', (req) => {
      requireBot(ctx, req);
      const limit = ctx.hub.botSessionStartLimit();
      return jsonReply(200, {
        url: ctx.urls.gateway,
        shards: 1,
        session_start_limit: {
          total: limit.total,
          remaining: limit.remaining,
          reset_after: limit.resetAfter,
          max_concurrency: limit.maxConcurrency,
        },
      });
    }),
  ];
}

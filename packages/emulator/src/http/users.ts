import { wireConnection } from '../accounts/connections.js';
import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import { jsonReply } from './replies.js';
import { authenticate, requireBearer } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';
import { requireScope } from './scopes.js';

/**
 * User routes: the current user (Bearer or the bot), and the current user's connections, which only an OAuth2
 * token with the `connections` scope reads (401 without a token or with the bot's, 403 50001 without the scope).
 */
export function userRoutes(ctx: EmulatorContext): Route[] {
  return [
    apiRoute('GET', '/users/@me', (req) => {
      const caller = authenticate(ctx, req, { bearer: true, bot: true });
      const premium = caller.kind === 'bearer' && caller.token.scopes.includes('identify.premium');
      return jsonReply(200, wireUser(caller.user, { premium }));
    }),
    apiRoute('GET', '/users/@me/connections', (req) => {
      const caller = requireBearer(ctx, req);
      requireScope(caller, 'connections');
      return jsonReply(200, (caller.user.connections ?? []).map(wireConnection));
    }),
  ];
}

import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import { jsonReply } from './replies.js';
import { authenticate } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';

/** User routes. */
export function userRoutes(ctx: EmulatorContext): Route[] {
  return [
    apiRoute('GET', '/users/@me', (req) => {
      const caller = authenticate(ctx, req, { bearer: true, bot: true });
      const premium = caller.kind === 'bearer' && caller.token.scopes.includes('identify.premium');
      return jsonReply(200, wireUser(caller.user, { premium }));
    }),
  ];
}

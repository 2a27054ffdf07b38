import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import { invalidFormBody, missingAccess } from '../platform/errors.js';
import { isValidGlobalName } from '../store/names.js';
import { wirePresence } from '../social/wire.js';
import { jsonReply } from './replies.js';
import { requireBearer } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';
import { BodyReader } from './validation.js';

/** The scope the platform names for this endpoint; provisional accounts' own tokens may use it without. */
const GLOBAL_NAME_SCOPE = 'account.global_name.update';

/**
 * `PATCH /users/@me/account` ("Modify Current User Account"): sets the current user's `global_name`. The game
 * uses it for provisional accounts (`UpdateProvisionalAccountDisplayName`), whose tokens may; a full
 * account's name is the player's own, so a token of one needs `account.global_name.update`, which the
 * emulator's consent page does not grant (403 50001). The user gets USER_UPDATE and friends a PRESENCE_UPDATE
 * carrying the new user, as for any profile change.
 */
export function currentAccountRoutes(ctx: EmulatorContext): Route[] {
  return [
    apiRoute('PATCH', '/users/@me/account', async (req) => {
      const caller = requireBearer(ctx, req);
      const body = new BodyReader(await req.json());
      const name = body.string('global_name', 1, 32, true);
      body.finish();
      if (name === undefined) throw new Error('unreachable: checked above');
      if (!isValidGlobalName(name)) {
        throw invalidFormBody({
          global_name: { code: 'BASE_TYPE_BAD_LENGTH', message: 'Must not be blank.' },
        });
      }
      if (!caller.user.provisional && !caller.token.scopes.includes(GLOBAL_NAME_SCOPE)) {
        throw missingAccess("only a provisional account's display name can be changed by the application");
      }
      const user = ctx.store.updateUser(caller.user.id, { globalName: name });
      ctx.log.line('accounts', `${user.username}: display name changed`);
      const wire = wireUser(user);
      ctx.hub.dispatch(user.id, 'USER_UPDATE', wire);
      const presence = wirePresence(user.id, ctx.presence.of(user.id));
      for (const friendId of ctx.relationships.friendsOf(user.id)) {
        ctx.hub.dispatch(friendId, 'PRESENCE_UPDATE', { ...presence, user: wire });
      }
      return jsonReply(200, wire);
    }),
  ];
}

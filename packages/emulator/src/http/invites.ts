import type { EmulatorContext } from '../context.js';
import { ApiError, unknown } from '../platform/errors.js';
import { InviteRefusal } from '../social/Invites.js';
import { jsonReply } from './replies.js';
import { requireBearer } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';
import { requireScope } from './scopes.js';

/** The platform's error for each invite refusal. */
export function inviteRefusalError(refusal: InviteRefusal): ApiError {
  switch (refusal.reason) {
    case 'blocked':
      return new ApiError(403, 50007, refusal.message);
    case 'not_recipient':
      return new ApiError(403, 50001, refusal.message);
    case 'invalid':
      return new ApiError(400, 50036, refusal.message);
    default:
      return new ApiError(400, 50035, refusal.message);
  }
}

/**
 * `POST /users/{user.id}/messages/{message.id}/accept-activity-invite` → `{secret, application_id}`: the
 * recipient of a Join invite from `user.id` gets the host's current join secret. The platform does not
 * publish how its SDK fetches the secret; this route is the emulator's, shaped like the DM routes.
 */
export function inviteRoutes(ctx: EmulatorContext): Route[] {
  return [
    apiRoute('POST', '/users/:user_id/messages/:message_id/accept-activity-invite', (req) => {
      const caller = requireBearer(ctx, req);
      requireScope(caller, 'activities.invites.write');
      const messageId = req.params.message_id ?? '';
      const message = Object.hasOwn(ctx.store.state.messages, messageId)
        ? ctx.store.state.messages[messageId]
        : undefined;
      if (!message || message.authorId !== req.params.user_id) {
        throw unknown('Message');
      }
      try {
        const secret = ctx.invites.accept(message, caller.user.id);
        ctx.log.line('invites', `${caller.user.username} accepted an invite (message ${messageId})`);
        return jsonReply(200, { secret, application_id: ctx.store.state.application.id });
      } catch (error) {
        if (error instanceof InviteRefusal) throw inviteRefusalError(error);
        throw error;
      }
    }),
  ];
}

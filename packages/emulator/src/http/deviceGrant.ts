import type { EmulatorContext } from '../context.js';
import { deviceAuthorizationsOf } from '../oauth/deviceAuthorizations.js';
import { expandScopes } from '../store/scopes.js';
import type { Fields } from './body.js';
import { OAuthError } from './errors.js';
import type { Reply } from './replies.js';
import { grantedTokensReply, invalidGrant, invalidRequest, mergeSource } from './tokenEndpoint.js';

/** The device authorization grant's `grant_type` (RFC 8628 §3.4). */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** The longest `device_code` read; ours are 43 characters. */
const MAX_DEVICE_CODE_LENGTH = 256;

/**
 * The token endpoint's device-code grant (RFC 8628 §3.4–3.5): `authorization_pending` until the player
 * decides, `slow_down` (and a 5 s longer interval) for a poll before the interval is up, `access_denied`,
 * `expired_token`, then the usual token reply, once. With `external_auth_type` and `external_auth_token` it
 * merges that provisional account into the approving player, as the authorization-code grant does.
 */
export async function deviceCodeGrant(ctx: EmulatorContext, form: Fields): Promise<Reply> {
  const { store, accounts } = ctx;
  const deviceCode = form.get('device_code');
  if (!deviceCode) throw invalidRequest('device_code is required');
  if (deviceCode.length > MAX_DEVICE_CODE_LENGTH) throw invalidGrant('Invalid "device_code" in request.');
  // A malformed merge request is refused before the poll counts, so fixing it does not cost a slow_down.
  const source = await mergeSource(ctx, form);
  const { authorizations } = deviceAuthorizationsOf(ctx, () => store.now());
  const poll = authorizations.poll(deviceCode);
  switch (poll.kind) {
    case 'unknown':
      throw invalidGrant('Invalid "device_code" in request.');
    case 'expired':
      ctx.log.line('oauth2', 'device authorization expired');
      throw new OAuthError(400, 'expired_token', 'The device code has expired');
    case 'denied':
      ctx.log.line('oauth2', 'device authorization denied');
      throw new OAuthError(400, 'access_denied', 'The user denied the authorization request');
    case 'slow_down':
      ctx.log.line('oauth2', `device polled too fast: interval now ${poll.intervalSeconds} s`);
      throw new OAuthError(400, 'slow_down', `Poll at most every ${poll.intervalSeconds} seconds`);
    case 'pending':
      throw new OAuthError(400, 'authorization_pending', 'The user has not yet completed the authorization');
    case 'approved':
      break;
  }
  const { authorization } = poll;
  const user = authorization.userId === null ? undefined : store.user(authorization.userId);
  if (!user || user.banned) throw invalidGrant('Invalid "device_code" in request.');
  if (source) accounts.checkMerge(user, source);
  authorizations.consume(authorization);
  if (source) accounts.merge(user, source);
  return grantedTokensReply(ctx, user, {
    scope: authorization.scopes.join(' '),
    scopes: expandScopes(authorization.scopes),
    nonce: null,
    via: `device_code${source ? ', merge' : ''}`,
  });
}

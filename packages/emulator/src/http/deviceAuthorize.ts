import type { EmulatorContext } from '../context.js';
import { deviceAuthorizationsOf, displayUserCode } from '../oauth/deviceAuthorizations.js';
import { isKnownScope, parseScopeParam } from '../store/scopes.js';
import { OAuthError } from './errors.js';
import { noStoreJsonReply } from './replies.js';
import type { Route } from './router.js';
import { authenticateClient } from './tokenEndpoint.js';

/** Where the player enters the code: the platform's is `https://discord.com/activate`. */
export const ACTIVATE_PATH = '/activate';

/**
 * `POST /oauth2/device/authorize` (RFC 8628 §3.1–3.2): the device asks for a code pair. Client authentication
 * is the token endpoint's: a public client sends `client_id` alone, a game's server may add its secret. The
 * reply has the device's secret `device_code`, the player's `user_code`, where to enter it, its lifetime and
 * the polling interval.
 */
export function deviceAuthorizeRoutes(ctx: EmulatorContext): Route[] {
  return [
    {
      method: 'POST',
      scope: 'api',
      pattern: '/oauth2/device/authorize',
      style: 'oauth',
      handle: async (req) => {
        const form = await req.form();
        authenticateClient(ctx, req, form);
        const scopes = parseScopeParam(form.get('scope') ?? '');
        if (scopes.length === 0) throw new OAuthError(400, 'invalid_scope', 'scope is required');
        const unknown = scopes.find((s) => !isKnownScope(s));
        if (unknown !== undefined) {
          throw new OAuthError(400, 'invalid_scope', `Invalid scope: ${unknown.slice(0, 64)}`);
        }
        const { options, store } = ctx;
        const { authorizations } = deviceAuthorizationsOf(ctx, () => store.now());
        const made = authorizations.create(
          scopes,
          options.deviceCodeTtlSeconds,
          options.deviceCodeIntervalSeconds,
        );
        if (!made) {
          ctx.log.line('oauth2', 'device authorization refused: too many are waiting');
          throw new OAuthError(503, 'temporarily_unavailable', 'Too many device authorizations are waiting');
        }
        ctx.log.line('oauth2', `device authorization started for ${scopes.join(' ')}`);
        const userCode = displayUserCode(made.userCode);
        const verificationUri = `${ctx.urls.http}${ACTIVATE_PATH}`;
        return noStoreJsonReply(200, {
          device_code: made.deviceCode,
          user_code: userCode,
          verification_uri: verificationUri,
          verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(userCode)}`,
          expires_in: options.deviceCodeTtlSeconds,
          interval: options.deviceCodeIntervalSeconds,
        });
      },
    },
  ];
}

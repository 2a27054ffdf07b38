/** The parts every grant of the token endpoint shares: client authentication, the merge extension, the reply. */
import type { IdentityRef } from '../accounts/Accounts.js';
import type { EmulatorContext } from '../context.js';
import { invalidFormBody } from '../platform/errors.js';
import { safeEqual } from '../random.js';
import { EXTERNAL_AUTH_TYPES, type ExternalAuthType, type UserRecord } from '../store/types.js';
import { readCredentials } from './authHeader.js';
import type { Fields } from './body.js';
import { OAuthError } from './errors.js';
import { noStoreJsonReply, type Reply } from './replies.js';
import type { RouteRequest } from './router.js';

/** A 400 `invalid_request` with its description. */
export function invalidRequest(description: string): OAuthError {
  return new OAuthError(400, 'invalid_request', description);
}

/** A 400 `invalid_grant` with its description. */
export function invalidGrant(description: string): OAuthError {
  return new OAuthError(400, 'invalid_grant', description);
}

/**
 * Authenticates the client (RFC 6749 §2.3): HTTP Basic, or `client_id` (+ `client_secret`) in the form. A
 * public client sends `client_id` alone; a secret, when sent, must match. Failures are 401
 * `{"error":"invalid_client"}`, the platform's exact body. Returns whether the client proved its secret.
 */
export function authenticateClient(ctx: EmulatorContext, req: RouteRequest, form: Fields): boolean {
  const credentials = readCredentials(req.raw);
  const basic = credentials.scheme === 'basic' ? credentials : undefined;
  const challenge: Record<string, string> =
    basic || credentials.scheme === 'invalid' ? { 'WWW-Authenticate': 'Basic realm="sdkpp-emulator"' } : {};
  const invalidClient = new OAuthError(401, 'invalid_client', undefined, challenge);
  if (credentials.scheme === 'invalid') throw invalidClient;
  if (basic && form.has('client_secret')) {
    throw invalidRequest('Use one client authentication method, not two');
  }
  const formId = form.get('client_id');
  if (basic && formId !== undefined && formId !== basic.username) throw invalidClient;
  const clientId = basic?.username ?? formId;
  const app = ctx.store.state.application;
  if (clientId === undefined || !safeEqual(clientId, app.id)) throw invalidClient;
  const secret = basic?.password ?? form.get('client_secret');
  if (secret !== undefined && !safeEqual(secret, app.clientSecret)) throw invalidClient;
  return secret !== undefined;
}

/** The merge extension's identity, when the form carries one. */
export async function mergeSource(ctx: EmulatorContext, form: Fields): Promise<IdentityRef | undefined> {
  const type = form.get('external_auth_type');
  const token = form.get('external_auth_token');
  if (type === undefined && token === undefined) return undefined;
  if (type === undefined || token === undefined) {
    throw invalidRequest('external_auth_type and external_auth_token go together');
  }
  if (!(EXTERNAL_AUTH_TYPES as readonly string[]).includes(type)) {
    throw invalidFormBody({
      external_auth_type: {
        code: 'BASE_TYPE_CHOICES',
        message: `Value must be one of ${EXTERNAL_AUTH_TYPES.join(', ')}.`,
      },
    });
  }
  if (token.length < 1 || token.length > 10_240) {
    throw invalidFormBody({
      external_auth_token: {
        code: 'BASE_TYPE_BAD_LENGTH',
        message: 'Must be between 1 and 10240 in length.',
      },
    });
  }
  return ctx.accounts.resolveExternal(type as ExternalAuthType, token);
}

/** The token endpoint's success body (RFC 6749 §5.1), with an ID token when `openid` was granted. */
export function tokenBody(
  ctx: EmulatorContext,
  issued: { access: string; refresh: string; scope: string; userId: string },
  idToken: { nonce: string | null } | null,
): Record<string, unknown> {
  return {
    access_token: issued.access,
    token_type: 'Bearer',
    expires_in: ctx.options.accessTokenTtlSeconds,
    refresh_token: issued.refresh,
    scope: issued.scope,
    ...(idToken ? { id_token: ctx.accounts.idToken(issued.userId, idToken.nonce) } : {}),
  };
}

/**
 * Issues the access and refresh tokens of an approved authorization (an authorization code or a device code)
 * and answers with the token endpoint's reply; `via` names the grant in the log line.
 */
export function grantedTokensReply(
  ctx: EmulatorContext,
  user: UserRecord,
  grant: { scope: string; scopes: string[]; grantId?: string; nonce: string | null; via: string },
): Reply {
  const openid = grant.scopes.includes('openid');
  const { access, refresh } = ctx.store.issueTokens({
    userId: user.id,
    scope: grant.scope,
    scopes: grant.scopes,
    ttlSeconds: ctx.options.accessTokenTtlSeconds,
    origin: 'oauth2',
    ...(grant.grantId === undefined ? {} : { grantId: grant.grantId }),
    withRefresh: true,
    openid,
  });
  ctx.log.line('oauth2', `tokens issued to ${user.username} (${grant.via})`);
  return noStoreJsonReply(
    200,
    tokenBody(
      ctx,
      { access: access.token, refresh: refresh?.token ?? '', scope: grant.scope, userId: user.id },
      openid ? { nonce: grant.nonce } : null,
    ),
  );
}

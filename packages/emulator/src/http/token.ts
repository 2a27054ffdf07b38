import type { EmulatorContext } from '../context.js';
import { isWellFormedVerifier, verifierMatches } from '../oauth/pkce.js';
import { expandScopes, parseScopeParam } from '../store/scopes.js';
import type { Fields } from './body.js';
import { deviceCodeGrant, DEVICE_CODE_GRANT_TYPE } from './deviceGrant.js';
import { OAuthError } from './errors.js';
import { noStoreJsonReply, type Reply } from './replies.js';
import type { Route } from './router.js';
import {
  authenticateClient,
  grantedTokensReply,
  invalidGrant,
  invalidRequest,
  mergeSource,
  tokenBody,
} from './tokenEndpoint.js';

const INVALID_CODE = 'Invalid "code" in request.';
const INVALID_REFRESH = 'Invalid "refresh_token" in request';
/**
 * RFC 9745's `Deprecation` value: a date in the past means "deprecated already". The platform names no date,
 * so the emulator sends the epoch rather than make one up.
 */
const DEPRECATED_ALREADY = '@0';

async function authorizationCodeGrant(
  ctx: EmulatorContext,
  form: Fields,
  confidential: boolean,
): Promise<Reply> {
  const { store, accounts } = ctx;
  const code = form.get('code');
  const redirectUri = form.get('redirect_uri');
  const verifier = form.get('code_verifier');
  if (!code) throw invalidRequest('code is required');
  // A code issued over RPC (AUTHORIZE to a local client) had no redirect URI, so none is sent back.
  const issuedOverRpc = store.code(code)?.redirectUri === '';
  if (!redirectUri && !issuedOverRpc) throw invalidRequest('redirect_uri is required');
  // A missing verifier is a failed PKCE check (invalid_grant, RFC 7636 §4.6); a malformed one a bad request.
  if (verifier !== undefined && verifier !== '' && !isWellFormedVerifier(verifier)) {
    throw invalidRequest('code_verifier must be 43–128 characters of A-Z a-z 0-9 - . _ ~');
  }
  const record = store.code(code);
  if (!record) throw invalidGrant(INVALID_CODE);
  if (record.usedAt !== null) {
    // RFC 6749 §4.1.2: a replayed code may mean it was stolen, so everything issued from it dies.
    const revoked = store.deleteGrantTokens(record.grantId);
    ctx.log.line('oauth2', `authorization code replayed: ${revoked} token(s) from it revoked`);
    throw invalidGrant(INVALID_CODE);
  }
  if (record.expiresAt <= store.now()) throw invalidGrant(INVALID_CODE);
  if (record.redirectUri !== (redirectUri ?? '')) throw invalidGrant('Invalid "redirect_uri" in request.');
  if (record.codeChallenge === null) {
    // An Activity's AUTHORIZE sends no challenge: its game server exchanges the code with the secret.
    if (!confidential) throw invalidGrant('This code needs the client secret to be exchanged.');
    if (verifier) throw invalidGrant('Invalid "code_verifier" in request.');
  } else if (!verifier || !verifierMatches(verifier, record.codeChallenge)) {
    throw invalidGrant('Invalid "code_verifier" in request.');
  }
  const user = store.user(record.userId);
  if (!user || user.banned) throw invalidGrant(INVALID_CODE);
  const source = await mergeSource(ctx, form);
  // Reading the merge identity may wait on an identity provider: a concurrent exchange of the same code may
  // have spent it meanwhile.
  if (record.usedAt !== null) throw invalidGrant(INVALID_CODE);
  if (source) accounts.checkMerge(user, source);

  record.usedAt = store.now();
  if (source) accounts.merge(user, source);
  return grantedTokensReply(ctx, user, {
    scope: record.scope,
    scopes: record.scopes,
    grantId: record.grantId,
    nonce: record.nonce,
    via: `authorization_code${source ? ', merge' : ''}`,
  });
}

function refreshTokenGrant(ctx: EmulatorContext, form: Fields): Reply {
  const { store } = ctx;
  const token = form.get('refresh_token');
  if (!token) throw invalidRequest('refresh_token is required');
  const record = store.refreshToken(token);
  if (!record) throw invalidGrant(INVALID_REFRESH);
  const user = store.user(record.userId);
  if (!user || user.banned) throw invalidGrant(INVALID_REFRESH);
  let requested = parseScopeParam(record.scope);
  const narrowed = form.get('scope');
  if (narrowed !== undefined) {
    const asked = parseScopeParam(narrowed);
    const extra = asked.find((s) => !requested.includes(s));
    if (asked.length === 0 || extra !== undefined) {
      throw new OAuthError(400, 'invalid_scope', 'The requested scope exceeds the scope granted');
    }
    requested = asked;
  }
  // Only OIDC provisional accounts hold refresh tokens among provisional users. The document says their
  // refresh_token grant is deprecated, outcome not shown. Deprecated is not removed: the emulator still
  // refreshes (so a game that relies on it keeps working, as existing integrations do), marks the reply with
  // the `Deprecation` response header (RFC 9745) and logs a warning, so the developer learns to
  // re-authenticate with the provider and call UpdateToken instead.
  const deprecated = user.provisional;
  if (deprecated) {
    ctx.log.line(
      'oauth2',
      `warning: refresh_token grant for the OIDC provisional account ${user.username} is deprecated; re-authenticate with the identity provider instead`,
    );
  }
  // Rotation: the used refresh token and the access token issued with it both stop working now.
  store.deleteRefreshToken(record.token);
  store.deleteAccessToken(record.accessToken);
  const scope = requested.join(' ');
  const openid = record.openid && requested.includes('openid');
  const { access, refresh } = store.issueTokens({
    userId: user.id,
    scope,
    scopes: expandScopes(requested),
    ttlSeconds: ctx.options.accessTokenTtlSeconds,
    origin: deprecated ? 'provisional' : 'oauth2',
    grantId: record.grantId,
    withRefresh: true,
    openid,
  });
  ctx.log.line('oauth2', `tokens refreshed for ${user.username}`);
  return noStoreJsonReply(
    200,
    tokenBody(
      ctx,
      { access: access.token, refresh: refresh?.token ?? '', scope, userId: user.id },
      openid ? { nonce: null } : null,
    ),
    deprecated ? { Deprecation: DEPRECATED_ALREADY } : {},
  );
}

/** `POST /oauth2/token` and `POST /oauth2/token/revoke`. Both accept form bodies only. */
export function tokenRoutes(ctx: EmulatorContext): Route[] {
  return [
    {
      method: 'POST',
      scope: 'api',
      pattern: '/oauth2/token',
      style: 'oauth',
      handle: async (req) => {
        const form = await req.form();
        const confidential = authenticateClient(ctx, req, form);
        const grantType = form.get('grant_type');
        if (!grantType) throw invalidRequest('grant_type is required');
        if (grantType === 'authorization_code') return await authorizationCodeGrant(ctx, form, confidential);
        if (grantType === 'refresh_token') return refreshTokenGrant(ctx, form);
        if (grantType === DEVICE_CODE_GRANT_TYPE) return await deviceCodeGrant(ctx, form);
        throw new OAuthError(
          400,
          'unsupported_grant_type',
          `Unsupported grant_type: ${grantType.slice(0, 64)}`,
        );
      },
    },
    {
      method: 'POST',
      scope: 'api',
      pattern: '/oauth2/token/revoke',
      style: 'oauth',
      handle: async (req) => {
        const form = await req.form();
        authenticateClient(ctx, req, form);
        const token = form.get('token');
        if (!token) throw invalidRequest('token is required');
        const { store } = ctx;
        const userId = store.accessToken(token)?.userId ?? store.refreshToken(token)?.userId;
        // RFC 7009 §2.2: an unknown token is not an error; the answer is the same either way.
        if (userId !== undefined && store.user(userId)) ctx.accounts.revokeAll(userId);
        return noStoreJsonReply(200, {});
      },
    },
  ];
}

import type { EmulatorContext } from '../context.js';
import { childTokenScopes } from '../oauth/publisherApplications.js';
import { ApiError, missingAccess, unknown } from '../platform/errors.js';
import { safeEqual } from '../random.js';
import { readCredentials } from './authHeader.js';
import { OAuthError } from './errors.js';
import { noStoreJsonReply } from './replies.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';
import { BodyReader } from './validation.js';

/** The parent's client credentials, when the caller sent them (HTTP Basic, or client_id/client_secret). */
interface ClientCredentials {
  clientId: string | undefined;
  secret: string | undefined;
}

function clientSecretOf(req: RouteRequest, body: ClientCredentials): ClientCredentials {
  const credentials = readCredentials(req.raw);
  if (credentials.scheme === 'invalid') throw new OAuthError(401, 'invalid_client');
  if (credentials.scheme !== 'basic') return body;
  if (body.secret !== undefined)
    throw new OAuthError(400, 'invalid_request', 'Use one client authentication method, not two');
  return { clientId: credentials.username, secret: credentials.password };
}

/**
 * `POST /partner-sdk/child-token`: publisher-level account linking. A parent (publisher) access token is
 * exchanged for a token of one of the publisher's child applications. A public client sends only the parent
 * token; a confidential client's server adds the parent's client credentials. The child token belongs to the
 * same user, expires no later than the parent token, carries no refresh token (a new exchange renews it) and
 * carries the parent's scopes narrowed to what the child accepts ({@link childTokenScopes}).
 */
export function childTokenRoutes(ctx: EmulatorContext): Route[] {
  return [
    apiRoute('POST', '/partner-sdk/child-token', async (req) => {
      const body = new BodyReader(await req.json());
      const childId = body.snowflake('child_application_id');
      const parentToken = body.string('parent_access_token', 1, 10_240, true);
      const bodyClientId = body.string('client_id', 1, 64, false);
      const bodySecret = body.string('client_secret', 1, 1024, false);
      body.finish();
      if (childId === undefined || parentToken === undefined) throw new Error('unreachable: checked above');
      const app = ctx.store.state.application;
      const { clientId, secret } = clientSecretOf(req, { clientId: bodyClientId, secret: bodySecret });
      if (clientId !== undefined && !safeEqual(clientId, app.id)) throw unknown('Application');
      if (secret !== undefined && !safeEqual(secret, app.clientSecret)) {
        throw new ApiError(400, 530007, 'Invalid client secret');
      }
      const parent = ctx.store.accessToken(parentToken);
      const user = parent ? ctx.store.user(parent.userId) : undefined;
      if (!parent || !user || user.banned) throw new ApiError(401, 50025, 'Invalid OAuth2 access token');
      if (parent.applicationId !== undefined) {
        throw missingAccess('the parent access token is a child token; exchange the publisher token');
      }
      const child = ctx.options.publisherApplications.find((a) => a.id === childId);
      if (!child) throw unknown('Application');
      if (!child.child) {
        ctx.log.line('oauth2', `child token refused: application ${childId} is not a child of ${app.id}`);
        throw missingAccess(`application ${childId} is not a child of the publisher application ${app.id}`);
      }
      const { scope, scopes } = childTokenScopes(parent, child);
      if (scopes.length === 0) {
        throw new ApiError(400, 50035, 'The parent access token has no scope the child application accepts');
      }
      const ttlSeconds = Math.min(
        ctx.options.accessTokenTtlSeconds,
        Math.floor((parent.expiresAt - ctx.store.now()) / 1000),
      );
      if (ttlSeconds <= 0) throw new ApiError(401, 50025, 'Invalid OAuth2 access token');
      const { access } = ctx.store.issueTokens({
        userId: user.id,
        scope,
        scopes,
        ttlSeconds,
        origin: parent.origin,
        grantId: parent.grantId,
        withRefresh: false,
        openid: false,
        applicationId: child.id,
      });
      ctx.log.line('oauth2', `child token for ${child.name} issued to ${user.username}`);
      return noStoreJsonReply(200, {
        access_token: access.token,
        token_type: 'Bearer',
        expires_in: ttlSeconds,
        scope,
      });
    }),
  ];
}

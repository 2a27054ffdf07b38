import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import { checkConsentToken, makeConsentToken } from '../oauth/csrf.js';
import { withQueryParams } from '../oauth/redirectUris.js';
import { expandScopes } from '../store/scopes.js';
import { addUserInstall } from '../store/userInstalls.js';
import type { UserRecord } from '../store/types.js';
import { checkAuthorizeRequest, type AuthorizeRequest } from './authorizeRequest.js';
import type { Fields } from './body.js';
import { getBotAuthorize, isBotAuthorization, postBotAuthorize } from './botAuthorize.js';
import { ACTION_FIELD, CSRF_FIELD, USER_FIELD, renderConsentPage } from './consentPage.js';
import { HtmlError } from './errors.js';
import { OriginPolicy } from './originPolicy.js';
import { htmlReply, jsonReply, redirectReply, type Reply } from './replies.js';
import { requireBearer } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';

const PAGE_TITLE = 'Authorization error';

function errorRedirect(
  redirectUri: string,
  state: string | undefined,
  error: string,
  description: string,
): Reply {
  return redirectReply(withQueryParams(redirectUri, { error, error_description: description, state }));
}

/**
 * Validates the request: a request that cannot be trusted throws an error page; any other problem gives
 * the error redirect that ends it.
 */
function validate(ctx: EmulatorContext, fields: Fields): { request: AuthorizeRequest } | { reply: Reply } {
  const check = checkAuthorizeRequest(fields, ctx.store.state.application);
  if (check.kind === 'page') throw new HtmlError(400, PAGE_TITLE, check.message);
  if (check.kind === 'redirect') {
    return { reply: errorRedirect(check.redirectUri, check.state, check.error, check.description) };
  }
  return { request: check.request };
}

/** Issues a code for `user` and redirects to the client with it. */
function approve(ctx: EmulatorContext, request: AuthorizeRequest, user: UserRecord): Reply {
  if (user.banned) {
    return errorRedirect(request.redirectUri, request.state, 'access_denied', 'This account is banned');
  }
  const { store, options } = ctx;
  const record = store.createCode({
    userId: user.id,
    redirectUri: request.redirectUri,
    scope: request.scopes.join(' '),
    scopes: expandScopes(request.scopes),
    codeChallenge: request.codeChallenge,
    nonce: request.nonce ?? null,
    expiresAt: store.now() + options.codeTtlMs,
  });
  ctx.log.line('oauth2', `${user.username} authorized ${request.scopes.join(' ')}`);
  // A user install: the link's integration_type 1 with applications.commands (the portal's User Install link).
  if (request.integrationType === '1' && request.scopes.includes('applications.commands')) {
    addUserInstall(store.state.application, user.id);
  }
  // The app is now installed to the user (integration type 1): the APPLICATION_AUTHORIZED webhook event.
  ctx.webhooks.emit('APPLICATION_AUTHORIZED', {
    integration_type: 1,
    user: wireUser(user),
    scopes: request.scopes,
  });
  return redirectReply(withQueryParams(request.redirectUri, { code: record.code, state: request.state }));
}

function getAuthorize(ctx: EmulatorContext, fields: Fields): Reply {
  if (isBotAuthorization(fields)) return getBotAuthorize(ctx, fields);
  const checked = validate(ctx, fields);
  if ('reply' in checked) return checked.reply;
  const { request } = checked;
  const { store } = ctx;
  const hinted = request.loginHint !== undefined ? store.findUser(request.loginHint) : undefined;
  // prompt=consent asks for the page even when the emulator would approve on its own.
  if (ctx.options.autoConsent && request.prompt !== 'consent') {
    const user = request.loginHint !== undefined ? hinted : store.fullUsers()[0];
    if (!user || user.bot) {
      const description =
        request.loginHint !== undefined ? 'login_hint names no user' : 'the emulator has no users';
      return errorRedirect(request.redirectUri, request.state, 'invalid_request', description);
    }
    return approve(ctx, request, user);
  }
  const users = store.allUsers().filter((u) => !u.bot && (!u.provisional || u.id === hinted?.id));
  return htmlReply(
    200,
    renderConsentPage({
      applicationName: store.state.application.name,
      request,
      users,
      selectedUserId: hinted?.id,
      csrfToken: makeConsentToken(ctx.csrfKey, request.params, store.now()),
    }),
  );
}

function postAuthorize(ctx: EmulatorContext, fields: Fields): Reply {
  if (isBotAuthorization(fields)) return postBotAuthorize(ctx, fields);
  const checked = validate(ctx, fields);
  if ('reply' in checked) return checked.reply;
  const { request } = checked;
  const token = fields.get(CSRF_FIELD);
  if (token === undefined || !checkConsentToken(ctx.csrfKey, token, request.params, ctx.store.now())) {
    throw new HtmlError(400, PAGE_TITLE, 'The consent form expired or was changed. Start the sign-in again.');
  }
  const action = fields.get(ACTION_FIELD);
  if (action === 'cancel') {
    ctx.log.line('oauth2', 'authorization cancelled');
    return errorRedirect(
      request.redirectUri,
      request.state,
      'access_denied',
      'The resource owner or authorization server denied the request',
    );
  }
  if (action !== 'authorize') throw new HtmlError(400, PAGE_TITLE, 'Choose Authorize or Cancel.');
  const userId = fields.get(USER_FIELD);
  const user = userId !== undefined ? ctx.store.user(userId) : undefined;
  if (!user || user.bot) throw new HtmlError(400, PAGE_TITLE, 'Choose a user to sign in as.');
  return approve(ctx, request, user);
}

/** Routes of the authorize page, the token introspection endpoint and the OpenID Connect documents. */
export function oauth2Routes(ctx: EmulatorContext): Route[] {
  // The consent page's form signs a user in (and adds the bot to a guild): the same rules as the dashboard.
  const policy = new OriginPolicy(ctx.urls.http);
  const guard = { title: PAGE_TITLE, page: '/oauth2/authorize' };
  return [
    {
      method: 'GET',
      scope: 'root',
      pattern: '/oauth2/authorize',
      style: 'html',
      handle: (req) => {
        policy.guardPage(req.raw, { ...guard, changes: false });
        return getAuthorize(ctx, req.query());
      },
    },
    {
      method: 'POST',
      scope: 'root',
      pattern: '/oauth2/authorize',
      style: 'html',
      handle: async (req) => {
        policy.guardPage(req.raw, { ...guard, changes: true });
        return postAuthorize(ctx, await req.form());
      },
    },
    apiRoute('GET', '/oauth2/@me', (req) => {
      const { user, token } = requireBearer(ctx, req);
      const app = ctx.store.state.application;
      return jsonReply(200, {
        application: { id: app.id, name: app.name },
        scopes: token.scopes,
        expires: new Date(token.expiresAt).toISOString(),
        user: wireUser(user),
      });
    }),
    apiRoute('GET', '/oauth2/keys', () => jsonReply(200, ctx.signer.jwks())),
    {
      method: 'GET',
      scope: 'root',
      pattern: '/.well-known/openid-configuration',
      style: 'api',
      handle: () => jsonReply(200, discoveryDocument(ctx)),
    },
  ];
}

/** The OpenID Connect discovery document; only endpoints the emulator serves are listed. */
function discoveryDocument(ctx: EmulatorContext): Record<string, unknown> {
  const { http, api } = ctx.urls;
  return {
    issuer: http,
    authorization_endpoint: `${http}/oauth2/authorize`,
    token_endpoint: `${api}/oauth2/token`,
    device_authorization_endpoint: `${api}/oauth2/device/authorize`,
    revocation_endpoint: `${api}/oauth2/token/revoke`,
    jwks_uri: `${api}/oauth2/keys`,
    response_types_supported: ['code'],
    grant_types_supported: [
      'authorization_code',
      'refresh_token',
      'urn:ietf:params:oauth:grant-type:device_code',
    ],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
    scopes_supported: ['openid', 'sdk.social_layer', 'sdk.social_layer_presence', 'identify'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    claims_supported: ['iss', 'sub', 'aud', 'iat', 'exp', 'nonce'],
  };
}

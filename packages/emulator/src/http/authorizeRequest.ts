import { isWellFormedS256Challenge } from '../oauth/pkce.js';
import { isRegisteredRedirectUri } from '../oauth/redirectUris.js';
import { isKnownScope, parseScopeParam } from '../store/scopes.js';
import type { ApplicationRecord } from '../store/types.js';
import type { Fields } from './body.js';

/** The authorize parameters the emulator reads (reference §4.2 plus `login_hint`); others are ignored. */
export const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'scope',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'integration_type',
  'prompt',
  'permissions',
  'guild_id',
  'disable_guild_select',
  'login_hint',
] as const;

/** A valid authorize request. */
export interface AuthorizeRequest {
  /** The recognised parameters exactly as received, for the consent form and its CSRF binding. */
  params: Map<string, string>;
  redirectUri: string;
  /** Requested scopes, in order, without duplicates. */
  scopes: string[];
  state: string | undefined;
  /**
   * The S256 challenge; null when none was sent, and then the code can be redeemed only with the client
   * secret (the game's server exchanges it, as the SDK's `authorize` without `codeChallenge` intends).
   */
  codeChallenge: string | null;
  nonce: string | undefined;
  prompt: string | undefined;
  loginHint: string | undefined;
  /** `integration_type`: 0 a guild install, 1 a user install; undefined when not given. */
  integrationType: '0' | '1' | undefined;
}

/** The outcome of checking an authorize request. */
export type AuthorizeCheck =
  | { kind: 'ok'; request: AuthorizeRequest }
  /** Client or redirect URI cannot be trusted: show an error page, never redirect (RFC 6749 §4.1.2.1). */
  | { kind: 'page'; message: string }
  /** Any other error: redirect back with `error`, `error_description` and `state`. */
  | { kind: 'redirect'; redirectUri: string; state: string | undefined; error: string; description: string };

/** Longest accepted `state` or `nonce`; the platform does not publish one, this keeps URLs sane. */
const MAX_ECHO_LENGTH = 2048;

/** Checks authorize parameters (from the query on GET, from the consent form on POST). */
export function checkAuthorizeRequest(fields: Fields, app: ApplicationRecord): AuthorizeCheck {
  const params = new Map<string, string>();
  for (const name of AUTHORIZE_PARAMS) {
    const value = fields.get(name);
    if (value !== undefined) params.set(name, value);
  }
  const clientId = params.get('client_id');
  if (clientId === undefined || clientId === '') {
    return { kind: 'page', message: 'The request has no client_id.' };
  }
  if (clientId !== app.id) return { kind: 'page', message: `Unknown application (client_id ${clientId}).` };
  const redirectUri = params.get('redirect_uri');
  if (redirectUri === undefined || redirectUri === '') {
    return { kind: 'page', message: 'The request has no redirect_uri.' };
  }
  if (!isRegisteredRedirectUri(redirectUri, app)) {
    return {
      kind: 'page',
      message: `The redirect_uri ${redirectUri} is not registered for this application.`,
    };
  }
  const state = params.get('state');
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    redirectUri,
    state: state !== undefined && state.length <= MAX_ECHO_LENGTH ? state : undefined,
    error,
    description,
  });
  if (state !== undefined && state.length > MAX_ECHO_LENGTH) {
    return fail('invalid_request', 'state is too long');
  }
  const responseType = params.get('response_type');
  if (responseType !== 'code') return fail('unsupported_response_type', 'response_type must be "code"');
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  // Without PKCE the code is the confidential client's: the token endpoint then wants the client secret
  // (token.ts), which a game never holds, so only its server can redeem the code. A method with no challenge,
  // or a challenge that is not S256, is a broken PKCE request rather than none.
  const withoutPkce = (challenge === undefined || challenge === '') && method === undefined;
  if (!withoutPkce) {
    if (challenge === undefined || challenge === '') {
      return fail('invalid_request', 'code_challenge is required with code_challenge_method');
    }
    if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    if (!isWellFormedS256Challenge(challenge)) {
      return fail('invalid_request', 'code_challenge is not an S256 challenge (43 base64url characters)');
    }
  }
  const scopes = parseScopeParam(params.get('scope') ?? '');
  if (scopes.length === 0) return fail('invalid_scope', 'scope is required');
  const unknown = scopes.find((s) => !isKnownScope(s));
  if (unknown !== undefined) return fail('invalid_scope', `Invalid scope: ${unknown}`);
  const nonce = params.get('nonce');
  if (nonce !== undefined && (nonce.length === 0 || nonce.length > MAX_ECHO_LENGTH)) {
    return fail('invalid_request', 'nonce must be 1–2048 characters');
  }
  const integrationType = params.get('integration_type');
  if (integrationType !== undefined && integrationType !== '0' && integrationType !== '1') {
    return fail('invalid_request', 'integration_type must be 0 or 1');
  }
  // The portal's Installation page decides which installs the link may make: a context taken out of
  // `integration_types_config` (PATCH /applications/@me) ends installs of that kind.
  const context = integrationType === '1' ? 'user' : integrationType === '0' ? 'guild' : undefined;
  if (context !== undefined && app.installContexts[context] === undefined) {
    return fail(
      'invalid_request',
      `This application does not support ${context} installs (integration_type ${integrationType})`,
    );
  }
  const prompt = params.get('prompt');
  if (prompt !== undefined && prompt !== 'consent' && prompt !== 'none') {
    return fail('invalid_request', 'prompt must be consent or none');
  }
  return {
    kind: 'ok',
    request: {
      params,
      redirectUri,
      scopes,
      state,
      codeChallenge: withoutPkce ? null : (challenge ?? null),
      nonce,
      prompt,
      loginHint: params.get('login_hint'),
      integrationType: integrationType === '0' || integrationType === '1' ? integrationType : undefined,
    },
  };
}

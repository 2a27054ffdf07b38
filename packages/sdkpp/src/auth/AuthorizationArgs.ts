import { ValidationError } from '@sdkpp/protocol';
import { AuthenticationCodeChallengeMethod, type AuthorizationCodeChallenge } from './pkce.js';
import { DEFAULT_COMMUNICATION_SCOPES } from './scopes.js';

/** How the application will be installed, as in the authorize URL's `integration_type`. */
export enum IntegrationType {
  /** Installed to a server. */
  GuildInstall = 0,
  /** Installed to the user's account. */
  UserInstall = 1,
}

/**
 * Arguments of {@link Client.authorize}: every field of the C++ SDK's `AuthorizationArgs`.
 * Only `codeChallenge` is needed in practice; the rest has sensible defaults.
 */
export interface AuthorizationArgs {
  /** The application id (a snowflake). @defaultValue the client's `applicationId` */
  clientId?: string;
  /** Space-separated OAuth2 scopes. @defaultValue `'openid sdk.social_layer'` ({@link getDefaultCommunicationScopes}) */
  scopes?: string;
  /** CSRF protection value echoed back by the redirect. @defaultValue a secure random value, checked on return */
  state?: string;
  /** OpenID Connect nonce, placed in the ID token; useful to backends that verify ID tokens. */
  nonce?: string;
  /** The PKCE challenge from {@link createAuthorizationCodeVerifier}; needed for {@link Client.getToken}. */
  codeChallenge?: AuthorizationCodeChallenge;
  /** The type of installation. */
  integrationType?: IntegrationType;
  /**
   * A custom URI scheme: the redirect becomes `<scheme>:/authorize/callback`. The game must route that URL
   * back with {@link Client.completeAuthorize} (in Electron: `app.on('open-url')`).
   */
  customSchemeParam?: string;
}

/** {@link AuthorizationArgs} after defaults and validation. */
export interface ResolvedAuthorizationArgs {
  clientId: string;
  scopes: string;
  state: string;
  stateWasGenerated: boolean;
  nonce: string | undefined;
  codeChallenge: AuthorizationCodeChallenge | undefined;
  integrationType: IntegrationType | undefined;
  customSchemeParam: string | undefined;
}

const SNOWFLAKE = /^[0-9]{1,20}$/;
const SCOPE = /^[A-Za-z0-9._:-]+$/;
// RFC 3986 §3.1 scheme syntax; web schemes are refused because they would not reach the game.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_PARAM_LENGTH = 1024;

/** Checks `args` and fills in defaults; throws {@link ValidationError} before any I/O. */
export function resolveAuthorizationArgs(
  args: AuthorizationArgs,
  defaults: { applicationId: string | undefined; generateState: () => string },
): ResolvedAuthorizationArgs {
  const clientId = args.clientId ?? defaults.applicationId;
  if (clientId === undefined || clientId === '') {
    throw new ValidationError('AuthorizationArgs.clientId is not set and the client has no applicationId');
  }
  if (!SNOWFLAKE.test(clientId))
    throw new ValidationError('AuthorizationArgs.clientId must be a snowflake id');

  const scopes = (args.scopes ?? DEFAULT_COMMUNICATION_SCOPES).trim().split(/\s+/).filter(Boolean);
  if (scopes.length === 0) throw new ValidationError('AuthorizationArgs.scopes is empty');
  const badScope = scopes.find((s) => !SCOPE.test(s));
  if (badScope !== undefined)
    throw new ValidationError(`AuthorizationArgs.scopes has an invalid scope "${badScope}"`);

  for (const [name, value] of [
    ['state', args.state],
    ['nonce', args.nonce],
  ] as const) {
    if (value !== undefined && (value.length === 0 || value.length > MAX_PARAM_LENGTH)) {
      throw new ValidationError(`AuthorizationArgs.${name} must be 1–${MAX_PARAM_LENGTH} characters`);
    }
  }

  const challenge = args.codeChallenge;
  if (challenge !== undefined) {
    if (challenge === null || typeof challenge !== 'object' || typeof challenge.challenge !== 'string') {
      throw new ValidationError(
        `AuthorizationArgs.codeChallenge must be the { challenge, method } object of createAuthorizationCodeVerifier() (pass pkce.challenge), not ${challenge === null ? 'null' : typeof challenge}`,
      );
    }
    if (challenge.method !== AuthenticationCodeChallengeMethod.S256) {
      throw new ValidationError('AuthorizationArgs.codeChallenge must use the S256 method');
    }
    if (!CHALLENGE.test(challenge.challenge)) {
      throw new ValidationError(
        'AuthorizationArgs.codeChallenge is not an S256 challenge (43 base64url characters)',
      );
    }
  }

  if (args.integrationType !== undefined && !(args.integrationType in IntegrationType)) {
    throw new ValidationError('AuthorizationArgs.integrationType is not a known IntegrationType');
  }

  const scheme = args.customSchemeParam;
  if (scheme !== undefined && (!SCHEME.test(scheme) || /^(https?|file|javascript|data)$/i.test(scheme))) {
    throw new ValidationError(
      'AuthorizationArgs.customSchemeParam must be a custom URI scheme such as "mygame"',
    );
  }

  const stateWasGenerated = args.state === undefined;
  return {
    clientId,
    scopes: scopes.join(' '),
    state: args.state ?? defaults.generateState(),
    stateWasGenerated,
    nonce: args.nonce,
    codeChallenge: challenge,
    integrationType: args.integrationType,
    customSchemeParam: scheme,
  };
}

/** The redirect URI for a custom scheme: `<scheme>:/authorize/callback`. */
export function customSchemeRedirectUri(scheme: string): string {
  return `${scheme}:/authorize/callback`;
}

/** The application's default custom scheme, derived from its id. */
export function applicationSchemeRedirectUri(clientId: string): string {
  return customSchemeRedirectUri(`discord-${clientId}`);
}

/** Builds the authorize page URL under `webBase`. */
export function buildAuthorizeUrl(
  webBase: string,
  args: ResolvedAuthorizationArgs,
  redirectUri: string,
): string {
  const url = new URL('/oauth2/authorize', webBase);
  const params = url.searchParams;
  params.set('response_type', 'code');
  params.set('client_id', args.clientId);
  params.set('scope', args.scopes);
  params.set('redirect_uri', redirectUri);
  params.set('state', args.state);
  if (args.codeChallenge) {
    params.set('code_challenge', args.codeChallenge.challenge);
    params.set('code_challenge_method', 'S256');
  }
  if (args.nonce !== undefined) params.set('nonce', args.nonce);
  if (args.integrationType !== undefined) params.set('integration_type', String(args.integrationType));
  // URLSearchParams writes spaces as '+'; the platform documents %20 for scope lists.
  return url.toString().replace(/\+/g, '%20');
}

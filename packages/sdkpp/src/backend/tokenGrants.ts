import { ValidationError } from '@sdkpp/protocol';
import { isValidCodeVerifier } from '../auth/pkce.js';

// The confidential client's two grants on POST /oauth2/token. The game is a public client (PKCE, no secret);
// the game's server holds the client secret, so the game sends it only the code, and the server exchanges and
// refreshes with client_id + client_secret (RFC 6749 §2.3.1, the form-body method the platform accepts).

/** What {@link GameBackend.exchangeCode} takes: what the game sent its server after `authorize()`. */
export interface CodeExchangeOptions {
  /** The authorization code from the game's `authorize()`. Secret, single use, valid for minutes. */
  code: string;
  /**
   * The redirect URI of that authorize request (`authorize()` resolves with it); the platform checks it
   * matches. Leave it out for a code issued without one: an Activity's AUTHORIZE, or the desktop client's.
   */
  redirectUri?: string;
  /**
   * The PKCE verifier whose challenge the game's authorize request carried: the server made the pair
   * (`createAuthorizationCodeVerifier()`), kept the verifier and sent the game only the challenge. Leave it
   * out for a code issued without a challenge (an Activity's AUTHORIZE).
   */
  codeVerifier?: string;
}

/** What {@link GameBackend.refreshToken} takes. */
export interface TokenRefreshOptions {
  /** The refresh token of the pair to replace. Secret; it stops working once used. */
  refreshToken: string;
}

/** The application's client credentials, as the token endpoint takes them. */
export interface ClientCredentials {
  /** The application's id (the OAuth2 client id). */
  clientId: string;
  /** The application's client secret. */
  clientSecret: string;
}

/** The form of an authorization_code grant; throws ValidationError for what the platform would refuse. */
export function codeGrantForm(
  credentials: ClientCredentials,
  options: CodeExchangeOptions,
): Record<string, string | undefined> {
  if (typeof options.code !== 'string' || options.code === '') throw new ValidationError('code is empty');
  if (options.redirectUri !== undefined && typeof options.redirectUri !== 'string') {
    throw new ValidationError('redirectUri must be the string authorize() resolved with');
  }
  if (options.codeVerifier !== undefined && !isValidCodeVerifier(options.codeVerifier)) {
    throw new ValidationError('codeVerifier must be 43–128 characters of [A-Za-z0-9-._~] (RFC 7636)');
  }
  return {
    grant_type: 'authorization_code',
    code: options.code,
    // Codes issued without a redirect (an Activity's AUTHORIZE, the desktop client's) are exchanged without one.
    redirect_uri: options.redirectUri || undefined,
    code_verifier: options.codeVerifier,
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  };
}

/** The form of a refresh_token grant; throws ValidationError for an empty token. */
export function refreshGrantForm(
  credentials: ClientCredentials,
  options: TokenRefreshOptions,
): Record<string, string | undefined> {
  if (typeof options.refreshToken !== 'string' || options.refreshToken === '') {
    throw new ValidationError('refreshToken is empty');
  }
  return {
    grant_type: 'refresh_token',
    refresh_token: options.refreshToken,
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  };
}

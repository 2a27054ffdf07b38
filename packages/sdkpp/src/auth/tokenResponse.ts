import { ErrorType, SdkError } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import { AuthorizationTokenType, type TokenExchangeResult } from './tokenTypes.js';

/** A token endpoint's JSON reply as it arrives: every field unchecked. */
export interface WireTokenResponse {
  access_token?: unknown;
  refresh_token?: unknown;
  token_type?: unknown;
  expires_in?: unknown;
  scope?: unknown;
  id_token?: unknown;
}

function malformed(field: string): SdkError {
  return new SdkError(ErrorType.HTTPError, `the token response has no valid "${field}"`);
}

/**
 * Checks a token reply (OAuth2 token, refresh, provisional-account tokens) and registers every token in it
 * with `log` as a secret before anything else can print it.
 *
 * @throws SdkError `HTTPError` when a required field is missing or malformed.
 */
export function parseTokenResponse(body: WireTokenResponse | undefined, log: LogWriter): TokenExchangeResult {
  if (!body || typeof body.access_token !== 'string' || body.access_token === '')
    throw malformed('access_token');
  log.secret(body.access_token);
  const tokenType = typeof body.token_type === 'string' ? body.token_type.toLowerCase() : '';
  if (tokenType !== 'bearer') throw malformed('token_type');
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : NaN;
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) throw malformed('expires_in');
  const refreshToken = typeof body.refresh_token === 'string' ? body.refresh_token : '';
  log.secret(refreshToken);
  const result: TokenExchangeResult = {
    accessToken: body.access_token,
    refreshToken,
    tokenType: AuthorizationTokenType.Bearer,
    expiresIn,
    scopes: typeof body.scope === 'string' ? body.scope : '',
  };
  if (typeof body.id_token === 'string') {
    log.secret(body.id_token);
    result.idToken = body.id_token;
  }
  return result;
}

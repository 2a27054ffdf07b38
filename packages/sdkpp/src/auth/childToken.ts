import { ValidationError } from '@sdkpp/protocol';
import type { ChildTokenResult, TokenExchangeResult } from './tokenTypes.js';

// Publisher-level linking's one call, POST /partner-sdk/child-token, in both forms: a public client sends the
// parent token alone; a confidential client's server adds the parent application's client credentials (in the
// JSON body, as the partner-sdk endpoints take them).

/** What one exchange needs. */
export interface ChildTokenParams {
  /** The parent (publisher) application's access token. Secret. */
  parentApplicationToken: string;
  /** The child application's id. */
  childApplicationId: string;
  /** The parent's client credentials, for the confidential (server-to-server) form. */
  client?: { clientId: string; clientSecret: string } | undefined;
}

/** The platform's limit on the parent token's length (the endpoint's field limit). */
const MAX_PARENT_TOKEN_LENGTH = 10_240;

/** The JSON body of the exchange; throws ValidationError for what the platform would refuse. */
export function childTokenRequest(params: ChildTokenParams): { json: Record<string, string> } {
  const token = params.parentApplicationToken;
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_PARENT_TOKEN_LENGTH) {
    throw new ValidationError(`parentApplicationToken must be 1–${MAX_PARENT_TOKEN_LENGTH} characters`);
  }
  if (typeof params.childApplicationId !== 'string' || !/^\d{1,20}$/.test(params.childApplicationId)) {
    throw new ValidationError('childApplicationId must be an application id (a snowflake)');
  }
  const json: Record<string, string> = {
    child_application_id: params.childApplicationId,
    parent_access_token: token,
  };
  if (params.client) {
    json.client_id = params.client.clientId;
    json.client_secret = params.client.clientSecret;
  }
  return { json };
}

/** The child token's fields, from a checked token reply (which has no refresh token). */
export function childTokenResult(tokens: TokenExchangeResult): ChildTokenResult {
  return {
    accessToken: tokens.accessToken,
    tokenType: tokens.tokenType,
    expiresIn: tokens.expiresIn,
    scopes: tokens.scopes,
  };
}

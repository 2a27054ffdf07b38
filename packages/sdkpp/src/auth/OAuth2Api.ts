import { SdkError, ErrorType, ValidationError } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import type { RestClient } from '../rest/RestClient.js';
import { deauthorizedFrom } from './deauthorized.js';
import { isValidCodeVerifier } from './pkce.js';
import { parseTokenResponse, type WireTokenResponse } from './tokenResponse.js';
import { childTokenRequest, childTokenResult, type ChildTokenParams } from './childToken.js';
import {
  externalAuthTypeWireName,
  type ChildTokenResult,
  type AuthenticationExternalAuthType,
  type TokenExchangeResult,
} from './tokenTypes.js';

/** What `GET /oauth2/@me` says about a token. */
export interface TokenInfo {
  /** Expiry time, ms since the epoch. */
  expiresAt: number;
  scopes: string[];
  user: { id: string; username: string } | undefined;
}

/** An authorization code to exchange, with its PKCE verifier and the redirect URI of the flow. */
export interface CodeExchange {
  /** The one-time code from the redirect. Secret. */
  code: string;
  /** The PKCE verifier whose challenge went into the authorize URL. Secret. */
  codeVerifier: string;
  /** The redirect URI used by the authorize request; must match exactly. */
  redirectUri: string;
  /** Merge the provisional account of this identity into the authorizing account. */
  merge?: ExternalAuth;
}

/** An external identity for the provisional-account calls. */
export interface ExternalAuth {
  /** The identity provider that issued the token. */
  externalAuthType: AuthenticationExternalAuthType;
  /** The provider's token. Secret. */
  externalAuthToken: string;
}

/** The device authorization response (RFC 8628 §3.2), checked. */
export interface DeviceCodes {
  /** The device's secret to poll with. Secret: registered with the log's redactor. */
  deviceCode: string;
  /** The code the player enters. */
  userCode: string;
  /** Where the player enters it. */
  verificationUri: string;
  /** The same with the code filled in (for a QR code), or `verificationUri` when the platform sent none. */
  verificationUriComplete: string;
  /** Seconds until both codes expire. */
  expiresIn: number;
  /** Seconds to wait between polls. */
  interval: number;
}

/** The device authorization grant's `grant_type` (RFC 8628 §3.4). */
const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * The public-client OAuth2 and provisional-account calls. Every secret it sends or receives is handed to the
 * log writer's redactor first, so a later log line cannot echo it.
 */
export class OAuth2Api {
  readonly #rest: RestClient;
  readonly #log: LogWriter;

  constructor(rest: RestClient, log: LogWriter) {
    this.#rest = rest;
    this.#log = log;
  }

  /** Exchanges an authorization code (with its PKCE verifier) for tokens. */
  async exchangeCode(
    params: CodeExchange & { applicationId: string },
    signal?: AbortSignal,
  ): Promise<TokenExchangeResult> {
    this.#log.secret(params.code);
    this.#log.secret(params.codeVerifier);
    if (!isValidCodeVerifier(params.codeVerifier)) {
      throw new ValidationError('codeVerifier must be 43–128 characters of [A-Za-z0-9-._~] (RFC 7636)');
    }
    if (!params.code) throw new ValidationError('code is empty');
    const form: Record<string, string | undefined> = {
      grant_type: 'authorization_code',
      client_id: params.applicationId,
      code: params.code,
      code_verifier: params.codeVerifier,
      // Codes issued by a local client over RPC carry no redirect URI; the exchange then sends none.
      redirect_uri: params.redirectUri || undefined,
    };
    if (params.merge) {
      form.external_auth_type = this.#wireType(params.merge.externalAuthType);
      form.external_auth_token = params.merge.externalAuthToken;
      this.#log.secret(params.merge.externalAuthToken);
    }
    return this.#tokenRequest(form, signal);
  }

  /** Trades a refresh token for a new pair; `invalid_grant` becomes a {@link DeauthorizedError}. */
  async refresh(
    params: { applicationId: string; refreshToken: string },
    signal?: AbortSignal,
  ): Promise<TokenExchangeResult> {
    this.#log.secret(params.refreshToken);
    if (!params.refreshToken) throw new ValidationError('refreshToken is empty');
    try {
      return await this.#tokenRequest(
        { grant_type: 'refresh_token', client_id: params.applicationId, refresh_token: params.refreshToken },
        signal,
        (headers) => {
          // The platform deprecates the refresh_token grant for OIDC provisional accounts (RFC 9745 header).
          if (headers.get('deprecation') !== null) {
            this.#log.warn(
              'refreshToken: the platform marks this refresh as deprecated (an OIDC provisional account): when the token expires, sign in with the identity provider again, call getProvisionalToken() and pass the new token to updateToken()',
            );
          }
        },
      );
    } catch (error) {
      throw deauthorizedFrom(error);
    }
  }

  /** Starts a device authorization (`POST /oauth2/device/authorize`) for space-separated `scopes`. */
  async deviceAuthorize(
    params: { applicationId: string; scopes: string },
    signal?: AbortSignal,
  ): Promise<DeviceCodes> {
    const { body } = await this.#rest.request<Record<string, unknown> | undefined>({
      method: 'POST',
      route: '/oauth2/device/authorize',
      form: { client_id: params.applicationId, scope: params.scopes },
      signal,
    });
    const where = '/oauth2/device/authorize';
    const deviceCode = body?.device_code;
    if (typeof deviceCode !== 'string' || deviceCode === '') throw malformed(where, 'device_code');
    this.#log.secret(deviceCode);
    const text = (field: string): string => {
      const value = body?.[field];
      if (typeof value !== 'string' || value === '') throw malformed(where, field);
      return value;
    };
    const seconds = (field: string, fallback?: number): number => {
      const value = body?.[field] ?? fallback;
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw malformed(where, field);
      return value;
    };
    const userCode = text('user_code');
    this.#log.secret(userCode);
    const verificationUri = text('verification_uri');
    const complete = body?.verification_uri_complete;
    return {
      deviceCode,
      userCode,
      verificationUri,
      verificationUriComplete: typeof complete === 'string' && complete !== '' ? complete : verificationUri,
      expiresIn: seconds('expires_in'),
      // RFC 8628 §3.2: without an interval the client waits 5 seconds.
      interval: seconds('interval', 5),
    };
  }

  /**
   * One poll of the device code grant. Until the player decides it rejects with an `HttpError` whose code is
   * the OAuth error (`authorization_pending`, `slow_down`, `access_denied`, `expired_token`).
   */
  async pollDeviceToken(
    params: { applicationId: string; deviceCode: string; merge?: ExternalAuth },
    signal?: AbortSignal,
  ): Promise<TokenExchangeResult> {
    const form: Record<string, string | undefined> = {
      grant_type: DEVICE_CODE_GRANT,
      client_id: params.applicationId,
      device_code: params.deviceCode,
    };
    if (params.merge) {
      form.external_auth_type = this.#wireType(params.merge.externalAuthType);
      form.external_auth_token = this.#checkedExternalToken(params.merge.externalAuthToken);
      this.#log.secret(params.merge.externalAuthToken);
    }
    return this.#tokenRequest(form, signal);
  }

  /** Revokes every token of this application for the token's user. */
  async revoke(params: { applicationId: string; token: string }, signal?: AbortSignal): Promise<void> {
    this.#log.secret(params.token);
    if (!params.token) throw new ValidationError('token is empty');
    await this.#rest.request({
      method: 'POST',
      route: '/oauth2/token/revoke',
      form: { token: params.token, client_id: params.applicationId },
      signal,
    });
  }

  /** Finds or creates the provisional account of an external identity and returns its token. */
  async provisionalToken(
    params: { applicationId: string } & ExternalAuth,
    signal?: AbortSignal,
  ): Promise<TokenExchangeResult> {
    this.#log.secret(params.externalAuthToken);
    const response = await this.#rest.request<WireTokenResponse>({
      method: 'POST',
      route: '/partner-sdk/token',
      json: {
        client_id: params.applicationId,
        external_auth_type: this.#wireType(params.externalAuthType),
        external_auth_token: this.#checkedExternalToken(params.externalAuthToken),
      },
      signal,
    });
    return parseTokenResponse(response.body, this.#log);
  }

  /**
   * Exchanges a parent (publisher) application's access token for a token of one of its child applications:
   * `POST /partner-sdk/child-token`. Without `client` this is the public-client form; with it, the
   * confidential client's server-to-server form (the parent's client credentials in the body).
   */
  async exchangeChildToken(params: ChildTokenParams, signal?: AbortSignal): Promise<ChildTokenResult> {
    this.#log.secret(params.parentApplicationToken);
    this.#log.secret(params.client?.clientSecret);
    const { json } = childTokenRequest(params);
    const response = await this.#rest.request<WireTokenResponse>({
      method: 'POST',
      route: '/partner-sdk/child-token',
      json,
      signal,
    });
    return childTokenResult(parseTokenResponse(response.body, this.#log));
  }

  /** Moves the external identity off the linked account into a new provisional account. */
  async unmerge(params: { applicationId: string } & ExternalAuth, signal?: AbortSignal): Promise<void> {
    this.#log.secret(params.externalAuthToken);
    await this.#rest.request({
      method: 'POST',
      route: '/partner-sdk/provisional-accounts/unmerge',
      json: {
        client_id: params.applicationId,
        external_auth_type: this.#wireType(params.externalAuthType),
        external_auth_token: this.#checkedExternalToken(params.externalAuthToken),
      },
      signal,
    });
  }

  /** Reads a token's expiry, scopes and user from `GET /oauth2/@me`. */
  async tokenInfo(token: string, signal?: AbortSignal): Promise<TokenInfo> {
    this.#log.secret(token);
    const { body } = await this.#rest.request<{
      expires?: unknown;
      scopes?: unknown;
      user?: { id?: unknown; username?: unknown };
    }>({
      method: 'GET',
      route: '/oauth2/@me',
      auth: { kind: 'bearer', token },
      signal,
    });
    const expiresAt = typeof body.expires === 'string' ? Date.parse(body.expires) : NaN;
    if (!Number.isFinite(expiresAt)) throw malformed('/oauth2/@me', 'expires');
    const user =
      body.user && typeof body.user.id === 'string' && typeof body.user.username === 'string'
        ? { id: body.user.id, username: body.user.username }
        : undefined;
    return { expiresAt, scopes: Array.isArray(body.scopes) ? body.scopes.map(String) : [], user };
  }

  #wireType(type: AuthenticationExternalAuthType): string {
    const name = externalAuthTypeWireName(type);
    if (name === undefined) throw new ValidationError(`unknown external auth type ${String(type)}`);
    return name;
  }

  #checkedExternalToken(token: string): string {
    if (token.length === 0 || token.length > 10240)
      throw new ValidationError('externalAuthToken must be 1–10240 characters');
    return token;
  }

  async #tokenRequest(
    form: Record<string, string | undefined>,
    signal?: AbortSignal,
    inspect?: (headers: Headers) => void,
  ): Promise<TokenExchangeResult> {
    const response = await this.#rest.request<WireTokenResponse>({
      method: 'POST',
      route: '/oauth2/token',
      form,
      signal,
    });
    const result = parseTokenResponse(response.body, this.#log);
    inspect?.(response.headers);
    return result;
  }
}

function malformed(where: string, field: string): SdkError {
  return new SdkError(ErrorType.HTTPError, `the ${where} response has no valid "${field}"`);
}

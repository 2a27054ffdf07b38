import type { TokenSource } from './TokenSource.js';
import {
  AbortedError,
  AuthorizationError,
  BrowserUnavailableError,
  ClientDestroyedError,
  DeauthorizedError,
  HttpError,
  SdkError,
  ValidationError,
} from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import type { RestClient } from '../rest/RestClient.js';
import { closeAuthorizeDeviceScreen, openAuthorizeDeviceScreen } from '../rpc/deviceScreen.js';
import { RpcError, type IpcTransport } from '../rpc/IpcTransport.js';
import type { Clock, TimerHandle } from '@sdkpp/protocol';
import { untilAborted } from '@sdkpp/protocol';
import {
  applicationSchemeRedirectUri,
  buildAuthorizeUrl,
  customSchemeRedirectUri,
  resolveAuthorizationArgs,
  type AuthorizationArgs,
  type ResolvedAuthorizationArgs,
} from './AuthorizationArgs.js';
import {
  resolveDeviceArgs,
  runDeviceFlow,
  type DeviceAuthorizationArgs,
  type GetTokenFromDeviceOptions,
} from './deviceFlow.js';
import { LoopbackRedirectServer, type RedirectOutcome } from './LoopbackRedirectServer.js';
import { OAuth2Api, type CodeExchange, type ExternalAuth } from './OAuth2Api.js';
import type { UrlOpener } from './openUrl.js';
import { createState } from './pkce.js';
import { AuthorizationTokenType, type ChildTokenResult, type TokenExchangeResult } from './tokenTypes.js';

/** Options of one {@link Client.authorize} call. */
export interface AuthorizeOptions {
  /** Aborts the flow; the promise rejects with an `AbortedError`. */
  signal?: AbortSignal;
  /** How long to wait for the user. @defaultValue 300000 (5 minutes) */
  timeoutMs?: number;
  /**
   * Use the application's own scheme `discord-<applicationId>:/authorize/callback` instead of a loopback
   * listener; the game routes the callback URL to {@link Client.completeAuthorize}.
   */
  useApplicationScheme?: boolean;
  /**
   * Where the player approves: `'auto'` asks a running desktop client over RPC when one answers (no browser
   * opens; the player is already signed in there) and falls back to the browser; `'browser'` always opens the
   * consent page; `'localClient'` insists on the desktop client and fails with an `RPCError` without one.
   * A custom-scheme redirect always means the browser. @defaultValue `'auto'`
   */
  via?: 'auto' | 'browser' | 'localClient';
}

/** What a successful authorization yields: the code for {@link Client.getToken}, and the redirect URI used. */
export interface AuthorizeResult {
  /** The one-time authorization code. Secret; exchange it at once. */
  code: string;
  /** The redirect URI of the flow; `getToken` must send the same one. */
  redirectUri: string;
}

/** Events the auth manager raises through the client. */
export interface AuthEventSink {
  tokenExpiring(expiresAt: number): void;
  deauthorized(error: DeauthorizedError): void;
}

/** Options of an {@link AuthManager}. */
export interface AuthManagerOptions {
  rest: RestClient;
  log: LogWriter;
  clock: Clock;
  webBase: string;
  applicationId: () => string | undefined;
  openUrl: UrlOpener;
  events: AuthEventSink;
  /** How long before expiry the token-expiring event fires. @defaultValue 300000 (5 minutes) */
  tokenExpiryWarningMs: number;
  /** A connected transport to a running desktop client, or undefined when none answers. */
  localClient: () => Promise<IpcTransport | undefined>;
  /** Why a desktop client that answered refused the game (its close code), if one did. */
  localClientRefusal?: () => RpcError | undefined;
}

interface PendingAuthorization {
  redirectUri: string;
  state: string;
  controller: AbortController;
  deliver: (outcome: RedirectOutcome) => void;
}

/** Tokens whose expiry the manager learned from its own exchanges; bounded, process memory only. */
const MAX_KNOWN_EXPIRIES = 64;

/**
 * Account linking and token lifecycle: the authorize flow with PKCE, token exchange, refresh, revoke,
 * provisional accounts, and the token the connection uses, with an event before it expires.
 */
export class AuthManager implements TokenSource {
  readonly #o: AuthManagerOptions;
  readonly #api: OAuth2Api;
  readonly #knownExpiry = new Map<string, number>();
  #token: string | undefined;
  #refusal: string | undefined;
  #expiryTimer: TimerHandle | undefined;
  #pending: PendingAuthorization | undefined;
  /** Aborts the device sign-in under way, if any. */
  #device: AbortController | undefined;

  constructor(options: AuthManagerOptions) {
    this.#o = options;
    this.#api = new OAuth2Api(options.rest, options.log);
  }

  /** The bearer token the connection identifies with. */
  get token(): string | undefined {
    return this.#token;
  }

  /** Why no token is set, when the last one given to updateToken() was refused. */
  get refusal(): string | undefined {
    return this.#token === undefined ? this.#refusal : undefined;
  }

  /** True when a non-empty token is set, valid or not. */
  isAuthenticated(): boolean {
    return this.#token !== undefined && this.#token !== '';
  }

  /** Runs the OAuth2 authorize flow and resolves with the code. */
  async authorize(args: AuthorizationArgs, options: AuthorizeOptions = {}): Promise<AuthorizeResult> {
    if (this.#pending)
      throw new ValidationError('an authorization is already in progress; call abortAuthorize() first');
    const resolved = resolveAuthorizationArgs(args, {
      applicationId: this.#o.applicationId(),
      generateState: createState,
    });
    const log = this.#o.log;
    if (!resolved.codeChallenge)
      log.warn(
        'authorize: no codeChallenge, so getToken() cannot exchange the code; only a server holding the client secret can',
      );
    log.secret(resolved.state);
    log.secret(resolved.nonce);
    const rpc = await this.#localClientFor(resolved, options);
    if (rpc) return this.#authorizeOverRpc(rpc, resolved, options);

    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? 300_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signals = [controller.signal, timeout, ...(options.signal ? [options.signal] : [])];
    const signal = AbortSignal.any(signals);

    let server: LoopbackRedirectServer | undefined;
    let redirectUri: string;
    if (resolved.customSchemeParam !== undefined)
      redirectUri = customSchemeRedirectUri(resolved.customSchemeParam);
    else if (options.useApplicationScheme) redirectUri = applicationSchemeRedirectUri(resolved.clientId);
    else {
      server = await LoopbackRedirectServer.start(resolved.state, log);
      redirectUri = server.redirectUri;
    }

    let deliver: (outcome: RedirectOutcome) => void = () => undefined;
    const outcome = server
      ? server.waitForOutcome()
      : new Promise<RedirectOutcome>((resolve) => {
          deliver = resolve;
        });
    this.#pending = { redirectUri, state: resolved.state, controller, deliver };
    try {
      const url = buildAuthorizeUrl(this.#o.webBase, resolved, redirectUri);
      log.info(`authorize: opening the consent page; waiting for the redirect to ${redirectUri}`);
      try {
        await this.#o.openUrl(url);
      } catch (error) {
        if (error instanceof BrowserUnavailableError) {
          // The error's message has the address for the player; the log line does not (its state is a secret).
          log.warn('authorize: no browser could be opened; the error carries the address to open by hand');
          throw error;
        }
        throw new AuthorizationError(`could not open the authorize page: ${(error as Error).message}`, {
          cause: error,
        });
      }
      const result = await untilAborted(outcome, signal, reasonOf(signal));
      if (result.kind === 'error') {
        const denied = result.error === 'access_denied';
        log.warn(`authorize: ${denied ? 'the user cancelled' : `refused with ${result.error}`}`);
        throw new AuthorizationError(
          denied
            ? 'The user cancelled the authorization'
            : `Authorization refused: ${result.error}${result.description ? ` (${result.description})` : ''}`,
          { code: result.error },
        );
      }
      log.secret(result.code);
      log.info('authorize: received an authorization code');
      return { code: result.code, redirectUri };
    } catch (error) {
      if (error instanceof SdkError) throw error;
      if (timeout.aborted)
        throw new AuthorizationError(`authorization timed out after ${timeoutMs} ms`, { code: 'timeout' });
      throw new AbortedError('authorization was aborted', { cause: error });
    } finally {
      this.#pending = undefined;
      await server?.close();
    }
  }

  /** The desktop client to authorize through, per {@link AuthorizeOptions.via}, or undefined for the browser. */
  async #localClientFor(
    resolved: ResolvedAuthorizationArgs,
    options: AuthorizeOptions,
  ): Promise<IpcTransport | undefined> {
    const via = options.via ?? 'auto';
    const browserOnly = resolved.customSchemeParam !== undefined || options.useApplicationScheme === true;
    if (via === 'browser' || (via === 'auto' && browserOnly)) return undefined;
    if (via === 'localClient' && browserOnly) {
      throw new ValidationError('a custom-scheme redirect needs the browser; use via: "browser"');
    }
    const rpc = await this.#o.localClient();
    if (!rpc && via === 'localClient') {
      throw this.#o.localClientRefusal?.() ?? new RpcError('no desktop client is running to authorize with');
    }
    return rpc;
  }

  /** AUTHORIZE over RPC: the desktop client shows its own consent and returns a code without a redirect. */
  async #authorizeOverRpc(
    rpc: IpcTransport,
    resolved: ResolvedAuthorizationArgs,
    options: AuthorizeOptions,
  ): Promise<AuthorizeResult> {
    const log = this.#o.log;
    if (options.signal?.aborted) throw new AbortedError('authorization was aborted');
    log.info('authorize: asking the desktop client (RPC AUTHORIZE)');
    const request = rpc.request<{ code?: unknown }>(
      'AUTHORIZE',
      {
        client_id: resolved.clientId,
        scopes: resolved.scopes.split(' '),
        response_type: 'code',
        ...(resolved.codeChallenge
          ? { code_challenge: resolved.codeChallenge.challenge, code_challenge_method: 'S256' }
          : {}),
        state: resolved.state,
        ...(resolved.nonce === undefined ? {} : { nonce: resolved.nonce }),
      },
      { timeoutMs: options.timeoutMs ?? 300_000 },
    );
    let data: { code?: unknown };
    try {
      data = options.signal
        ? await untilAborted(request, options.signal, reasonOf(options.signal))
        : await request;
    } catch (error) {
      if (error instanceof SdkError) {
        log.warn(`authorize: the desktop client refused (${error.message})`);
        throw new AuthorizationError(`the desktop client refused the authorization: ${error.message}`, {
          cause: error,
          ...(typeof error.code === 'number' ? { code: String(error.code) } : {}),
        });
      }
      throw new AbortedError('authorization was aborted', { cause: error });
    }
    if (typeof data.code !== 'string' || data.code === '') {
      throw new AuthorizationError('the desktop client answered AUTHORIZE without a code');
    }
    log.secret(data.code);
    log.info('authorize: received an authorization code from the desktop client');
    // The code was issued without a redirect URI, so the token exchange sends none.
    return { code: data.code, redirectUri: '' };
  }

  /**
   * Completes a flow whose redirect goes to a custom scheme: pass the URL the operating system handed the
   * game. Returns false (and changes nothing) when no such flow is waiting or the URL does not belong to it.
   */
  completeAuthorize(callbackUrl: string): boolean {
    const pending = this.#pending;
    if (!pending || pending.redirectUri.startsWith('http://127.0.0.1')) return false;
    let url: URL;
    try {
      url = new URL(callbackUrl);
    } catch {
      return false;
    }
    const expected = new URL(pending.redirectUri);
    if (url.protocol !== expected.protocol || url.pathname !== expected.pathname) return false;
    if (url.searchParams.get('state') !== pending.state) {
      this.#o.log.warn('authorize: ignored a callback whose state did not match (possible forgery)');
      return false;
    }
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    pending.deliver(
      code
        ? { kind: 'code', code }
        : {
            kind: 'error',
            error: error ?? 'invalid_response',
            description: url.searchParams.get('error_description') ?? undefined,
          },
    );
    return true;
  }

  /** Aborts an authorization in progress, if any. */
  abortAuthorize(): void {
    this.#pending?.controller.abort(new AbortedError('authorization aborted by the game'));
  }

  /**
   * Signs in on a device without a browser (RFC 8628): shows the player a code, polls until they approve it
   * on another device, and resolves with tokens; `merge` also merges that provisional account. One at a time.
   */
  async getTokenFromDevice(
    args: DeviceAuthorizationArgs,
    options: GetTokenFromDeviceOptions,
    merge?: ExternalAuth,
  ): Promise<TokenExchangeResult> {
    if (this.#device) {
      throw new ValidationError(
        'a device sign-in is already in progress; call abortGetTokenFromDevice() first',
      );
    }
    const { clientId, scopes } = resolveDeviceArgs(args, this.#o.applicationId());
    if (options.signal?.aborted) throw new AbortedError('device sign-in was aborted');
    const controller = new AbortController();
    this.#device = controller;
    const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
    try {
      const result = await runDeviceFlow(
        {
          api: this.#api,
          clock: this.#o.clock,
          log: this.#o.log,
          openScreen: async (id, userCode) => {
            const rpc = await this.#o.localClient();
            if (!rpc) {
              throw (
                this.#o.localClientRefusal?.() ??
                new RpcError(
                  'no desktop client is running to show the device code; pass onUserCode and show it',
                )
              );
            }
            await openAuthorizeDeviceScreen(rpc, id, userCode);
            return () => closeAuthorizeDeviceScreen(rpc);
          },
        },
        { clientId, scopes, options, ...(merge ? { merge } : {}) },
        signal,
      );
      this.#rememberExpiry(result);
      return result;
    } finally {
      if (this.#device === controller) this.#device = undefined;
    }
  }

  /** Aborts the device sign-in under way, if any: it rejects with `AbortedError` and polling stops. */
  abortGetTokenFromDevice(): void {
    this.#device?.abort(new AbortedError('device sign-in aborted by the game'));
  }

  /** Exchanges an authorization code for tokens (public client, PKCE). */
  async getToken(
    params: CodeExchange & { applicationId?: string },
    signal?: AbortSignal,
  ): Promise<TokenExchangeResult> {
    const result = await this.#api.exchangeCode(
      { ...params, applicationId: this.#appId(params.applicationId) },
      signal,
    );
    this.#rememberExpiry(result);
    return result;
  }

  /** Refreshes tokens; on `invalid_grant` raises the deauthorized event and rejects with {@link DeauthorizedError}. */
  async refreshToken(
    params: { applicationId?: string; refreshToken: string },
    signal?: AbortSignal,
  ): Promise<TokenExchangeResult> {
    try {
      const result = await this.#api.refresh(
        { ...params, applicationId: this.#appId(params.applicationId) },
        signal,
      );
      this.#rememberExpiry(result);
      return result;
    } catch (error) {
      if (error instanceof DeauthorizedError) {
        this.#o.log.warn(
          "refresh: the platform deleted this user's tokens (invalid_grant); the account must be linked again",
        );
        this.#o.events.deauthorized(error);
      }
      throw error;
    }
  }

  /** Revokes every token of the application for the token's user. */
  async revokeToken(params: { applicationId?: string; token: string }, signal?: AbortSignal): Promise<void> {
    await this.#api.revoke({ ...params, applicationId: this.#appId(params.applicationId) }, signal);
    this.#knownExpiry.delete(params.token);
  }

  /** Finds or creates the provisional account of an external identity. */
  async getProvisionalToken(
    params: { applicationId?: string } & ExternalAuth,
    signal?: AbortSignal,
  ): Promise<TokenExchangeResult> {
    const result = await this.#api.provisionalToken(
      { ...params, applicationId: this.#appId(params.applicationId) },
      signal,
    );
    this.#rememberExpiry(result);
    return result;
  }

  /** Exchanges a parent (publisher) token for a child application's token (public client). */
  async exchangeChildToken(
    params: { parentApplicationToken: string; childApplicationId: string },
    signal?: AbortSignal,
  ): Promise<ChildTokenResult> {
    const result = await this.#api.exchangeChildToken(params, signal);
    this.#rememberExpiry(result);
    return result;
  }

  /** Moves an external identity off its linked account into a new provisional account. */
  async unmergeIntoProvisionalAccount(
    params: { applicationId?: string } & ExternalAuth,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.#api.unmerge({ ...params, applicationId: this.#appId(params.applicationId) }, signal);
  }

  /** Fetches the id and username behind a token without connecting. */
  async fetchCurrentUser(token: string, signal?: AbortSignal): Promise<{ id: string; username: string }> {
    const info = await this.#api.tokenInfo(token, signal);
    if (!info.user) throw new AuthorizationError('the token has no user (identify scope missing)');
    return info.user;
  }

  /**
   * Sets the token the connection uses and arms the expiry event. When the expiry is not known from an
   * exchange this client made, it is read from the platform; a token the platform rejects is not kept.
   */
  async updateToken(tokenType: AuthorizationTokenType, token: string, signal?: AbortSignal): Promise<void> {
    if (tokenType !== AuthorizationTokenType.Bearer)
      throw new ValidationError('only Bearer tokens can be used by the SDK');
    if (!token) throw new ValidationError('token is empty');
    this.#o.log.secret(token);
    let expiresAt = this.#knownExpiry.get(token);
    if (expiresAt === undefined) {
      try {
        expiresAt = (await this.#api.tokenInfo(token, signal)).expiresAt;
      } catch (error) {
        if (error instanceof HttpError && error.status === 401) {
          this.#refusal =
            'the last token given to updateToken() was refused by the platform: refresh it with refreshToken() or authorize again, then call updateToken()';
          this.#o.log.warn('updateToken: the platform refused the access token (401); it is not used');
          throw new HttpError(
            'The platform refused this access token (HTTP 401): it has expired, was revoked, or belongs to another application. Refresh it with refreshToken(), or authorize again.',
            {
              method: error.method,
              route: error.route,
              status: 401,
              ...(error.code === undefined ? {} : { code: error.code }),
              responseBody: error.responseBody,
              cause: error,
            },
          );
        }
        this.#o.log.warn(
          `updateToken: could not read the token's expiry (${(error as Error).message}); no expiry warning will fire`,
        );
      }
    }
    this.#token = token;
    this.#refusal = undefined;
    this.#armExpiry(expiresAt);
    this.#o.log.info('token updated');
  }

  /** Stops timers and ends an authorization in progress with `ClientDestroyedError`. */
  dispose(): void {
    this.#o.clock.clearTimeout(this.#expiryTimer);
    this.#expiryTimer = undefined;
    this.#pending?.controller.abort(new ClientDestroyedError('the client was destroyed during authorize()'));
    this.#device?.abort(new ClientDestroyedError('the client was destroyed during getTokenFromDevice()'));
  }

  #appId(explicit: string | undefined): string {
    const id = explicit ?? this.#o.applicationId();
    if (!id) throw new ValidationError('no application id: pass one or call setApplicationId()');
    return id;
  }

  #rememberExpiry(result: Pick<TokenExchangeResult, 'accessToken' | 'expiresIn'>): void {
    this.#knownExpiry.set(result.accessToken, this.#o.clock.now() + result.expiresIn * 1000);
    if (this.#knownExpiry.size > MAX_KNOWN_EXPIRIES) {
      const oldest = this.#knownExpiry.keys().next().value;
      if (oldest !== undefined) this.#knownExpiry.delete(oldest);
    }
  }

  #armExpiry(expiresAt: number | undefined): void {
    const clock = this.#o.clock;
    clock.clearTimeout(this.#expiryTimer);
    this.#expiryTimer = undefined;
    if (expiresAt === undefined) return;
    const remaining = expiresAt - clock.now();
    // Warn ahead of expiry, but never before half the token's remaining life, so short-lived tokens still work.
    const lead = Math.min(this.#o.tokenExpiryWarningMs, Math.max(0, remaining) / 2);
    this.#expiryTimer = clock.setTimeout(
      () => {
        this.#expiryTimer = undefined;
        this.#o.log.info('the access token is about to expire; refresh it and call updateToken()');
        this.#o.events.tokenExpiring(expiresAt);
      },
      Math.max(0, remaining - lead),
      // A token's expiry must not keep a finished game's process alive.
      { unref: true },
    );
  }
}

/** The reason an authorization's signal aborted with (ours: an SdkError; a caller's or a timeout's: any). */
function reasonOf(signal: AbortSignal): () => Error {
  return () => (signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
}

import type { UserApplicationProfile } from '../social/UserApplicationProfile.js';
import type { AuthorizeOptions, AuthorizeResult } from '../auth/AuthManager.js';
import type { AuthorizationArgs } from '../auth/AuthorizationArgs.js';
import type { DeviceAuthorizationArgs, GetTokenFromDeviceOptions } from '../auth/deviceFlow.js';
import type { ExternalAuth } from '../auth/OAuth2Api.js';
import { createAuthorizationCodeVerifier, type AuthorizationCodeVerifier } from '../auth/pkce.js';
import { getDefaultCommunicationScopes, getDefaultPresenceScopes } from '../auth/scopes.js';
import type { AuthorizationTokenType, ChildTokenResult, TokenExchangeResult } from '../auth/tokenTypes.js';
import { ClientDestroyedError, ClientNotReadyError, ValidationError } from '@sdkpp/protocol';
import { LoggingSeverity, type LogCallback } from '../logging/index.js';
import type { CryptoSelfTestResult, MediaEngineInfo } from '../media/index.js';
import { withSignal, writeLaunchCommand } from '@sdkpp/protocol';
import {
  closeAuthorizeDeviceScreen,
  DEVICE_SCREEN_CLOSED_EVENT,
  openAuthorizeDeviceScreen,
} from '../rpc/deviceScreen.js';
import { RpcError, type RpcUser } from '../rpc/IpcTransport.js';
import { UserHandle } from '../social/UserHandle.js';
import { isSnowflake } from '../util/snowflake.js';
import { TypedEmitter } from '@sdkpp/protocol';
import { checkClientOptions } from './checkClientOptions.js';
import type { ClientEvents } from './ClientEvents.js';
import type { ClientOptions } from './ClientOptions.js';
import type { ClientStatus } from './ClientStatus.js';
import { checkedTimeout, createSession, type Session } from './createSession.js';
import { guardAfterDestroy } from './destroyGuard.js';
import { attachSession, isDestroyed, sessionOf } from './sessionOf.js';

/**
 * The core of a {@link Client}: configuration and logging, account linking and tokens, the connection, the
 * signed-in user, the media engine, the desktop client and the client's lifetime. The client's methods are
 * grouped by area over this class and its subclasses ({@link SocialClient}, {@link LobbyClient},
 * {@link Client}); create a `Client`, not this class.
 */
export class ClientCore extends TypedEmitter<ClientEvents> {
  /** Builds the client's parts from the options; see {@link ClientOptions}. */
  constructor(options: ClientOptions = {}) {
    super();
    checkClientOptions(options);
    attachSession(
      this,
      createSession(options, {
        emit: (event, ...args) => {
          this.emit(event, ...args);
        },
        listenerError: (error, event) => {
          this.onListenerError(error, event);
        },
      }),
    );
  }

  /** This client's session. */
  get #s(): Session {
    return sessionOf(this);
  }

  /** `openid sdk.social_layer`: every feature, communications included. */
  static getDefaultCommunicationScopes(): string {
    return getDefaultCommunicationScopes();
  }

  /** `openid sdk.social_layer_presence`: presence-level features. */
  static getDefaultPresenceScopes(): string {
    return getDefaultPresenceScopes();
  }

  // ── Configuration and logging ──────────────────────────────────────────────────────────────────

  /** Sets the default application id. */
  setApplicationId(applicationId: string): void {
    if (!isSnowflake(applicationId)) throw new ValidationError('applicationId must be a snowflake id');
    this.#s.settings.applicationId = applicationId;
  }

  /** The default application id, if set. */
  getApplicationId(): string | undefined {
    return this.#s.settings.applicationId;
  }

  /** Sets the HTTP request timeout in ms (default 30000); applies to requests started afterwards. */
  setHttpRequestTimeout(timeoutMs: number): void {
    this.#s.settings.httpTimeoutMs = checkedTimeout(timeoutMs);
  }

  /** The HTTP request timeout in ms. */
  getHttpRequestTimeout(): number {
    return this.#s.settings.httpTimeoutMs;
  }

  /**
   * Adds a log callback. Lines below Warning arrive only in debug mode. Lines are redacted before any
   * callback sees them: no token, code, verifier or secret is ever logged. Returns a remover.
   */
  addLogCallback(callback: LogCallback, minSeverity: LoggingSeverity = LoggingSeverity.Info): () => void {
    return this.#s.logger.addCallback(callback, minSeverity);
  }

  // ── Account linking and tokens ─────────────────────────────────────────────────────────────────

  /** Creates a PKCE verifier and its S256 challenge for {@link Client.authorize} and {@link Client.getToken}. */
  createAuthorizationCodeVerifier(): AuthorizationCodeVerifier {
    const pair = createAuthorizationCodeVerifier();
    this.#s.logger.secret(pair.verifier);
    return pair;
  }

  /**
   * Asks the user to authorize the application: opens the consent page, receives the redirect on a loopback
   * listener (or through {@link Client.completeAuthorize} for custom schemes), checks `state`, and resolves with
   * the code. Rejects with `AuthorizationError` when denied or timed out, `AbortedError` when aborted.
   */
  async authorize(args: AuthorizationArgs = {}, options: AuthorizeOptions = {}): Promise<AuthorizeResult> {
    return this.#s.auth.authorize(args, options);
  }

  /** Hands a custom-scheme callback URL to the authorization waiting for it; false if none matches. */
  completeAuthorize(callbackUrl: string): boolean {
    return this.#s.auth.completeAuthorize(callbackUrl);
  }

  /** Aborts an authorization in progress. */
  abortAuthorize(): void {
    this.#s.auth.abortAuthorize();
  }

  /** Exchanges the code from {@link Client.authorize} for tokens (public client with PKCE). */
  async getToken(
    params: { code: string; codeVerifier: string; redirectUri: string; applicationId?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<TokenExchangeResult> {
    return this.#s.auth.getToken(params, options.signal);
  }

  /** Exchanges the code and merges the provisional account of `externalAuth` into the authorizing account. */
  async getTokenFromProvisionalMerge(
    params: {
      code: string;
      codeVerifier: string;
      redirectUri: string;
      applicationId?: string;
    } & ExternalAuth,
    options: { signal?: AbortSignal } = {},
  ): Promise<TokenExchangeResult> {
    const { externalAuthType, externalAuthToken, ...rest } = params;
    return this.#s.auth.getToken({ ...rest, merge: { externalAuthType, externalAuthToken } }, options.signal);
  }

  /**
   * Signs the player in on a device without a browser or keyboard (a console, a TV), with the OAuth 2.0 device
   * authorization grant: `onUserCode` gets a short code and an address; the player opens it on a phone or
   * computer, enters the code and approves; this resolves with the tokens. Polls at the platform's interval
   * (slower after `slow_down`). Rejects with `AuthorizationError` code `access_denied` when the player denies,
   * `expired_token` when the code expires first, `AbortedError` when aborted (`signal` or
   * {@link Client.abortGetTokenFromDevice}). One sign-in at a time.
   */
  async getTokenFromDevice(
    args: DeviceAuthorizationArgs = {},
    options: GetTokenFromDeviceOptions = {},
  ): Promise<TokenExchangeResult> {
    return this.#s.auth.getTokenFromDevice(args, options);
  }

  /**
   * {@link Client.getTokenFromDevice}, merging the provisional account of `externalAuth` into the account the
   * player approves with (as {@link Client.getTokenFromProvisionalMerge} does for the browser flow).
   */
  async getTokenFromDeviceProvisionalMerge(
    args: DeviceAuthorizationArgs,
    externalAuth: ExternalAuth,
    options: GetTokenFromDeviceOptions = {},
  ): Promise<TokenExchangeResult> {
    return this.#s.auth.getTokenFromDevice(args, options, externalAuth);
  }

  /** Aborts the device sign-in under way, if any; it rejects with `AbortedError`. */
  abortGetTokenFromDevice(): void {
    this.#s.auth.abortGetTokenFromDevice();
  }

  /**
   * Refreshes tokens (both old tokens stop working). On `invalid_grant` it emits `deauthorized` and rejects
   * with `DeauthorizedError`.
   */
  async refreshToken(
    params: { refreshToken: string; applicationId?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<TokenExchangeResult> {
    return this.#s.auth.refreshToken(params, options.signal);
  }

  /** Revokes every token of the application for that user; for SDK apps this unlinks the account. */
  async revokeToken(
    params: { token: string; applicationId?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return this.#s.auth.revokeToken(params, options.signal);
  }

  /** Finds or creates the provisional account of an external identity and returns its token. */
  async getProvisionalToken(
    params: ExternalAuth & { applicationId?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<TokenExchangeResult> {
    return this.#s.auth.getProvisionalToken(params, options.signal);
  }

  /**
   * Publisher-level linking (public client): exchanges the parent (publisher) application's access token for
   * a token of one of its child applications, for the same user. Pass the result to {@link Client.updateToken}
   * in the child game. The token has no refresh token and expires no later than the parent token; its scopes
   * are the parent token's narrowed to what the child accepts. A confidential client does this on its server
   * (`GameBackend.exchangeChildToken`).
   *
   * @throws HttpError 403 (50001) when the child is not one of the publisher's applications, 401 (50025) when
   *   the parent token is revoked or expired, 404 (10002) for an unknown application.
   */
  async exchangeChildToken(
    params: { parentApplicationToken: string; childApplicationId: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<ChildTokenResult> {
    return this.#s.auth.exchangeChildToken(params, options.signal);
  }

  /**
   * Sets the display name (global name) of the signed-in provisional account, e.g. to the name the player
   * chose in the game: `PATCH /users/@me/account`. Friends see it through USER_UPDATE and presence updates.
   *
   * @throws ClientNotReadyError unless Ready; ValidationError for a name that is blank or over 32 characters,
   *   or when the signed-in user is a full account (its name is the player's own).
   */
  async updateProvisionalAccountDisplayName(
    name: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'updateProvisionalAccountDisplayName()', async () =>
      this.#s.provisionalAccount.updateDisplayName(name),
    );
  }

  /** Unlinks an external identity from its full account into a new provisional account. */
  async unmergeIntoProvisionalAccount(
    params: ExternalAuth & { applicationId?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return this.#s.auth.unmergeIntoProvisionalAccount(params, options.signal);
  }

  /** Looks up the user behind a token without connecting. */
  async fetchCurrentUser(
    token: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<{
    /** The user's id. */
    id: string;
    /** The user's unique username. */
    username: string;
  }> {
    return this.#s.auth.fetchCurrentUser(token, options.signal);
  }

  /** Sets the token to connect with. When connected, it is used from the next identify or resume. */
  async updateToken(
    tokenType: AuthorizationTokenType,
    token: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return this.#s.auth.updateToken(tokenType, token, options.signal);
  }

  /** True when a non-empty token is set (valid or not). */
  isAuthenticated(): boolean {
    return this.#s.auth.isAuthenticated();
  }

  // ── Connection ─────────────────────────────────────────────────────────────────────────────────

  /**
   * The connection status; {@link ClientStatus.HttpWait} while an HTTP request waits on a rate limit (unless
   * disconnected or disconnecting).
   */
  getStatus(): ClientStatus {
    return this.#s.httpWait.status;
  }

  /** Connects and resolves once Ready; see {@link ClientStatus}. */
  async connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.#s.connection.connect(options);
  }

  /** Disconnects and resolves once Disconnected. */
  async disconnect(): Promise<void> {
    return this.#s.connection.disconnect();
  }

  /** The signed-in user, or undefined before the client is Ready. */
  getCurrentUser(): UserHandle | undefined {
    const userId = this.#s.currentUserId();
    return userId === undefined ? undefined : new UserHandle(this.#s.users, userId);
  }

  /**
   * The signed-in user's profiles from external identity providers (the C++ `GetUserApplicationProfiles`):
   * the same as `getCurrentUser()?.userApplicationProfiles`, empty before Ready.
   */
  getUserApplicationProfiles(): readonly UserApplicationProfile[] {
    return this.getCurrentUser()?.userApplicationProfiles ?? [];
  }

  /** A user the client knows, by id. */
  getUser(userId: string): UserHandle | undefined {
    return this.#s.users.get(userId) ? new UserHandle(this.#s.users, userId) : undefined;
  }

  /**
   * Which media engine this client uses for voice (native addon or pure JS), its crypto backend and codec.
   * The first call picks the engine; a fallback to the JS engine is logged once, with the command that fixes it.
   */
  getMediaEngineInfo(): MediaEngineInfo {
    return this.#s.media().info;
  }

  /** Runs the media engine's crypto known-answer and round-trip checks; a diagnostic for support requests. */
  runMediaSelfTest(): CryptoSelfTestResult {
    return this.#s.media().cryptoSelfTest();
  }

  // ── The desktop client ─────────────────────────────────────────────────────────────────────────

  /**
   * Listens to a running desktop client (and keeps looking for one while none runs): invites accepted there
   * arrive as `activityJoin`, invites and join requests shown there as `activityInviteCreated`. Resolves once
   * subscribed, or at once when no desktop client runs yet.
   */
  async watchLocalClient(): Promise<void> {
    return this.#s.localEvents.want('ACTIVITY_JOIN', 'ACTIVITY_JOIN_REQUEST', 'ACTIVITY_INVITE');
  }

  /**
   * The user signed in to the running desktop client, or undefined when none runs (or it belongs to another
   * account system). Needs no sign-in of the game.
   */
  async getDiscordClientConnectedUser(): Promise<RpcUser | undefined> {
    const rpc = await this.#s.localClient.get();
    return rpc?.user;
  }

  /**
   * Authenticates the game to the desktop client with the current token (AUTHENTICATE), for desktop-client
   * features that need a signed-in game. Rejects with an `RPCError` when no desktop client runs or it refuses
   * the token (4009).
   */
  async authenticateLocalClient(): Promise<{
    /** The user the desktop client is signed in as. */
    user: RpcUser;
    /** The OAuth2 scopes the token grants, e.g. `identify`. */
    scopes: string[];
    /** When the token expires, as an ISO 8601 date; `''` when the desktop client did not say. */
    expires: string;
  }> {
    const token = this.#s.auth.token;
    if (token === undefined || token === '')
      throw new ClientNotReadyError('authenticating needs a token: call updateToken() first');
    const rpc = await this.#s.localClient.get();
    if (!rpc) throw new RpcError('no desktop client is running');
    const reply = await rpc.request<{ user?: RpcUser; scopes?: unknown; expires?: unknown }>('AUTHENTICATE', {
      access_token: token,
    });
    if (!reply.user) throw new RpcError('the desktop client answered AUTHENTICATE without a user');
    return {
      user: reply.user,
      scopes: Array.isArray(reply.scopes)
        ? reply.scopes.filter((s): s is string => typeof s === 'string')
        : [],
      expires: typeof reply.expires === 'string' ? reply.expires : '',
    };
  }

  /**
   * Watches a guild the desktop client's user is a member of: each change of its name or icon arrives as the
   * `guildStatus` event. Works without a connection, like rich presence over the desktop client; with no
   * desktop client running the watch starts once one is found. Rejects with `RpcError` (code 4003) when the
   * desktop client refuses the guild, and with `ValidationError` for an id that is not a snowflake.
   */
  async subscribeGuildStatus(guildId: string): Promise<void> {
    if (!/^[0-9]{1,20}$/.test(guildId))
      return Promise.reject(new ValidationError(`"${guildId}" is not a guild id`));
    return this.#s.localEvents.wantWith('GUILD_STATUS', { guild_id: guildId });
  }

  /** Stops watching a guild (see {@link subscribeGuildStatus}). */
  async unsubscribeGuildStatus(guildId: string): Promise<void> {
    return this.#s.localEvents.unwant('GUILD_STATUS', { guild_id: guildId });
  }

  /**
   * Subscribes to another desktop-client event; it arrives as `localClientEvent`. (GUILD_STATUS needs its
   * guild: use {@link subscribeGuildStatus}.)
   */
  async subscribeLocalClientEvent(event: string): Promise<void> {
    if (!/^[A-Z][A-Z0-9_]*$/.test(event))
      return Promise.reject(new ValidationError(`"${event}" is not an event name`));
    return this.#s.localEvents.want(event);
  }

  /**
   * Called when the player starts linking from the desktop client's own UI (its "connect the game" entry
   * points): the game should come to the front and call `authorize()`. The subscription survives restarts of
   * the desktop client. Replaces an earlier callback. The callback gets the event's data as the desktop client
   * sent it (often empty).
   */
  async registerAuthorizeRequestCallback(callback: (data: unknown) => void): Promise<void> {
    this.#s.localCallbacks.authorizeRequest = callback;
    return this.#s.localEvents.want('AUTHORIZE_REQUEST');
  }

  /** Stops listening for authorize requests (e.g. mid-match, when the game can't handle one). */
  async removeAuthorizeRequestCallback(): Promise<void> {
    this.#s.localCallbacks.authorizeRequest = undefined;
    return this.#s.localEvents.unwant('AUTHORIZE_REQUEST');
  }

  /**
   * Shows a device sign-in code on the desktop client's own device authorization screen, for a game that runs
   * the device flow itself (its server polls the token endpoint). Rejects with an `RPCError` when no desktop
   * client runs or it refuses the code.
   */
  async openAuthorizeDeviceScreen(clientId: string, userCode: string): Promise<void> {
    if (!isSnowflake(clientId)) throw new ValidationError('clientId must be a snowflake id');
    if (userCode === '' || userCode.length > 32)
      throw new ValidationError('userCode must be 1–32 characters');
    this.#s.logger.secret(userCode);
    const rpc = await this.#s.localClient.get();
    try {
      if (!rpc) throw this.#s.localClient.refusal ?? new RpcError('no desktop client is running');
      await openAuthorizeDeviceScreen(rpc, clientId, userCode);
    } catch (error) {
      this.#s.log.warn(`the device authorization screen did not open: ${(error as Error).message}`);
      throw error;
    }
  }

  /** Hides the desktop client's device authorization screen; nothing happens when no desktop client runs. */
  async closeAuthorizeDeviceScreen(): Promise<void> {
    const rpc = await this.#s.localClient.get();
    if (!rpc) return;
    try {
      await closeAuthorizeDeviceScreen(rpc);
    } catch (error) {
      this.#s.log.warn(`the device authorization screen did not close: ${(error as Error).message}`);
      throw error;
    }
  }

  /**
   * Called when the desktop client's device authorization screen closes: the player closed it, approved or
   * denied the code, or the game closed it. Replaces an earlier callback; `undefined` removes it. Resolves once
   * subscribed (at once when no desktop client runs yet; it subscribes when one starts).
   */
  async setAuthorizeDeviceScreenClosedCallback(callback: (() => void) | undefined): Promise<void> {
    this.#s.localCallbacks.authorizeDeviceScreenClosed = callback;
    if (callback) return this.#s.localEvents.want(DEVICE_SCREEN_CLOSED_EVENT);
    return this.#s.localEvents.unwant(DEVICE_SCREEN_CLOSED_EVENT);
  }

  /**
   * Called with the join secret when the player joins from the desktop client (accepts an invite or clicks
   * Join there; ACTIVITY_JOIN): the game should join that party. Subscribes on the desktop client like
   * {@link Client.watchLocalClient}, also once one starts later and after it restarts; the `activityJoin`
   * event fires too. Replaces an earlier callback; `undefined` removes it. Resolves once subscribed (at once
   * when no desktop client runs yet).
   */
  async setActivityJoinCallback(callback: ((joinSecret: string) => void) | undefined): Promise<void> {
    this.#s.localCallbacks.activityJoin = callback;
    return this.#s.localEvents.want('ACTIVITY_JOIN');
  }

  /**
   * Like {@link Client.setActivityJoinCallback}, with the application the invite belongs to (a sibling
   * application's id for a publisher's other game; ours when the event names none).
   */
  async setActivityJoinWithApplicationCallback(
    callback: ((applicationId: string, joinSecret: string) => void) | undefined,
  ): Promise<void> {
    this.#s.localCallbacks.activityJoinWithApplication = callback;
    return this.#s.localEvents.want('ACTIVITY_JOIN');
  }

  /**
   * Tells the desktop client how to start the game when the player accepts an invite there (this machine
   * only). Returns false, with a log line, when it could not be registered.
   */
  registerLaunchCommand(applicationId: string, command: string): boolean {
    try {
      const where = writeLaunchCommand(applicationId, command, this.#launchRegistryOptions());
      this.#s.log.info(`launch command registered (${where})`);
      return true;
    } catch (error) {
      this.#s.log.warn(`launch command not registered: ${(error as Error).message}`);
      return false;
    }
  }

  /** Like {@link Client.registerLaunchCommand}, starting the game through Steam. */
  registerLaunchSteamApplication(applicationId: string, steamAppId: number): boolean {
    if (!Number.isInteger(steamAppId) || steamAppId <= 0 || steamAppId > 0xffffffff) {
      this.#s.log.warn('launch command not registered: the Steam app id must be a positive 32-bit integer');
      return false;
    }
    const opener = process.platform === 'win32' ? 'cmd /c start ""' : 'xdg-open';
    return this.registerLaunchCommand(applicationId, `${opener} steam://rungameid/${steamAppId}`);
  }

  #launchRegistryOptions(): { dir?: string } {
    return this.#s.settings.launchRegistryDir === undefined
      ? {}
      : { dir: this.#s.settings.launchRegistryDir };
  }

  /**
   * Disconnects, ends every call, aborts any authorization and stops every timer. The client can't be used
   * afterwards: every method but `getStatus()` and `destroy()` throws, or rejects with,
   * `ClientDestroyedError`, and so do waits still pending (`connect()`, `waitFor()`). Calling it again does
   * nothing. `await using client = new Client(…)` calls it when the scope ends.
   */
  async destroy(): Promise<void> {
    const session = this.#s;
    if (session.destroyed) return session.destroyed;
    this.rejectWaiters(new ClientDestroyedError('the client was destroyed while waiting for an event'));
    session.destroyed = session.shutDown();
    return session.destroyed;
  }

  /** The same as {@link Client.destroy}, for `await using client = new Client(…)`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.destroy();
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#s.log.error(`a ${event} listener threw: ${error instanceof Error ? error.message : String(error)}`);
  }

  static {
    guardAfterDestroy(
      ClientCore.prototype,
      isDestroyed,
      new Set<PropertyKey>(['destroy', Symbol.asyncDispose, 'getStatus']),
    );
  }
}

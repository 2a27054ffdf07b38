import { AuthManager, type AuthorizeOptions, type AuthorizeResult } from '../auth/AuthManager.js';
import type { AuthorizationArgs } from '../auth/AuthorizationArgs.js';
import type { ExternalAuth } from '../auth/OAuth2Api.js';
import { openInSystemBrowser } from '../auth/openUrl.js';
import { createAuthorizationCodeVerifier, type AuthorizationCodeVerifier } from '../auth/pkce.js';
import { getDefaultCommunicationScopes, getDefaultPresenceScopes } from '../auth/scopes.js';
import type { AuthorizationTokenType, TokenExchangeResult } from '../auth/tokenTypes.js';
import { ClientDestroyedError, ClientNotReadyError, ValidationError } from '../errors/index.js';
import { defaultGatewaySocketFactory } from '../gateway/GatewaySocket.js';
import {
  createMediaEngine,
  getDefaultMediaEngine,
  type MediaEnginePreference,
} from '../media/createMediaEngine.js';
import type { CryptoSelfTestResult, MediaEngine, MediaEngineInfo } from '../media/MediaEngine.js';
import { Logger, LoggingSeverity, type LogCallback, type LogWriter } from '../logging/index.js';
import type { Activity } from '../presence/Activity.js';
import { PresenceManager } from '../presence/PresenceManager.js';
import { RestClient, type RestRequest } from '../rest/RestClient.js';
import { ChannelHandle, ChannelType } from '../chat/ChannelHandle.js';
import { DirectMessageManager } from '../chat/DirectMessageManager.js';
import { LobbyMessageManager } from '../chat/LobbyMessageManager.js';
import { MessageStore } from '../chat/MessageStore.js';
import { GuildManager, type JoinLinkedLobbyGuildOptions } from '../guilds/GuildManager.js';
import type { GuildChannel, GuildMinimal } from '../guilds/types.js';
import type { LobbyHandle } from '../lobbies/LobbyHandle.js';
import { LobbyManager } from '../lobbies/LobbyManager.js';
import type { MessageHandle } from '../chat/MessageHandle.js';
import type { ActivityInvite } from '../invites/ActivityInvite.js';
import { InviteManager } from '../invites/InviteManager.js';
import { RelationshipGroupType, StatusType } from '../social/enums.js';
import type { RelationshipHandle } from '../social/RelationshipHandle.js';
import { RelationshipManager } from '../social/RelationshipManager.js';
import { writeLaunchCommand } from '../protocol/launchRegistry.js';
import { RpcError, type RpcUser } from '../rpc/IpcTransport.js';
import { LocalClientCallbacks } from '../rpc/LocalClientCallbacks.js';
import { LocalClientEvents } from '../rpc/LocalClientEvents.js';
import { LocalClientLink } from '../rpc/LocalClientLink.js';
import { UserHandle } from '../users/UserHandle.js';
import { UserStore } from '../users/UserStore.js';
import { systemClock } from '../util/Clock.js';
import { isSnowflake } from '../util/snowflake.js';
import { TypedEmitter } from '../util/TypedEmitter.js';
import { currentSignal, withSignal } from '../util/withSignal.js';
import type { AudioDevice } from '../calls/audioDevices.js';
import { NULL_AUDIO_DEVICE_ID } from '../calls/audioDevices.js';
import type { Call } from '../calls/Call.js';
import {
  CallManager,
  type UserAudioCapturedCallback,
  type UserAudioReceivedCallback,
} from '../calls/CallManager.js';
import { DaveProtocolSession } from '../dave/index.js';
import { ClientStatus } from './ClientStatus.js';
import { checkClientOptions } from './checkClientOptions.js';
import type { ClientEvents } from './ClientEvents.js';
import type { ClientOptions } from './ClientOptions.js';
import { ConnectionManager } from './ConnectionManager.js';
import { guardAfterDestroy } from './destroyGuard.js';
import { HttpWaitStatus } from './HttpWaitStatus.js';
import type { SessionContext, SessionFeature } from './SessionContext.js';

export type { ClientEvents } from './ClientEvents.js';
export type { ClientOptions } from './ClientOptions.js';

const DEFAULT_API_BASE = 'https://discord.com/api/v10';
const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

/**
 * The SDK's entry point: account linking, tokens and the connection. One instance per signed-in player;
 * several clients can live in one process.
 *
 * @example
 * ```ts
 * const client = new Client({ applicationId: APP_ID });
 * const pkce = client.createAuthorizationCodeVerifier();
 * const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
 * const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
 * await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
 * await client.connect();
 * console.log(client.getCurrentUser()?.displayName);
 * ```
 */
export class Client extends TypedEmitter<ClientEvents> {
  readonly #logger: Logger;
  readonly #log: LogWriter;
  readonly #auth: AuthManager;
  readonly #connection: ConnectionManager;
  /** The shown status: the connection's, or HttpWait while a request waits on a rate limit. */
  readonly #httpWait: HttpWaitStatus;
  readonly #users = new UserStore();
  #applicationId: string | undefined;
  #httpTimeoutMs: number;
  #currentUserId: string | undefined;
  readonly #mediaEngineChoice: MediaEnginePreference | MediaEngine;
  #mediaEngine: MediaEngine | undefined;
  readonly #localClient: LocalClientLink;
  readonly #presence: PresenceManager;
  /** The state-keeping features, fed by READY, dispatches and disconnects. */
  readonly #features: SessionFeature[] = [];
  readonly #session: SessionContext;
  readonly #relationships: RelationshipManager;
  readonly #invites: InviteManager;
  readonly #directMessages: DirectMessageManager;
  readonly #lobbies: LobbyManager;
  readonly #lobbyMessages: LobbyMessageManager;
  readonly #calls: CallManager;
  #voiceParticipantCallback: ((lobbyId: string, memberId: string, added: boolean) => void) | undefined;
  readonly #guilds: GuildManager;
  readonly #localEvents: LocalClientEvents;
  readonly #localCallbacks: LocalClientCallbacks;
  readonly #launchRegistryDir: string | undefined;
  /** Set by destroy(): the shutdown under way or done. */
  #destroyed: Promise<void> | undefined;

  constructor(options: ClientOptions = {}) {
    super();
    checkClientOptions(options);
    this.#logger = new Logger({ debug: options.debug ?? process.env.SDKPP_DEBUG === '1' });
    if (options.logCallback)
      this.#logger.addCallback(options.logCallback, options.logSeverity ?? LoggingSeverity.Info);
    this.#log = this.#logger.writer('client');
    this.#applicationId = options.applicationId;
    this.#mediaEngineChoice = options.mediaEngine ?? 'auto';
    this.#launchRegistryDir = options.launchRegistryDir;
    this.#httpTimeoutMs = checkedTimeout(options.httpRequestTimeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS);
    const apiBase = options.apiBase ?? DEFAULT_API_BASE;
    const clock = options.clock ?? systemClock;
    const rest = new RestClient({
      apiBase,
      timeoutMs: () => this.#httpTimeoutMs,
      log: this.#logger.writer('http'),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      clock,
      rateLimits: {
        ...(options.maxRateLimitWaitMs === undefined ? {} : { maxWaitMs: options.maxRateLimitWaitMs }),
        onWait: (waiting, seconds, route) => {
          this.#httpWait.onWait(waiting, seconds, route);
        },
      },
    });
    this.#auth = new AuthManager({
      rest,
      log: this.#logger.writer('auth'),
      clock,
      webBase: options.webBase ?? new URL(apiBase).origin,
      applicationId: () => this.#applicationId,
      openUrl: options.openUrl ?? openInSystemBrowser,
      tokenExpiryWarningMs: options.tokenExpiryWarningMs ?? 300_000,
      localClient: async () => this.#localClient.get(),
      localClientRefusal: () => this.#localClient.refusal,
      events: {
        tokenExpiring: (expiresAt) => {
          this.emit('tokenExpiring', expiresAt);
        },
        deauthorized: (error) => {
          this.emit('deauthorized', error);
        },
      },
    });
    this.#connection = new ConnectionManager({
      rest,
      log: this.#logger.writer('gateway'),
      clock,
      socketFactory: options.gatewaySocketFactory ?? defaultGatewaySocketFactory,
      token: () => this.#auth.token,
      tokenRefusal: () => this.#auth.refusal,
      gatewayUrl: options.gatewayUrl,
      reconnectDelayMs: options.reconnectDelayMs,
      invalidSessionDelayMs: options.invalidSessionDelayMs,
    });
    this.#httpWait = new HttpWaitStatus({
      connectionStatus: () => this.#connection.status,
      log: this.#logger.writer('client'),
      emitStatus: (status, error, detail) => this.emit('statusChanged', status, error, detail),
      emitWait: (waiting, seconds, route) => this.emit('httpWait', waiting, seconds, route),
    });
    this.#localClient = new LocalClientLink(
      options.localClient ?? {},
      () => this.#applicationId,
      this.#logger.writer('rpc'),
      clock,
    );
    this.#presence = new PresenceManager({
      log: this.#logger.writer('presence'),
      clock,
      readyGateway: () =>
        this.#connection.status === ClientStatus.Ready ? this.#connection.gateway : undefined,
      applicationId: () => this.#applicationId,
      localClient: async () => this.#localClient.get(),
      localClientRefusal: () => this.#localClient.refusal,
    });
    this.#session = {
      log: this.#logger.writer('social'),
      clock,
      api: async <T>(request: Omit<RestRequest, 'auth'>): Promise<T> => {
        const token = this.#auth.token;
        if (this.#connection.status !== ClientStatus.Ready || token === undefined)
          throw new ClientNotReadyError();
        const response = await rest.request<T>({
          signal: currentSignal(),
          ...request,
          auth: { kind: 'bearer', token },
        });
        return response.body;
      },
      requireReady: () => {
        if (this.#connection.status !== ClientStatus.Ready) throw new ClientNotReadyError();
      },
      users: this.#users,
      currentUserId: () => this.#currentUserId,
      applicationId: () => this.#applicationId,
      emit: (event, ...args) => {
        this.emit(event, ...args);
      },
    };
    this.#users.applicationId = () => this.#applicationId;
    this.#localCallbacks = new LocalClientCallbacks({
      applicationId: () => this.#applicationId ?? '',
      activityJoin: (secret, applicationId) => this.emit('activityJoin', secret, applicationId),
      invite: (invite, sender) => {
        this.#users.upsert(sender);
        this.emit('activityInviteCreated', invite);
      },
      other: (evt, data) => this.emit('localClientEvent', evt, data),
      callbackError: (error, name) => {
        this.onListenerError(error, name);
      },
      log: this.#logger.writer('rpc'),
    });
    this.#localEvents = new LocalClientEvents({
      transport: async () => this.#localClient.get(),
      deliver: (evt, data) => {
        this.#localCallbacks.route(evt, data);
      },
      log: this.#logger.writer('rpc'),
      clock,
    });
    this.#relationships = this.#feature(new RelationshipManager(this.#session));
    const messages = new MessageStore();
    this.#directMessages = this.#feature(new DirectMessageManager(this.#session, messages));
    this.#lobbyMessages = this.#feature(
      new LobbyMessageManager(this.#session, messages, {
        isMember: (lobbyId) => this.#lobbies.isMember(lobbyId),
        handle: (messageId) => this.#directMessages.handle(messageId),
      }),
    );
    this.#lobbies = this.#feature(
      new LobbyManager(
        this.#session,
        (lobbyId) => {
          this.#lobbyMessages.forgetLobby(lobbyId);
        },
        (lobbyId) => this.#calls.callInfo(lobbyId),
      ),
    );
    this.#calls = this.#feature(
      new CallManager({
        session: this.#session,
        gateway: () =>
          this.#connection.status === ClientStatus.Ready ? this.#connection.gateway : undefined,
        engine: () => this.#media(),
        isLobbyMember: (lobbyId) => this.#lobbies.isMember(lobbyId),
        log: this.#logger.writer('voice'),
        redact: (line) => this.#logger.redact(line),
        secureVoice: !apiBase.startsWith('http:'),
        ...(options.callJoinTimeoutMs !== undefined ? { joinTimeoutMs: options.callJoinTimeoutMs } : {}),
        ...(options.daveSessionFactory === false
          ? {}
          : {
              dave:
                options.daveSessionFactory ??
                ((o) =>
                  new DaveProtocolSession({
                    selfUserId: o.selfUserId,
                    channelId: o.channelId,
                    logger: o.log,
                  })),
            }),
        ...(options.voiceSocketFactory ? { socketFactory: options.voiceSocketFactory } : {}),
        audioInputDetected: (detected) => {
          this.emit('audioInputDetected', detected);
        },
        participantChanged: (lobbyId, memberId, added) => {
          this.emit('voiceParticipantChanged', lobbyId, memberId, added);
          try {
            this.#voiceParticipantCallback?.(lobbyId, memberId, added);
          } catch (error) {
            this.onListenerError(error, 'voiceParticipantChanged');
          }
        },
      }),
    );
    const webBase = (options.webBase ?? new URL(apiBase).origin).replace(/\/$/, '');
    this.#guilds = new GuildManager(this.#session, (code) => `${webBase}/invite/${code}`);
    this.#invites = this.#feature(
      new InviteManager(this.#session, { current: () => this.#presence.current }),
    );
    this.#connection.on('status', (status, error, detail) => {
      // A new session starts without presence, so the current one is sent again once Ready.
      if (status === ClientStatus.Ready) this.#presence.onReady();
      if (status === ClientStatus.Disconnected) {
        this.#presence.cancel();
        this.#currentUserId = undefined;
        this.#users.clear();
        for (const feature of this.#features) feature.onDisconnected?.();
      }
      this.#httpWait.onConnectionStatus(status, error, detail);
    });
    this.#connection.on('ready', (data) => {
      this.#onReady(data);
    });
    this.#connection.on('dispatch', (event, data) => {
      this.#onDispatch(event, data);
    });
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
    this.#applicationId = applicationId;
  }

  /** The default application id, if set. */
  getApplicationId(): string | undefined {
    return this.#applicationId;
  }

  /** Sets the HTTP request timeout in ms (default 30000); applies to requests started afterwards. */
  setHttpRequestTimeout(timeoutMs: number): void {
    this.#httpTimeoutMs = checkedTimeout(timeoutMs);
  }

  /** The HTTP request timeout in ms. */
  getHttpRequestTimeout(): number {
    return this.#httpTimeoutMs;
  }

  /**
   * Adds a log callback. Lines below Warning arrive only in debug mode. Lines are redacted before any
   * callback sees them: no token, code, verifier or secret is ever logged. Returns a remover.
   */
  addLogCallback(callback: LogCallback, minSeverity: LoggingSeverity = LoggingSeverity.Info): () => void {
    return this.#logger.addCallback(callback, minSeverity);
  }

  // ── Account linking and tokens ─────────────────────────────────────────────────────────────────

  /** Creates a PKCE verifier and its S256 challenge for {@link Client.authorize} and {@link Client.getToken}. */
  createAuthorizationCodeVerifier(): AuthorizationCodeVerifier {
    const pair = createAuthorizationCodeVerifier();
    this.#logger.secret(pair.verifier);
    return pair;
  }

  /**
   * Asks the user to authorize the application: opens the consent page, receives the redirect on a loopback
   * listener (or through {@link Client.completeAuthorize} for custom schemes), checks `state`, and resolves with
   * the code. Rejects with `AuthorizationError` when denied or timed out, `AbortedError` when aborted.
   */
  async authorize(args: AuthorizationArgs = {}, options: AuthorizeOptions = {}): Promise<AuthorizeResult> {
    return this.#auth.authorize(args, options);
  }

  /** Hands a custom-scheme callback URL to the authorization waiting for it; false if none matches. */
  completeAuthorize(callbackUrl: string): boolean {
    return this.#auth.completeAuthorize(callbackUrl);
  }

  /** Aborts an authorization in progress. */
  abortAuthorize(): void {
    this.#auth.abortAuthorize();
  }

  /** Exchanges the code from {@link Client.authorize} for tokens (public client with PKCE). */
  async getToken(
    params: { code: string; codeVerifier: string; redirectUri: string; applicationId?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<TokenExchangeResult> {
    return this.#auth.getToken(params, options.signal);
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
    return this.#auth.getToken({ ...rest, merge: { externalAuthType, externalAuthToken } }, options.signal);
  }

  /**
   * Refreshes tokens (both old tokens stop working). On `invalid_grant` it emits `deauthorized` and rejects
   * with `DeauthorizedError`.
   */
  async refreshToken(
    params: { refreshToken: string; applicationId?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<TokenExchangeResult> {
    return this.#auth.refreshToken(params, options.signal);
  }

  /** Revokes every token of the application for that user; for SDK apps this unlinks the account. */
  async revokeToken(
    params: { token: string; applicationId?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return this.#auth.revokeToken(params, options.signal);
  }

  /** Finds or creates the provisional account of an external identity and returns its token. */
  async getProvisionalToken(
    params: ExternalAuth & { applicationId?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<TokenExchangeResult> {
    return this.#auth.getProvisionalToken(params, options.signal);
  }

  /** Unlinks an external identity from its full account into a new provisional account. */
  async unmergeIntoProvisionalAccount(
    params: ExternalAuth & { applicationId?: string },
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return this.#auth.unmergeIntoProvisionalAccount(params, options.signal);
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
    return this.#auth.fetchCurrentUser(token, options.signal);
  }

  /** Sets the token to connect with. When connected, it is used from the next identify or resume. */
  async updateToken(
    tokenType: AuthorizationTokenType,
    token: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return this.#auth.updateToken(tokenType, token, options.signal);
  }

  /** True when a non-empty token is set (valid or not). */
  isAuthenticated(): boolean {
    return this.#auth.isAuthenticated();
  }

  // ── Connection ─────────────────────────────────────────────────────────────────────────────────

  /**
   * The connection status; {@link ClientStatus.HttpWait} while an HTTP request waits on a rate limit (unless
   * disconnected or disconnecting).
   */
  getStatus(): ClientStatus {
    return this.#httpWait.status;
  }

  /** Connects and resolves once Ready; see {@link ClientStatus}. */
  async connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.#connection.connect(options);
  }

  /** Disconnects and resolves once Disconnected. */
  async disconnect(): Promise<void> {
    return this.#connection.disconnect();
  }

  /** The signed-in user, or undefined before the client is Ready. */
  getCurrentUser(): UserHandle | undefined {
    return this.#currentUserId === undefined ? undefined : new UserHandle(this.#users, this.#currentUserId);
  }

  /** A user the client knows, by id. */
  getUser(userId: string): UserHandle | undefined {
    return this.#users.get(userId) ? new UserHandle(this.#users, userId) : undefined;
  }

  /**
   * Which media engine this client uses for voice (native addon or pure JS), its crypto backend and codec.
   * The first call picks the engine; a fallback to the JS engine is logged once, with the command that fixes it.
   */
  getMediaEngineInfo(): MediaEngineInfo {
    return this.#media().info;
  }

  /** Runs the media engine's crypto known-answer and round-trip checks; a diagnostic for support requests. */
  runMediaSelfTest(): CryptoSelfTestResult {
    return this.#media().cryptoSelfTest();
  }

  #media(): MediaEngine {
    if (this.#mediaEngine) return this.#mediaEngine;
    const choice = this.#mediaEngineChoice;
    const log = this.#logger.writer('media');
    if (typeof choice === 'object') this.#mediaEngine = choice;
    else if (choice === 'auto') this.#mediaEngine = getDefaultMediaEngine({ log });
    else this.#mediaEngine = createMediaEngine({ prefer: choice, log });
    log.info(`media engine: ${this.#mediaEngine.info.engine} ${this.#mediaEngine.info.version}`);
    return this.#mediaEngine;
  }

  // ── Rich presence ──────────────────────────────────────────────────────────────────────────────

  /**
   * Sets the player's rich presence. When Ready it goes through the gateway, coalesced to the platform's limit
   * of 5 updates per 20 s (the last update always gets through); otherwise through a running local desktop
   * client, which needs no sign-in. Only Playing, Listening, Watching and Competing can be set: anything
   * else, or a field over its limit, is a `ValidationError` before any I/O.
   */
  async updateRichPresence(activity: Activity, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'updateRichPresence()', async () => this.#presence.update(activity));
  }

  /** Clears the player's rich presence. */
  async clearRichPresence(options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'clearRichPresence()', async () => this.#presence.clear());
  }

  /**
   * Sets the player's online status (Online, Idle, Dnd or Invisible) for the current session. Invisible shows
   * the player as offline to friends.
   */
  async setOnlineStatus(status: StatusType, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'setOnlineStatus()', async () => {
      await this.#presence.setStatus(status);
    });
  }

  // ── The desktop client ─────────────────────────────────────────────────────────────────────────

  /**
   * Listens to a running desktop client (and keeps looking for one while none runs): invites accepted there
   * arrive as `activityJoin`, invites and join requests shown there as `activityInviteCreated`. Resolves once
   * subscribed, or at once when no desktop client runs yet.
   */
  async watchLocalClient(): Promise<void> {
    return this.#localEvents.want('ACTIVITY_JOIN', 'ACTIVITY_JOIN_REQUEST', 'ACTIVITY_INVITE');
  }

  /**
   * The user signed in to the running desktop client, or undefined when none runs (or it belongs to another
   * account system). Needs no sign-in of the game.
   */
  async getDiscordClientConnectedUser(): Promise<RpcUser | undefined> {
    const rpc = await this.#localClient.get();
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
    const token = this.#auth.token;
    if (token === undefined || token === '')
      throw new ClientNotReadyError('authenticating needs a token: call updateToken() first');
    const rpc = await this.#localClient.get();
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
   * Subscribes to another desktop-client event (such as `GUILD_STATUS`); it arrives as `localClientEvent`.
   */
  async subscribeLocalClientEvent(event: string): Promise<void> {
    if (!/^[A-Z][A-Z0-9_]*$/.test(event))
      return Promise.reject(new ValidationError(`"${event}" is not an event name`));
    return this.#localEvents.want(event);
  }

  /**
   * Called when the player starts linking from the desktop client's own UI (its "connect the game" entry
   * points): the game should come to the front and call `authorize()`. The subscription survives restarts of
   * the desktop client. Replaces an earlier callback. The callback gets the event's data as the desktop client
   * sent it (often empty).
   */
  async registerAuthorizeRequestCallback(callback: (data: unknown) => void): Promise<void> {
    this.#localCallbacks.authorizeRequest = callback;
    return this.#localEvents.want('AUTHORIZE_REQUEST');
  }

  /** Stops listening for authorize requests (e.g. mid-match, when the game can't handle one). */
  async removeAuthorizeRequestCallback(): Promise<void> {
    this.#localCallbacks.authorizeRequest = undefined;
    return this.#localEvents.unwant('AUTHORIZE_REQUEST');
  }

  /**
   * Called with the join secret when the player joins from the desktop client (accepts an invite or clicks
   * Join there; ACTIVITY_JOIN): the game should join that party. Subscribes on the desktop client like
   * {@link Client.watchLocalClient}, also once one starts later and after it restarts; the `activityJoin`
   * event fires too. Replaces an earlier callback; `undefined` removes it. Resolves once subscribed (at once
   * when no desktop client runs yet).
   */
  async setActivityJoinCallback(callback: ((joinSecret: string) => void) | undefined): Promise<void> {
    this.#localCallbacks.activityJoin = callback;
    return this.#localEvents.want('ACTIVITY_JOIN');
  }

  /**
   * Like {@link Client.setActivityJoinCallback}, with the application the invite belongs to (a sibling
   * application's id for a publisher's other game; ours when the event names none).
   */
  async setActivityJoinWithApplicationCallback(
    callback: ((applicationId: string, joinSecret: string) => void) | undefined,
  ): Promise<void> {
    this.#localCallbacks.activityJoinWithApplication = callback;
    return this.#localEvents.want('ACTIVITY_JOIN');
  }

  /**
   * Tells the desktop client how to start the game when the player accepts an invite there (this machine
   * only). Returns false, with a log line, when it could not be registered.
   */
  registerLaunchCommand(applicationId: string, command: string): boolean {
    try {
      const where = writeLaunchCommand(applicationId, command, this.#launchRegistryOptions());
      this.#log.info(`launch command registered (${where})`);
      return true;
    } catch (error) {
      this.#log.warn(`launch command not registered: ${(error as Error).message}`);
      return false;
    }
  }

  /** Like {@link Client.registerLaunchCommand}, starting the game through Steam. */
  registerLaunchSteamApplication(applicationId: string, steamAppId: number): boolean {
    if (!Number.isInteger(steamAppId) || steamAppId <= 0 || steamAppId > 0xffffffff) {
      this.#log.warn('launch command not registered: the Steam app id must be a positive 32-bit integer');
      return false;
    }
    const opener = process.platform === 'win32' ? 'cmd /c start ""' : 'xdg-open';
    return this.registerLaunchCommand(applicationId, `${opener} steam://rungameid/${steamAppId}`);
  }

  #launchRegistryOptions(): { dir?: string } {
    return this.#launchRegistryDir === undefined ? {} : { dir: this.#launchRegistryDir };
  }

  // ── Direct messages ────────────────────────────────────────────────────────────────────────────

  /**
   * Sends a direct message (1–2000 characters) with optional metadata (at most 25 keys, 1024 characters in
   * all); resolves with the message id. Limits are checked before any request.
   */
  async sendUserMessage(
    recipientId: string,
    content: string,
    metadata?: Record<string, string>,
    options: { signal?: AbortSignal } = {},
  ): Promise<string> {
    return withSignal(options.signal, 'sendUserMessage()', async () =>
      this.#directMessages.send(recipientId, content, metadata),
    );
  }

  /** Edits one of the player's direct messages. */
  async editUserMessage(
    recipientId: string,
    messageId: string,
    content: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'editUserMessage()', async () =>
      this.#directMessages.edit(recipientId, messageId, content),
    );
  }

  /** Deletes one of the player's direct messages. */
  async deleteUserMessage(
    recipientId: string,
    messageId: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'deleteUserMessage()', async () =>
      this.#directMessages.delete(recipientId, messageId),
    );
  }

  /**
   * The last `limit` (1–200) direct messages with a user, of the last 72 hours, oldest first. The conversation
   * is cached and kept current by events: asking again for what the client holds makes no request.
   */
  async getUserMessagesWithLimit(
    recipientId: string,
    limit: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<MessageHandle[]> {
    return withSignal(options.signal, 'getUserMessagesWithLimit()', async () =>
      this.#directMessages.history(recipientId, limit),
    );
  }

  /** Every user the player has direct messages with, and the newest message id of each. */
  async getUserMessageSummaries(options: { signal?: AbortSignal } = {}): Promise<
    {
      /** The other user in the conversation. */
      userId: string;
      /** The id of the newest message, sent by either user. */
      lastMessageId: string;
    }[]
  > {
    return withSignal(options.signal, 'getUserMessageSummaries()', async () =>
      this.#directMessages.summaries(),
    );
  }

  /** A message the client knows (received, sent or fetched). */
  getMessageHandle(messageId: string): MessageHandle | undefined {
    return this.#directMessages.handle(messageId);
  }

  /**
   * A channel: a lobby the player is in (type Lobby, its members as recipients), or the direct-message channel
   * with a user the client knows (its id is theirs).
   */
  getChannelHandle(channelId: string): ChannelHandle | undefined {
    const lobby = this.#lobbies.handle(channelId);
    if (lobby) {
      return new ChannelHandle(
        { id: lobby.id, type: ChannelType.Lobby, recipients: lobby.lobbyMemberIds, name: '' },
        this.#users,
      );
    }
    return this.#directMessages.channel(channelId);
  }

  // ── Activity invites ─────────────────────────────────────────────────────────────────────────────

  /**
   * Invites a user to the player's party. The player's rich presence must have a party id and a join
   * secret; `content` is an optional message shown with the invite.
   */
  async sendActivityInvite(
    userId: string,
    content = '',
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'sendActivityInvite()', async () =>
      this.#invites.sendInvite(userId, content),
    );
  }

  /** Asks to join the party of a user who is playing this game. */
  async sendActivityJoinRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'sendActivityJoinRequest()', async () =>
      this.#invites.sendJoinRequest(userId),
    );
  }

  /** Answers a join request (an invite of type JoinRequest) by inviting its sender to the player's party. */
  async sendActivityJoinRequestReply(
    invite: ActivityInvite,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'sendActivityJoinRequestReply()', async () =>
      this.#invites.replyToJoinRequest(invite),
    );
  }

  /** Accepts a Join invite and resolves with the host's join secret, which the game uses to join the party. */
  async acceptActivityInvite(
    invite: ActivityInvite,
    options: { signal?: AbortSignal } = {},
  ): Promise<string> {
    return withSignal(options.signal, 'acceptActivityInvite()', async () => this.#invites.accept(invite));
  }

  // ── Friends ────────────────────────────────────────────────────────────────────────────────────

  /** Every relationship: platform friends, game friends, pending requests and blocks. Empty until Ready. */
  getRelationships(): RelationshipHandle[] {
    return this.#relationships.list();
  }

  /** The relationship with one user; both types are None when there is none. */
  getRelationshipHandle(userId: string): RelationshipHandle {
    return this.#relationships.handle(userId);
  }

  /** Friends in one group of the friends list, sorted by display name. */
  getRelationshipsByGroup(groupType: RelationshipGroupType): RelationshipHandle[] {
    return this.#relationships.byGroup(groupType);
  }

  /**
   * The unified friends list (platform and game friends once each): online and playing this game first,
   * then online elsewhere, then offline; by display name within each group.
   */
  getFriendsList(): RelationshipHandle[] {
    return this.#relationships.friends();
  }

  /** Friends whose username or display name contains `query`, case-insensitive. */
  searchFriendsByUsername(query: string): UserHandle[] {
    return this.#relationships.search(query);
  }

  /** Sends a platform friend request by username (accepts theirs if they asked first). */
  async sendDiscordFriendRequest(username: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'sendDiscordFriendRequest()', async () =>
      this.#relationships.sendRequestByUsername('discord', username),
    );
  }

  /** Sends a platform friend request by user id (accepts theirs if they asked first). */
  async sendDiscordFriendRequestById(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'sendDiscordFriendRequestById()', async () =>
      this.#relationships.sendRequestById('discord', userId),
    );
  }

  /** Sends a game friend request by username (accepts theirs if they asked first). */
  async sendGameFriendRequest(username: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'sendGameFriendRequest()', async () =>
      this.#relationships.sendRequestByUsername('game', username),
    );
  }

  /** Sends a game friend request by user id (accepts theirs if they asked first). */
  async sendGameFriendRequestById(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'sendGameFriendRequestById()', async () =>
      this.#relationships.sendRequestById('game', userId),
    );
  }

  /** Accepts an incoming platform friend request; a `ValidationError` when there is none. */
  async acceptDiscordFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'acceptDiscordFriendRequest()', async () =>
      this.#relationships.accept('discord', userId),
    );
  }

  /** Accepts an incoming game friend request; a `ValidationError` when there is none. */
  async acceptGameFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'acceptGameFriendRequest()', async () =>
      this.#relationships.accept('game', userId),
    );
  }

  /** Declines an incoming platform friend request. */
  async rejectDiscordFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'rejectDiscordFriendRequest()', async () =>
      this.#relationships.reject('discord', userId),
    );
  }

  /** Declines an incoming game friend request. */
  async rejectGameFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'rejectGameFriendRequest()', async () =>
      this.#relationships.reject('game', userId),
    );
  }

  /** Withdraws an outgoing platform friend request. */
  async cancelDiscordFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'cancelDiscordFriendRequest()', async () =>
      this.#relationships.cancel('discord', userId),
    );
  }

  /** Withdraws an outgoing game friend request. */
  async cancelGameFriendRequest(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'cancelGameFriendRequest()', async () =>
      this.#relationships.cancel('game', userId),
    );
  }

  /** Ends every friendship with the user, platform and game. */
  async removeDiscordAndGameFriend(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'removeDiscordAndGameFriend()', async () =>
      this.#relationships.removeDiscordAndGameFriend(userId),
    );
  }

  /** Ends the game friendship only. */
  async removeGameFriend(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'removeGameFriend()', async () =>
      this.#relationships.removeGameFriend(userId),
    );
  }

  /** Blocks the user: friendships and requests with them end, and they can't message or invite the player. */
  async blockUser(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'blockUser()', async () => this.#relationships.block(userId));
  }

  /** Lifts a block. */
  async unblockUser(userId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'unblockUser()', async () => this.#relationships.unblock(userId));
  }

  /**
   * Creates the lobby for this secret, or joins the existing one (one call); resolves with the lobby id.
   * Metadata given here replaces the lobby's (and the player's member metadata); at most 25 keys and 1000
   * characters each. Share the secret through rich presence (`secrets.join`) so friends can join.
   */
  async createOrJoinLobby(
    secret: string,
    lobbyMetadata?: Record<string, string>,
    memberMetadata?: Record<string, string>,
    options: { signal?: AbortSignal } = {},
  ): Promise<string> {
    return withSignal(options.signal, 'createOrJoinLobby()', async () => {
      return this.#lobbies.createOrJoin(secret, {
        ...(lobbyMetadata === undefined ? {} : { lobbyMetadata }),
        ...(memberMetadata === undefined ? {} : { memberMetadata }),
      });
    });
  }

  /** Leaves a lobby the player joined with a secret (`lobbyDeleted` follows). */
  async leaveLobby(lobbyId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'leaveLobby()', async () => this.#lobbies.leave(lobbyId));
  }

  /** A live view of a lobby the player is in, or undefined. */
  getLobbyHandle(lobbyId: string): LobbyHandle | undefined {
    return this.#lobbies.handle(lobbyId);
  }

  /** The ids of every lobby the player is in. */
  getLobbyIds(): string[] {
    return this.#lobbies.ids();
  }

  /** Sends a message to every member of a lobby the player is in; resolves with its id. */
  async sendLobbyMessage(
    lobbyId: string,
    content: string,
    metadata?: Record<string, string>,
    options: { signal?: AbortSignal } = {},
  ): Promise<string> {
    return withSignal(options.signal, 'sendLobbyMessage()', async () =>
      this.#lobbyMessages.send(lobbyId, content, metadata),
    );
  }

  /**
   * The last `limit` messages (1–200, of the last 72 hours) of a lobby the player is in, oldest first; a
   * `ValidationError` for a lobby the player is not in. What the client holds is answered without a request.
   */
  async getLobbyMessagesWithLimit(
    lobbyId: string,
    limit: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<MessageHandle[]> {
    return withSignal(options.signal, 'getLobbyMessagesWithLimit()', async () =>
      this.#lobbyMessages.history(lobbyId, limit),
    );
  }

  /** The guilds (servers) the player is a member of. */
  async getUserGuilds(options: { signal?: AbortSignal } = {}): Promise<GuildMinimal[]> {
    return withSignal(options.signal, 'getUserGuilds()', async () => this.#guilds.userGuilds());
  }

  /** The channels of a guild the player can see, in the order the chat client shows them. */
  async getGuildChannels(guildId: string, options: { signal?: AbortSignal } = {}): Promise<GuildChannel[]> {
    return withSignal(options.signal, 'getGuildChannels()', async () => this.#guilds.guildChannels(guildId));
  }

  /**
   * Links a guild text channel to a lobby: messages then flow both ways. The player needs the lobby's
   * `canLinkLobby` flag (set by the game backend) and permission to manage the channel.
   */
  async linkChannelToLobby(
    lobbyId: string,
    channelId: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    return withSignal(options.signal, 'linkChannelToLobby()', async () =>
      this.#lobbies.linkChannel(lobbyId, channelId),
    );
  }

  /** Removes a lobby's channel link. */
  async unlinkChannelFromLobby(lobbyId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'unlinkChannelFromLobby()', async () =>
      this.#lobbies.unlinkChannel(lobbyId),
    );
  }

  /**
   * A single-use invite (valid one hour) to the guild of the channel linked to a lobby; resolves with the
   * invite URL for the game to show (consoles) or open.
   */
  async joinLinkedLobbyGuild(lobbyId: string, options: JoinLinkedLobbyGuildOptions = {}): Promise<string> {
    return withSignal(options.signal, 'joinLinkedLobbyGuild()', async () =>
      this.#guilds.joinLinkedLobbyGuild(lobbyId, options),
    );
  }

  /** Ends the merge that `joinLinkedLobbyGuild`'s `onProvisionalUserMergeRequired` asked for. */
  provisionalUserMergeCompleted(success: boolean): void {
    this.#guilds.provisionalUserMergeCompleted(success);
  }

  // ── Voice calls ──────────────────────────────────────────────────────────────────────────────────

  /**
   * Starts or joins the voice call of a lobby the player is in and returns it at once, in status Joining;
   * follow it with `call.on('statusChanged', …)` until Connected. A `ValidationError` (before any I/O) for a
   * lobby the player is not in or a call the player is already in; `ClientNotReadyError` unless Ready.
   */
  startCall(lobbyId: string): Call {
    return this.#calls.start(lobbyId);
  }

  /**
   * {@link Client.startCall} with raw audio: `received` sees each other user's 20 ms of PCM before mixing
   * (it may change the samples, or return true to leave that user out of the SDK's playout and play them
   * through the game's own engine); `captured` sees the microphone's audio before it is sent.
   */
  startCallWithAudioCallbacks(
    lobbyId: string,
    received: UserAudioReceivedCallback,
    captured: UserAudioCapturedCallback,
  ): Call {
    return this.#calls.start(lobbyId, received, captured);
  }

  /** The player's call in a lobby, or undefined. */
  getCall(lobbyId: string): Call | undefined {
    return this.#calls.get(lobbyId);
  }

  /** Every call the player is in. */
  getCalls(): Call[] {
    return this.#calls.all();
  }

  /** Leaves the call of a lobby (nothing happens when the player is not in it); resolves once it ended. */
  async endCall(lobbyId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'endCall()', async () => this.#calls.end(lobbyId));
  }

  /** Leaves every call. */
  async endCalls(options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'endCalls()', async () => this.#calls.endAll());
  }

  /**
   * One callback for {@link ClientEvents.voiceParticipantChanged} (C++ `SetVoiceParticipantChangedCallback`);
   * replaces the previous one, `undefined` removes it.
   */
  setVoiceParticipantChangedCallback(
    callback: ((lobbyId: string, memberId: string, added: boolean) => void) | undefined,
  ): void {
    this.#voiceParticipantCallback = callback;
  }

  /** Mutes the player's microphone in every call, and in calls started later. */
  setSelfMuteAll(mute: boolean): void {
    this.#calls.setSelfMuteAll(mute);
  }

  /** Whether the player is muted in all calls. */
  getSelfMuteAll(): boolean {
    return this.#calls.getSelfMuteAll();
  }

  /** Deafens the player in every call, and in calls started later. */
  setSelfDeafAll(deaf: boolean): void {
    this.#calls.setSelfDeafAll(deaf);
  }

  /** Whether the player is deafened in all calls. */
  getSelfDeafAll(): boolean {
    return this.#calls.getSelfDeafAll();
  }

  /** The microphone volume, 0–100 (default 100); a `ValidationError` outside that range. */
  setInputVolume(inputVolume: number): void {
    this.#calls.setInputVolume(inputVolume);
  }

  /** The microphone volume. */
  getInputVolume(): number {
    return this.#calls.getInputVolume();
  }

  /**
   * Watches the microphone during calls: `audioInputDetected` says when its level (RMS, dBFS) reaches
   * `dBFS` and when it has stayed below for a second, so the game can say "we can't hear your microphone".
   * −100 (the default) turns it off; a `ValidationError` outside −100..0.
   */
  setNoAudioInputThreshold(dBFS: number): void {
    this.#calls.setNoAudioInputThreshold(dBFS);
  }

  /** The threshold of {@link Client.setNoAudioInputThreshold}; −100 when off. */
  getNoAudioInputThreshold(): number {
    return this.#calls.getNoAudioInputThreshold();
  }

  /** The playback volume, 0–200 (default 100); a `ValidationError` outside that range. */
  setOutputVolume(outputVolume: number): void {
    this.#calls.setOutputVolume(outputVolume);
  }

  /** The playback volume. */
  getOutputVolume(): number {
    return this.#calls.getOutputVolume();
  }

  /**
   * The audio input devices. Virtual devices are always there: `null` (silence, the default) and
   * `wav-in:<path>` (a 16-bit PCM WAV file as the microphone, resampled to 48 kHz when needed).
   */
  async getInputDevices(): Promise<AudioDevice[]> {
    return Promise.resolve(this.#calls.inputDevices());
  }

  /**
   * The audio output devices: `null` (discard, the default) and `wav-out:<path>` (what the player hears,
   * written to a 48 kHz stereo WAV file whose header is complete whenever no call runs).
   */
  async getOutputDevices(): Promise<AudioDevice[]> {
    return Promise.resolve(this.#calls.outputDevices());
  }

  /** The input device in use. */
  async getCurrentInputDevice(): Promise<AudioDevice> {
    return Promise.resolve(this.#calls.currentInputDevice());
  }

  /** The output device in use. */
  async getCurrentOutputDevice(): Promise<AudioDevice> {
    return Promise.resolve(this.#calls.currentOutputDevice());
  }

  /** Switches the input device; rejects with a `ValidationError` for an unknown id or an unusable WAV file. */
  async setInputDevice(deviceId: string): Promise<void> {
    await Promise.resolve();
    this.#calls.setInputDevice(deviceId);
  }

  /** Switches the output device; rejects with a `ValidationError` for an unknown id or a path it cannot write. */
  async setOutputDevice(deviceId: string): Promise<void> {
    await Promise.resolve();
    this.#calls.setOutputDevice(deviceId);
  }

  /** The default audio device's id (`null`: the SDK has no system devices of its own). */
  static getDefaultAudioDeviceId(): string {
    return NULL_AUDIO_DEVICE_ID;
  }

  /** Mobile only in the platform SDK: kept, with no effect on desktop. */
  setEngineManagedAudioSession(isEngineManaged: boolean): void {
    this.#calls.setEngineManagedAudioSession(isEngineManaged);
  }

  /**
   * AEC diagnostic recording: while on, with a voice log dir set, the microphone and playout are recorded as
   * WAV files in that directory.
   */
  setAecDump(on: boolean): void {
    this.#calls.setAecDump(on);
  }

  /**
   * Writes the voice connections' log lines (redacted like every log line) at or above `minimumSeverity`
   * (default: every line, whatever the client's own log severity) to `voice.log` in `path`, from the next
   * line on; creates the directory. `undefined` stops it.
   */
  setVoiceLogDir(path: string | undefined, minimumSeverity?: LoggingSeverity): void {
    this.#calls.setVoiceLogDir(path, minimumSeverity);
  }

  /**
   * Disconnects, ends every call, aborts any authorization and stops every timer. The client can't be used
   * afterwards: every method but `getStatus()` and `destroy()` throws, or rejects with,
   * `ClientDestroyedError`, and so do waits still pending (`connect()`, `waitFor()`). Calling it again does
   * nothing. `await using client = new Client(…)` calls it when the scope ends.
   */
  async destroy(): Promise<void> {
    if (this.#destroyed) return this.#destroyed;
    this.#destroyed = this.#shutDown();
    return this.#destroyed;
  }

  /** The same as {@link Client.destroy}, for `await using client = new Client(…)`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.destroy();
  }

  async #shutDown(): Promise<void> {
    this.rejectWaiters(new ClientDestroyedError('the client was destroyed while waiting for an event'));
    this.#auth.dispose();
    this.#localEvents.close();
    this.#localClient.close();
    await this.#calls.destroy();
    await this.#connection.destroy();
    this.#log.info('client destroyed');
  }

  static {
    guardAfterDestroy(
      Client.prototype,
      (client) => client.#destroyed !== undefined,
      new Set<PropertyKey>(['destroy', Symbol.asyncDispose, 'getStatus']),
    );
  }

  #onReady(data: Record<string, unknown>): void {
    const user = this.#users.upsert(data.user);
    this.#currentUserId = user?.id;
    if (user) this.#log.info(`ready as ${user.username} (${user.id})`);
    for (const feature of this.#features) feature.onReady?.(data);
  }

  #onDispatch(event: string, data: unknown): void {
    this.emit('dispatch', event, data);
    if (event === 'USER_UPDATE') {
      const user = this.#users.upsert(data);
      if (user) this.emit('userUpdated', user.id);
    }
    for (const feature of this.#features) feature.onDispatch?.(event, data);
  }

  /** Adds a feature fed by the session; returns it, for a field initialiser. */
  #feature<F extends SessionFeature>(feature: F): F {
    this.#features.push(feature);
    return feature;
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#log.error(`a ${event} listener threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function checkedTimeout(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0 || ms > 2 ** 31 - 1)
    throw new ValidationError('the HTTP timeout must be a positive number of ms');
  return ms;
}

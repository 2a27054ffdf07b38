import { AbortedError, ClientDestroyedError, ValidationError } from '@sdkpp/protocol';
import { requireMetadata } from '../chat/messageInput.js';
import { requireLobbyMetadata } from '../lobbies/limits.js';
import { Logger, LoggingSeverity, type LogCallback, type LogWriter } from '../logging/index.js';
import { RestClient, type RestRequest } from '../rest/RestClient.js';
import { requireSnowflake } from '../util/snowflake.js';
import type {
  BackendLobby,
  BackendLobbyMember,
  BackendLobbyMessage,
  BackendMemberChange,
  BackendMemberInput,
  CreateLobbyOptions,
  UpdateLobbyOptions,
} from './types.js';
import {
  entitlementFromWire,
  listFromWire,
  skuFromWire,
  subscriptionFromWire,
  type BackendEntitlement,
  type BackendSku,
  type BackendSubscription,
  type ListEntitlementsOptions,
} from './premium.js';
import { lobbyFromWire, lobbyMessageFromWire, memberFromWire, memberToWire } from './wire.js';
import { checkInput } from '../util/checkInput.js';
import { parseTokenResponse, type WireTokenResponse } from '../auth/tokenResponse.js';
import type { ChildTokenResult, TokenExchangeResult } from '../auth/tokenTypes.js';
import { childTokenRequest, childTokenResult } from '../auth/childToken.js';
import { deauthorizedFrom } from '../auth/deauthorized.js';
import {
  codeGrantForm,
  refreshGrantForm,
  type ClientCredentials,
  type CodeExchangeOptions,
  type TokenRefreshOptions,
} from './tokenGrants.js';

/** At most this many member changes per bulk request, and members per create or update. */
export const MAX_BULK_MEMBER_CHANGES = 25;
/** An additional name is 1–80 characters. */
export const MAX_ADDITIONAL_NAME_LENGTH = 80;
/** Moderation metadata: at most 5 keys and 2000 characters in all. */
const MODERATION_LIMITS = { keys: 5, chars: 2000 };
const IDLE_TIMEOUT_RANGE = { min: 5, max: 604_800 };

/** Options of a {@link GameBackend}. */
export interface GameBackendOptions {
  /**
   * The application's bot token (keep it on the server; it never reaches a log). Every call but the token
   * exchange and refresh needs it; a backend given only {@link GameBackendOptions.clientSecret} can do those two.
   */
  botToken?: string;
  /**
   * The application's client secret (keep it on the server; it never reaches a log), for
   * {@link GameBackend.exchangeCode} and {@link GameBackend.refreshToken}, which also need
   * {@link GameBackendOptions.applicationId}.
   */
  clientSecret?: string;
  /** The HTTP API base. @defaultValue `'https://discord.com/api/v10'` */
  apiBase?: string;
  /**
   * The application's id: the premium calls (SKUs, entitlements) name it in their routes, and the token
   * exchange and refresh send it as the OAuth2 client id.
   */
  applicationId?: string;
  /** HTTP request timeout in ms. @defaultValue 30000 */
  httpRequestTimeoutMs?: number;
  /**
   * The longest single wait for a rate limit before a call fails with a retryable `HttpError` carrying
   * `retryAfter`. @defaultValue 60000
   */
  maxRateLimitWaitMs?: number;
  /** Receives log lines at {@link GameBackendOptions.logSeverity} and above. */
  logCallback?: LogCallback;
  /** @defaultValue `LoggingSeverity.Warning` */
  logSeverity?: LoggingSeverity;
}

function requireIdleTimeout(seconds: number | undefined): void {
  if (seconds === undefined) return;
  if (!Number.isInteger(seconds) || seconds < IDLE_TIMEOUT_RANGE.min || seconds > IDLE_TIMEOUT_RANGE.max) {
    throw new ValidationError(
      `idleTimeoutSeconds must be an integer ${IDLE_TIMEOUT_RANGE.min}–${IDLE_TIMEOUT_RANGE.max}`,
    );
  }
}

function requireMember(input: BackendMemberInput): void {
  requireSnowflake(input.id, 'user');
  if (input.metadata !== undefined) requireLobbyMetadata(input.metadata, 'member metadata');
  const name = input.additionalName;
  if (
    name !== undefined &&
    name !== null &&
    (typeof name !== 'string' || name.length < 1 || name.length > MAX_ADDITIONAL_NAME_LENGTH)
  ) {
    throw new ValidationError(
      `an additional name must be 1–${MAX_ADDITIONAL_NAME_LENGTH} characters (null clears it)`,
    );
  }
}

function requireMembers(members: BackendMemberInput[] | undefined, what: string): void {
  if (members === undefined) return;
  if (!Array.isArray(members) || members.length > MAX_BULK_MEMBER_CHANGES) {
    throw new ValidationError(`${what} takes at most ${MAX_BULK_MEMBER_CHANGES} members`);
  }
  for (const member of members) requireMember(member);
}

function requireModerationMetadata(metadata: Record<string, string>): void {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    throw new ValidationError('moderation metadata must be an object of strings');
  const entries = Object.entries(metadata);
  if (entries.length > MODERATION_LIMITS.keys)
    throw new ValidationError(`moderation metadata may have at most ${MODERATION_LIMITS.keys} keys`);
  let chars = 0;
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw new ValidationError(`moderation metadata "${key}" must be a string`);
    chars += key.length + value.length;
  }
  if (chars > MODERATION_LIMITS.chars)
    throw new ValidationError(`moderation metadata may total at most ${MODERATION_LIMITS.chars} characters`);
}

function requireExternalUserId(id: string): void {
  if (typeof id !== 'string' || id.length < 1 || id.length > 1024) {
    throw new ValidationError('externalUserId must be 1 to 1024 characters');
  }
}

function requirePreferredName(name: string): void {
  if (typeof name !== 'string' || name.trim().length < 1 || name.length > 32) {
    throw new ValidationError('preferredGlobalName must be 1 to 32 characters');
  }
}

function requireCredential(value: string | undefined, what: string): void {
  if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
    throw new ValidationError(`GameBackendOptions.${what}, when given, must not be empty`);
  }
}

/**
 * The game backend's side of the platform, authenticated with the application's bot token: provisional
 * accounts for the game's own players, the token exchange and refresh of a confidential client (with the
 * client secret), server-managed
 * lobbies and their members (metadata, the CanLinkLobby flag, additional display names), lobby history,
 * moderation metadata on lobby and direct messages, channel links and lobby channel invites. Rate limits are
 * waited out and retried as in the client. Runs on a server, never in a game build (the token is a secret).
 *
 * @example
 * ```ts
 * const backend = new GameBackend({ botToken: process.env.BOT_TOKEN! });
 * await backend.updateLobbyMember(lobbyId, playerId, { additionalName: 'Sir Lancelot' });
 * ```
 */
export class GameBackend {
  readonly #rest: RestClient;
  readonly #token: string | undefined;
  readonly #clientSecret: string | undefined;
  readonly #log: LogWriter;
  /** Aborted by close(): every request carries its signal. */
  readonly #closed = new AbortController();
  readonly #applicationId: string | undefined;

  constructor(options: GameBackendOptions) {
    requireCredential(options.botToken, 'botToken');
    requireCredential(options.clientSecret, 'clientSecret');
    if (options.botToken === undefined && options.clientSecret === undefined) {
      throw new ValidationError(
        'GameBackend needs the application bot token (or, for tokens only, the client secret)',
      );
    }
    this.#token = options.botToken;
    this.#clientSecret = options.clientSecret;
    this.#applicationId = options.applicationId;
    const logger = new Logger({
      debug: (options.logSeverity ?? LoggingSeverity.Warning) < LoggingSeverity.Warning,
    });
    if (options.logCallback)
      logger.addCallback(options.logCallback, options.logSeverity ?? LoggingSeverity.Warning);
    this.#log = logger.writer('backend');
    this.#log.secret(this.#token);
    this.#log.secret(this.#clientSecret);
    const timeoutMs = options.httpRequestTimeoutMs ?? 30_000;
    this.#rest = new RestClient({
      apiBase: options.apiBase ?? 'https://discord.com/api/v10',
      timeoutMs: () => timeoutMs,
      log: logger.writer('http'),
      ...(options.maxRateLimitWaitMs === undefined
        ? {}
        : { rateLimits: { maxWaitMs: options.maxRateLimitWaitMs } }),
    });
  }

  /**
   * Finds or creates the provisional account of one of the game's own accounts and resolves with a token for
   * it, which the game hands to its client (`client.updateToken(AuthorizationTokenType.Bearer, accessToken)`).
   * The same `externalUserId` always gives the same account; once merged into a full account, the platform
   * refuses (the player then signs in with OAuth2). The tokens are registered as log secrets.
   *
   * @param externalUserId - The game's own, stable id for the player (1–1024 characters).
   * @param preferredGlobalName - The display name for a new account (1–32 characters).
   */
  async getProvisionalToken(
    externalUserId: string,
    preferredGlobalName?: string,
  ): Promise<TokenExchangeResult> {
    checkInput(this.#log, 'getProvisionalToken', () => {
      requireExternalUserId(externalUserId);
      if (preferredGlobalName !== undefined) requirePreferredName(preferredGlobalName);
    });
    const reply = await this.#call({
      method: 'POST',
      route: '/partner-sdk/token/bot',
      json: {
        external_user_id: externalUserId,
        ...(preferredGlobalName === undefined ? {} : { preferred_global_name: preferredGlobalName }),
      },
    });
    return parseTokenResponse(reply as WireTokenResponse | undefined, this.#log);
  }

  /**
   * Exchanges an authorization code for the player's tokens, as a confidential client: with the client
   * secret, which stays on the server. The server makes the sign-in's PKCE pair
   * (`createAuthorizationCodeVerifier()`), keeps the verifier and sends the game the challenge; the game runs
   * `authorize({ codeChallenge })` and sends back only the code and the redirect URI. The server keeps the
   * refresh token and hands the game the access token for `updateToken`. A code works once: the platform
   * refuses it a second time and revokes the tokens it gave. Needs {@link GameBackendOptions.applicationId}
   * and {@link GameBackendOptions.clientSecret}. The code, the verifier and the tokens are registered as log
   * secrets.
   *
   * @throws ValidationError before any request, for an empty code or a malformed verifier.
   * @throws HttpError 400 `invalid_grant` for a wrong, used or expired code, or a wrong redirect URI or
   *   verifier; 401 `invalid_client` for a wrong client secret.
   */
  async exchangeCode(options: CodeExchangeOptions): Promise<TokenExchangeResult> {
    this.#log.secret(options.code);
    this.#log.secret(options.codeVerifier);
    const credentials = this.#credentials('exchangeCode');
    let form: Record<string, string | undefined> = {};
    checkInput(this.#log, 'exchangeCode', () => {
      form = codeGrantForm(credentials, options);
    });
    return this.#tokenRequest(form);
  }

  /**
   * Trades a refresh token for a new pair, with the client secret; both old tokens stop working at once, so
   * store the new pair first. Needs {@link GameBackendOptions.applicationId} and
   * {@link GameBackendOptions.clientSecret}. The tokens are registered as log secrets.
   *
   * @throws DeauthorizedError (an `HttpError`) when the platform answers `invalid_grant`: the player revoked
   *   the link, was unmerged or banned (the platform says to treat it as APPLICATION_DEAUTHORIZED).
   */
  async refreshToken(options: TokenRefreshOptions): Promise<TokenExchangeResult> {
    this.#log.secret(options.refreshToken);
    const credentials = this.#credentials('refreshToken');
    let form: Record<string, string | undefined> = {};
    checkInput(this.#log, 'refreshToken', () => {
      form = refreshGrantForm(credentials, options);
    });
    try {
      return await this.#tokenRequest(form);
    } catch (error) {
      throw deauthorizedFrom(error);
    }
  }

  /**
   * Publisher-level linking for a confidential client, server to server: exchanges the parent (publisher)
   * application's access token for a token of one of its child applications, authenticated with the parent's
   * client credentials ({@link GameBackendOptions.applicationId} is the parent and
   * {@link GameBackendOptions.clientSecret} its secret). Hand the child token to the child game for
   * `updateToken`; it has no refresh token, expires no later than the parent token, and its scopes are the
   * parent token's narrowed to what the child accepts. The tokens are registered as log secrets.
   *
   * @param parentApplicationToken - The player's access token of the parent application.
   * @param childApplicationId - The child application's id.
   * @throws ValidationError before any request, for an empty token or a malformed id.
   * @throws HttpError 403 (50001) for an application outside the publisher, 401 (50025) for a revoked or
   *   expired parent token, 400 (530007) for a wrong client secret.
   */
  async exchangeChildToken(
    parentApplicationToken: string,
    childApplicationId: string,
  ): Promise<ChildTokenResult> {
    this.#log.secret(parentApplicationToken);
    const client = this.#credentials('exchangeChildToken');
    let json: Record<string, string> = {};
    checkInput(this.#log, 'exchangeChildToken', () => {
      json = childTokenRequest({ parentApplicationToken, childApplicationId, client }).json;
    });
    if (this.#closed.signal.aborted) throw new ClientDestroyedError('the game backend was closed');
    const response = await this.#rest.request<WireTokenResponse>({
      method: 'POST',
      route: '/partner-sdk/child-token',
      json,
      signal: this.#closed.signal,
    });
    return childTokenResult(parseTokenResponse(response.body, this.#log));
  }

  /**
   * Moves the game's account `externalUserId` off the full account it was merged into, into a new provisional
   * account (friends and history made on the full account stay there).
   */
  async unmergeProvisionalAccount(externalUserId: string): Promise<void> {
    checkInput(this.#log, 'unmergeProvisionalAccount', () => {
      requireExternalUserId(externalUserId);
    });
    await this.#call({
      method: 'POST',
      route: '/partner-sdk/provisional-accounts/unmerge/bot',
      json: { external_user_id: externalUserId },
    });
  }

  /** Creates a server-managed lobby (players can't leave it; the backend manages its members). */
  async createLobby(options: CreateLobbyOptions = {}): Promise<BackendLobby> {
    checkInput(this.#log, 'createLobby', () => {
      if (options.metadata !== undefined) requireLobbyMetadata(options.metadata, 'lobby metadata');
      requireMembers(options.members, 'createLobby');
      requireIdleTimeout(options.idleTimeoutSeconds);
    });
    const body: Record<string, unknown> = {};
    if (options.metadata !== undefined) body.metadata = options.metadata;
    if (options.members !== undefined) body.members = options.members.map(memberToWire);
    if (options.idleTimeoutSeconds !== undefined) body.idle_timeout_seconds = options.idleTimeoutSeconds;
    if (options.flags !== undefined) body.flags = options.flags;
    return this.#lobby(await this.#call({ method: 'POST', route: '/lobbies', json: body }));
  }

  /** A lobby of the application. */
  async getLobby(lobbyId: string): Promise<BackendLobby> {
    checkInput(this.#log, 'getLobby', () => {
      requireSnowflake(lobbyId, 'lobby');
    });
    return this.#lobby(await this.#call({ method: 'GET', route: `/lobbies/${lobbyId}` }));
  }

  /** Changes a lobby; `members` replaces the whole member set. */
  async updateLobby(lobbyId: string, changes: UpdateLobbyOptions): Promise<BackendLobby> {
    checkInput(this.#log, 'updateLobby', () => {
      requireSnowflake(lobbyId, 'lobby');
      if (changes.metadata !== undefined) requireLobbyMetadata(changes.metadata, 'lobby metadata');
      requireMembers(changes.members, 'updateLobby');
      requireIdleTimeout(changes.idleTimeoutSeconds);
    });
    const body: Record<string, unknown> = {};
    if (changes.metadata !== undefined) body.metadata = changes.metadata;
    if (changes.members !== undefined) body.members = changes.members.map(memberToWire);
    if (changes.idleTimeoutSeconds !== undefined) body.idle_timeout_seconds = changes.idleTimeoutSeconds;
    if (changes.flags !== undefined) body.flags = changes.flags;
    return this.#lobby(await this.#call({ method: 'PATCH', route: `/lobbies/${lobbyId}`, json: body }));
  }

  /** Deletes a lobby (deleting one that is already gone succeeds). */
  async deleteLobby(lobbyId: string): Promise<void> {
    checkInput(this.#log, 'deleteLobby', () => {
      requireSnowflake(lobbyId, 'lobby');
    });
    await this.#call({ method: 'DELETE', route: `/lobbies/${lobbyId}` });
  }

  /** Adds a user to a lobby or updates their membership (metadata, flags, additional name). */
  async updateLobbyMember(
    lobbyId: string,
    userId: string,
    changes: Omit<BackendMemberInput, 'id'> = {},
  ): Promise<BackendLobbyMember> {
    const input: BackendMemberInput = { ...changes, id: userId };
    checkInput(this.#log, 'updateLobbyMember', () => {
      requireSnowflake(lobbyId, 'lobby');
      requireMember(input);
    });
    const { id: _id, ...body } = memberToWire(input);
    const reply = await this.#call({
      method: 'PUT',
      route: `/lobbies/${lobbyId}/members/${userId}`,
      json: body,
    });
    const member = memberFromWire(reply);
    if (!member) throw this.#malformed('updateLobbyMember', 'a lobby member');
    return member;
  }

  /** Removes a user from a lobby (removing a non-member succeeds). */
  async removeLobbyMember(lobbyId: string, userId: string): Promise<void> {
    checkInput(this.#log, 'removeLobbyMember', () => {
      requireSnowflake(lobbyId, 'lobby');
      requireSnowflake(userId, 'user');
    });
    await this.#call({ method: 'DELETE', route: `/lobbies/${lobbyId}/members/${userId}` });
  }

  /** Up to 25 member changes in one request; resolves with the members added or updated. */
  async updateLobbyMembers(lobbyId: string, changes: BackendMemberChange[]): Promise<BackendLobbyMember[]> {
    checkInput(this.#log, 'updateLobbyMembers', () => {
      requireSnowflake(lobbyId, 'lobby');
      if (!Array.isArray(changes) || changes.length === 0 || changes.length > MAX_BULK_MEMBER_CHANGES) {
        throw new ValidationError(`updateLobbyMembers takes 1–${MAX_BULK_MEMBER_CHANGES} changes`);
      }
      for (const change of changes) requireMember(change);
    });
    const reply = await this.#call({
      method: 'POST',
      route: `/lobbies/${lobbyId}/members/bulk`,
      json: changes.map(memberToWire),
    });
    return Array.isArray(reply) ? reply.flatMap((m) => memberFromWire(m) ?? []) : [];
  }

  /** Sends a message into a lobby as the application. */
  async sendLobbyMessage(
    lobbyId: string,
    content: string,
    metadata?: Record<string, string>,
  ): Promise<BackendLobbyMessage> {
    checkInput(this.#log, 'sendLobbyMessage', () => {
      requireSnowflake(lobbyId, 'lobby');
      if (typeof content !== 'string' || content.length < 1 || content.length > 2000)
        throw new ValidationError('message content must be 1–2000 characters');
      if (metadata !== undefined) requireMetadata(metadata);
    });
    const reply = await this.#call({
      method: 'POST',
      route: `/lobbies/${lobbyId}/messages`,
      json: metadata === undefined ? { content } : { content, metadata },
    });
    const message = lobbyMessageFromWire(reply);
    if (!message) throw this.#malformed('sendLobbyMessage', 'a message');
    return message;
  }

  /** The newest `limit` (1–200) messages of a lobby, newest first. */
  async getLobbyMessages(lobbyId: string, limit = 50): Promise<BackendLobbyMessage[]> {
    checkInput(this.#log, 'getLobbyMessages', () => {
      requireSnowflake(lobbyId, 'lobby');
      if (!Number.isInteger(limit) || limit < 1 || limit > 200)
        throw new ValidationError('limit must be 1–200');
    });
    const reply = await this.#call({
      method: 'GET',
      route: `/lobbies/${lobbyId}/messages`,
      query: { limit: String(limit) },
    });
    return Array.isArray(reply) ? reply.flatMap((m) => lobbyMessageFromWire(m) ?? []) : [];
  }

  /** Sets the moderation metadata of a lobby message (members see the update). */
  async setLobbyMessageModerationMetadata(
    lobbyId: string,
    messageId: string,
    metadata: Record<string, string>,
  ): Promise<void> {
    checkInput(this.#log, 'setLobbyMessageModerationMetadata', () => {
      requireSnowflake(lobbyId, 'lobby');
      requireSnowflake(messageId, 'message');
      requireModerationMetadata(metadata);
    });
    await this.#call({
      method: 'PUT',
      route: `/lobbies/${lobbyId}/messages/${messageId}/moderation-metadata`,
      json: metadata,
    });
  }

  /** Sets the moderation metadata of a direct message between two users (in either order). */
  async setDirectMessageModerationMetadata(
    userA: string,
    userB: string,
    messageId: string,
    metadata: Record<string, string>,
  ): Promise<void> {
    checkInput(this.#log, 'setDirectMessageModerationMetadata', () => {
      requireSnowflake(userA, 'user');
      requireSnowflake(userB, 'user');
      requireSnowflake(messageId, 'message');
      requireModerationMetadata(metadata);
    });
    await this.#call({
      method: 'PUT',
      route: `/partner-sdk/dms/${userA}/${userB}/messages/${messageId}/moderation-metadata`,
      json: metadata,
    });
  }

  /** Links a guild text channel to a lobby, or with null removes the link. */
  async linkChannel(lobbyId: string, channelId: string | null): Promise<BackendLobby> {
    checkInput(this.#log, 'linkChannel', () => {
      requireSnowflake(lobbyId, 'lobby');
      if (channelId !== null) requireSnowflake(channelId, 'channel');
    });
    return this.#lobby(
      await this.#call({
        method: 'PATCH',
        route: `/lobbies/${lobbyId}/channel-linking`,
        json: { channel_id: channelId },
      }),
    );
  }

  /** A single-use invite (valid one hour) for a lobby member to the linked channel's guild; resolves with its code. */
  async createLobbyChannelInvite(lobbyId: string, userId: string): Promise<string> {
    checkInput(this.#log, 'createLobbyChannelInvite', () => {
      requireSnowflake(lobbyId, 'lobby');
      requireSnowflake(userId, 'user');
    });
    const reply = await this.#call({
      method: 'POST',
      route: `/lobbies/${lobbyId}/members/${userId}/invites`,
    });
    const code = (reply as { code?: unknown } | undefined)?.code;
    if (typeof code !== 'string' || code === '')
      throw this.#malformed('createLobbyChannelInvite', 'an invite code');
    return code;
  }

  /** The application's SKUs. Needs {@link GameBackendOptions.applicationId}. */
  async listSkus(): Promise<BackendSku[]> {
    const app = this.#app('listSkus');
    return listFromWire(
      await this.#call({ method: 'GET', route: `/applications/${app}/skus` }),
      skuFromWire,
      'SKU',
    );
  }

  /**
   * The application's entitlements, newest last: a player's with `userId`, of some SKUs with `skuIds`, and only
   * live ones with `excludeEnded`. What a server checks before it grants a perk.
   */
  async listEntitlements(options: ListEntitlementsOptions = {}): Promise<BackendEntitlement[]> {
    const app = this.#app('listEntitlements');
    checkInput(this.#log, 'listEntitlements', () => {
      if (options.userId !== undefined) requireSnowflake(options.userId, 'user');
      for (const id of options.skuIds ?? []) requireSnowflake(id, 'SKU');
      const limit = options.limit;
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) {
        throw new ValidationError('limit must be an integer 1–100');
      }
    });
    const query: Record<string, string> = {};
    if (options.userId !== undefined) query.user_id = options.userId;
    if (options.skuIds !== undefined) query.sku_ids = options.skuIds.join(',');
    if (options.excludeEnded === true) query.exclude_ended = 'true';
    if (options.limit !== undefined) query.limit = String(options.limit);
    const reply = await this.#call({ method: 'GET', route: `/applications/${app}/entitlements`, query });
    return listFromWire(reply, entitlementFromWire, 'entitlement');
  }

  /** Marks a consumable's entitlement used (the player spent it); durables and subscriptions are refused. */
  async consumeEntitlement(entitlementId: string): Promise<void> {
    const app = this.#app('consumeEntitlement');
    checkInput(this.#log, 'consumeEntitlement', () => {
      requireSnowflake(entitlementId, 'entitlement');
    });
    await this.#call({ method: 'POST', route: `/applications/${app}/entitlements/${entitlementId}/consume` });
  }

  /** A test entitlement of a SKU for a player (for testing perks without buying). */
  async createTestEntitlement(skuId: string, userId: string): Promise<BackendEntitlement> {
    const app = this.#app('createTestEntitlement');
    checkInput(this.#log, 'createTestEntitlement', () => {
      requireSnowflake(skuId, 'SKU');
      requireSnowflake(userId, 'user');
    });
    const reply = await this.#call({
      method: 'POST',
      route: `/applications/${app}/entitlements`,
      json: { sku_id: skuId, owner_id: userId, owner_type: 2 },
    });
    return entitlementFromWire(reply);
  }

  /** Deletes a test entitlement. */
  async deleteTestEntitlement(entitlementId: string): Promise<void> {
    const app = this.#app('deleteTestEntitlement');
    checkInput(this.#log, 'deleteTestEntitlement', () => {
      requireSnowflake(entitlementId, 'entitlement');
    });
    await this.#call({ method: 'DELETE', route: `/applications/${app}/entitlements/${entitlementId}` });
  }

  /** A player's subscriptions to a subscription SKU, with their status and period. */
  async listSubscriptions(skuId: string, userId: string): Promise<BackendSubscription[]> {
    checkInput(this.#log, 'listSubscriptions', () => {
      requireSnowflake(skuId, 'SKU');
      requireSnowflake(userId, 'user');
    });
    const reply = await this.#call({
      method: 'GET',
      route: `/skus/${skuId}/subscriptions`,
      query: { user_id: userId },
    });
    return listFromWire(reply, subscriptionFromWire, 'subscription');
  }

  /**
   * Ends the backend: requests under way (waiting on a rate limit included) reject with `AbortedError`, and
   * every later call with `ClientDestroyedError`. `await using backend = new GameBackend(…)` calls it when
   * the scope ends.
   */
  close(): Promise<void> {
    if (!this.#closed.signal.aborted) {
      this.#closed.abort(new AbortedError('the game backend was closed during the request'));
      this.#log.info('game backend closed');
    }
    return Promise.resolve();
  }

  /** The same as {@link GameBackend.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #call(request: Omit<RestRequest, 'auth'>): Promise<unknown> {
    if (this.#closed.signal.aborted) throw new ClientDestroyedError('the game backend was closed');
    const token = this.#token;
    if (token === undefined) {
      throw new ValidationError(`${request.method} ${request.route} needs GameBackendOptions.botToken`);
    }
    const response = await this.#rest.request<unknown>({
      ...request,
      signal: this.#closed.signal,
      auth: { kind: 'bot', token },
    });
    return response.body;
  }

  /** POST /oauth2/token with a grant's form: no Authorization header, the credentials are in the form. */
  async #tokenRequest(form: Record<string, string | undefined>): Promise<TokenExchangeResult> {
    if (this.#closed.signal.aborted) throw new ClientDestroyedError('the game backend was closed');
    const response = await this.#rest.request<WireTokenResponse>({
      method: 'POST',
      route: '/oauth2/token',
      form,
      signal: this.#closed.signal,
    });
    return parseTokenResponse(response.body, this.#log);
  }

  /** The client id and secret, or a ValidationError naming the missing option. */
  #credentials(operation: string): ClientCredentials {
    const clientId = this.#applicationId;
    const clientSecret = this.#clientSecret;
    if (clientSecret === undefined)
      throw new ValidationError(`${operation} needs GameBackendOptions.clientSecret`);
    if (clientId === undefined)
      throw new ValidationError(`${operation} needs GameBackendOptions.applicationId`);
    return { clientId, clientSecret };
  }

  #lobby(reply: unknown): BackendLobby {
    const lobby = lobbyFromWire(reply);
    if (!lobby) throw this.#malformed('lobby call', 'a lobby');
    return lobby;
  }

  #app(operation: string): string {
    const app = this.#applicationId;
    if (app === undefined) throw new ValidationError(`${operation} needs GameBackendOptions.applicationId`);
    return app;
  }

  #malformed(operation: string, what: string): ValidationError {
    this.#log.warn(`${operation}: the platform replied without ${what}`);
    return new ValidationError(`the platform returned no ${what}`);
  }
}

import {
  AuthorizationTokenType,
  Client as CoreClient,
  getDefaultCommunicationScopes,
  getDefaultPresenceScopes,
  UserHandle as CoreUserHandle,
  ValidationError,
  type ActivityInvite as CoreActivityInvite,
  type AudioDevice as CoreAudioDevice,
  type AuthenticationExternalAuthType,
  type Call as CoreCall,
  type ClientEvents,
  type ClientOptions,
  type ExternalAuth,
  type LoggingSeverity,
  type MessageHandle as CoreMessageHandle,
  type RelationshipGroupType,
  type RpcUser,
  type StatusType,
  type TokenExchangeResult,
} from '../src/index.js';
// Not public: the store behind a handle over a user the client does not hold (the desktop client's, over RPC).
import { UserStore } from '../src/social/UserStore.js';
import {
  ClientError,
  ClientStatus,
  clientErrorName,
  clientErrorOf,
  clientStatusName,
  clientStatusOf,
} from './statusEnums.js';
import {
  AuthorizationArgs,
  AuthorizationCodeChallenge,
  AuthorizationCodeVerifier,
} from './AuthorizationArgs.js';
import { enqueueCallback } from './callbacks.js';
import type { DeviceAuthorizationArgs } from './DeviceAuthorizationArgs.js';
import { isVoiceLogLine, logFileWriter } from './logFiles.js';
import { ClientResult } from './ClientResult.js';
import { idToBigInt, idToString, type Uint64Like } from './ids.js';
import { RelationshipHandle, UserHandle, type UserApplicationProfileHandle } from './UserHandle.js';
import { Activity } from './Activity.js';
import { ActivityInvite } from './ActivityInvite.js';
import { ChannelHandle } from './ChannelHandle.js';
import { MessageHandle, UserMessageSummary, type MessageLookups } from './MessageHandle.js';
import { GuildChannel, GuildMinimal } from './Guild.js';
import { LobbyHandle } from './LobbyHandle.js';
import { AudioDevice, Call } from './Call.js';

/** Options for `new Client(options)`, as the C++ SDK's `ClientCreateOptions`. */
export class ClientCreateOptions {
  #apiBase = 'https://discord.com/api/v10';
  #webBase = 'https://discord.com';
  /** The API base URL. */
  ApiBase(): string {
    return this.#apiBase;
  }
  /** Sets the API base URL (for the emulator: its `api` field). */
  SetApiBase(value: string): void {
    this.#apiBase = value;
  }
  /** The web base URL that serves the authorize page. */
  WebBase(): string {
    return this.#webBase;
  }
  /** Sets the web base URL (for the emulator: its `http` field). */
  SetWebBase(value: string): void {
    this.#webBase = value;
  }
}

/** A `bool&` out-parameter: set `value` to true. */
export interface OutBool {
  /** False on entry; set it to true to leave that user's audio out of the SDK's playout. */
  value: boolean;
}
/**
 * `UserAudioReceivedCallback(userId, data, samplesPerChannel, sampleRate, channels, outShouldMute)`: called on
 * the audio pump (not through `RunCallbacks`), as the C++ SDK calls it on its audio thread. Change `data` in
 * place, or set `outShouldMute.value = true` to leave that user out of the SDK's playout.
 */
export type UserAudioReceivedCallback = (
  userId: bigint,
  data: Int16Array,
  samplesPerChannel: number,
  sampleRate: number,
  channels: number,
  outShouldMute: OutBool,
) => void;
/** `UserAudioCapturedCallback(data, samplesPerChannel, sampleRate, channels)`, on the audio pump. */
export type UserAudioCapturedCallback = (
  data: Int16Array,
  samplesPerChannel: number,
  sampleRate: number,
  channels: number,
) => void;
/** `EndCallCallback()` and `EndCallsCallback()`. */
export type EndCallCallback = () => void;
/** `VoiceParticipantChangedCallback(lobbyId, memberId, added)`. */
export type VoiceParticipantChangedCallback = (lobbyId: bigint, memberId: bigint, added: boolean) => void;
/** `GetInputDevicesCallback(devices)` and `GetOutputDevicesCallback(devices)`. */
export type AudioDevicesCallback = (devices: AudioDevice[]) => void;
/** `DeviceChangeCallback(inputDevices, outputDevices)`. */
export type DeviceChangeCallback = (inputDevices: AudioDevice[], outputDevices: AudioDevice[]) => void;
/** `GetCurrentInputDeviceCallback(device)` and `GetCurrentOutputDeviceCallback(device)`. */
export type AudioDeviceCallback = (device: AudioDevice) => void;

/** `AuthorizationCallback(result, code, redirectUri)`. */
export type AuthorizationCallback = (result: ClientResult, code: string, redirectUri: string) => void;
/** `TokenExchangeCallback(result, accessToken, refreshToken, tokenType, expiresIn, scopes)`. */
export type TokenExchangeCallback = (
  result: ClientResult,
  accessToken: string,
  refreshToken: string,
  tokenType: AuthorizationTokenType,
  expiresIn: number,
  scopes: string,
) => void;
/** `ExchangeChildTokenCallback(result, accessToken, tokenType, expiresIn, scopes)`. */
export type ExchangeChildTokenCallback = (
  result: ClientResult,
  accessToken: string,
  tokenType: AuthorizationTokenType,
  expiresIn: number,
  scopes: string,
) => void;
/** A callback that receives only a result. */
export type ResultCallback = (result: ClientResult) => void;
/** `OnStatusChanged(status, error, errorDetail)`. */
export type OnStatusChanged = (status: ClientStatus, error: ClientError, errorDetail: number) => void;
/** `LogCallback(message, severity)`. */
export type LogCallback = (message: string, severity: LoggingSeverity) => void;
/** `RelationshipCreatedCallback(userId, isDiscordRelationshipUpdate)` (also for deletions). */
export type RelationshipCallback = (userId: bigint, isDiscordRelationshipUpdate: boolean) => void;
/** A callback with one user id (`UserUpdatedCallback`, `RelationshipGroupsUpdatedCallback`). */
export type UserIdCallback = (userId: bigint) => void;
/** `ActivityInviteCallback(invite)`. */
export type ActivityInviteCallback = (invite: ActivityInvite) => void;
/** `AcceptActivityInviteCallback(result, joinSecret)`. */
export type AcceptActivityInviteCallback = (result: ClientResult, joinSecret: string) => void;
/**
 * `GetDiscordClientConnectedUserCallback(result, user)`: the user signed in to the running desktop client, or
 * undefined when none runs.
 */
export type GetDiscordClientConnectedUserCallback = (
  result: ClientResult,
  user: UserHandle | undefined,
) => void;
/** `FetchCurrentUserCallback(result, id, name)`. */
export type FetchCurrentUserCallback = (result: ClientResult, id: bigint, name: string) => void;
/** `SendUserMessageCallback(result, messageId)`; the id is 0 on failure. */
export type SendUserMessageCallback = (result: ClientResult, messageId: bigint) => void;
/** `UserMessagesWithLimitCallback(result, messages)`, oldest first. */
export type UserMessagesWithLimitCallback = (result: ClientResult, messages: MessageHandle[]) => void;
/** `UserMessageSummariesCallback(result, summaries)`. */
export type UserMessageSummariesCallback = (result: ClientResult, summaries: UserMessageSummary[]) => void;
/** `MessageCreatedCallback(messageId)` and `MessageUpdatedCallback(messageId)`. */
export type MessageIdCallback = (messageId: bigint) => void;
/** `Client::NoAudioInputCallback`: whether the microphone's level is at or above the threshold again. */
export type NoAudioInputCallback = (inputDetected: boolean) => void;
/** `MessageDeletedCallback(messageId, channelId)`. */
export type MessageDeletedCallback = (messageId: bigint, channelId: bigint) => void;
/** `CreateOrJoinLobbyCallback(result, lobbyId)`; the id is 0 on failure. */
export type CreateOrJoinLobbyCallback = (result: ClientResult, lobbyId: bigint) => void;
/** `LobbyCreatedCallback`, `LobbyUpdatedCallback` and `LobbyDeletedCallback(lobbyId)`. */
export type LobbyIdCallback = (lobbyId: bigint) => void;
/** `LobbyMemberAddedCallback`, `…UpdatedCallback` and `…RemovedCallback(lobbyId, memberId)`. */
export type LobbyMemberCallback = (lobbyId: bigint, memberId: bigint) => void;
/** `GetLobbyMessagesCallback(result, messages)`, oldest first. */
export type GetLobbyMessagesCallback = (result: ClientResult, messages: MessageHandle[]) => void;
/** `GetUserGuildsCallback(result, guilds)`. */
export type GetUserGuildsCallback = (result: ClientResult, guilds: GuildMinimal[]) => void;
/** `GetGuildChannelsCallback(result, guildChannels)`, in the order the chat client shows them. */
export type GetGuildChannelsCallback = (result: ClientResult, guildChannels: GuildChannel[]) => void;
/** `JoinLinkedLobbyGuildCallback(result, inviteUrl)`. */
export type JoinLinkedLobbyGuildCallback = (result: ClientResult, inviteUrl: string) => void;
/** `ProvisionalUserMergeRequiredCallback()`: merge the account, then call `ProvisionalUserMergeCompleted`. */
export type ProvisionalUserMergeRequiredCallback = () => void;
/** `OpenMessageInDiscordCallback(result)`. */
export type OpenMessageInDiscordCallback = (result: ClientResult) => void;
/** `OpenConnectedGamesSettingsInDiscordCallback(result)`. */
export type OpenConnectedGamesSettingsInDiscordCallback = (result: ClientResult) => void;
/** `AuthorizeRequestCallback()`: the player started linking from the desktop client. */
export type AuthorizeRequestCallback = () => void;
/** `ActivityJoinCallback(joinSecret)`. */
export type ActivityJoinCallback = (joinSecret: string) => void;
/** `ActivityJoinWithApplicationCallback(applicationId, joinSecret)`. */
export type ActivityJoinWithApplicationCallback = (applicationId: bigint, joinSecret: string) => void;

const VERSION = { major: 0, minor: 1, patch: 0, hash: 'sdkpp' };

/**
 * The SDK-shaped client for engine plugins: the C++ SDK's names, callbacks with {@link ClientResult}, delivered
 * through `RunCallbacks()`. It is a thin layer over the idiomatic `Client` of `sdkpp`.
 */
export class Client {
  readonly #core: CoreClient;
  #statusCallback: OnStatusChanged | undefined;
  /** Removes the log-file callback of the last `SetLogDir`. */
  #stopLogFile: (() => void) | undefined;
  #tokenExpirationCallback: (() => void) | undefined;
  #deviceChangeCallback: DeviceChangeCallback | undefined;
  /** The listener each `Set…Callback` registered, by client event. */
  readonly #callbacks = new Map<keyof ClientEvents, (...args: never[]) => void>();

  /**
   * `new Client()`, `new Client(apiBase, webBase)`, `new Client(ClientCreateOptions)`, or — beyond the C++ SDK —
   * `new Client(options)` with the idiomatic client's options (opener, timeouts, test seams).
   */
  constructor(apiBaseOrOptions?: string | ClientCreateOptions | ClientOptions, webBase?: string) {
    let options: ClientOptions;
    if (typeof apiBaseOrOptions === 'string')
      options = { apiBase: apiBaseOrOptions, ...(webBase ? { webBase } : {}) };
    else if (apiBaseOrOptions instanceof ClientCreateOptions)
      options = { apiBase: apiBaseOrOptions.ApiBase(), webBase: apiBaseOrOptions.WebBase() };
    else options = apiBaseOrOptions ?? {};
    this.#core = new CoreClient(options);
    this.#core.on('statusChanged', (status, error, detail) => {
      const callback = this.#statusCallback;
      if (callback)
        enqueueCallback(() => {
          callback(clientStatusOf(status), clientErrorOf(error), detail);
        });
    });
    this.#core.on('tokenExpiring', () => {
      const callback = this.#tokenExpirationCallback;
      if (callback) enqueueCallback(callback);
    });
    this.#core.on('devicesChanged', (inputs, outputs) => {
      const callback = this.#deviceChangeCallback;
      if (callback)
        deliver(
          callback,
          inputs.map((d) => new AudioDevice(d)),
          outputs.map((d) => new AudioDevice(d)),
        );
    });
  }

  /** The C++ `Client::Status` enum. */
  static readonly Status = ClientStatus;
  /** The C++ `Client::Error` enum. */
  static readonly Error = ClientError;

  /** The idiomatic client underneath, for code that mixes both APIs. */
  get core(): CoreClient {
    return this.#core;
  }

  /** `openid sdk.social_layer`. */
  static GetDefaultCommunicationScopes(): string {
    return getDefaultCommunicationScopes();
  }
  /** `openid sdk.social_layer_presence`. */
  static GetDefaultPresenceScopes(): string {
    return getDefaultPresenceScopes();
  }
  /** The name of a status, e.g. `"Ready"`. */
  static StatusToString(status: ClientStatus): string {
    return clientStatusName(status);
  }
  /** The name of a connection error. */
  static ErrorToString(error: ClientError): string {
    return clientErrorName(error);
  }
  /** The SDK's major version. */
  static GetVersionMajor(): number {
    return VERSION.major;
  }
  /** The SDK's minor version. */
  static GetVersionMinor(): number {
    return VERSION.minor;
  }
  /** The SDK's patch version. */
  static GetVersionPatch(): number {
    return VERSION.patch;
  }
  /** The build identifier. */
  static GetVersionHash(): string {
    return VERSION.hash;
  }

  /** Sets the default application id. */
  SetApplicationId(applicationId: Uint64Like): void {
    this.#core.setApplicationId(idToString(applicationId));
  }
  /** The default application id, or 0. */
  GetApplicationId(): bigint {
    return idToBigInt(this.#core.getApplicationId());
  }
  /** Sets the HTTP request timeout in ms. */
  SetHttpRequestTimeout(timeoutMs: number): void {
    this.#core.setHttpRequestTimeout(timeoutMs);
  }
  /** Adds a log callback (called directly, not through `RunCallbacks`, so no line is held back). */
  AddLogCallback(callback: LogCallback, minSeverity: LoggingSeverity): void {
    this.#core.addLogCallback(callback, minSeverity);
  }
  /**
   * Adds a callback for the voice subsystem's lines only (calls, the voice connection, the media engine).
   * Called directly, like `AddLogCallback`, which gets these lines too.
   */
  AddVoiceLogCallback(callback: LogCallback, minSeverity: LoggingSeverity): void {
    this.#core.addLogCallback((message, severity) => {
      if (isVoiceLogLine(message)) callback(message, severity);
    }, minSeverity);
  }
  /**
   * Writes the SDK's log lines at `minSeverity` and above (redacted, as every callback gets them) to
   * `sdkpp.log` in `path`, created when missing; replaces the previous directory. An empty path stops
   * writing. False when the directory cannot be created.
   */
  SetLogDir(path: string, minSeverity: LoggingSeverity): boolean {
    this.#stopLogFile?.();
    this.#stopLogFile = undefined;
    if (path === '') return true;
    const write = logFileWriter(path);
    if (!write) return false;
    this.#stopLogFile = this.#core.addLogCallback(write, minSeverity);
    return true;
  }
  /** Sets the callback for status changes. */
  SetStatusChangedCallback(callback: OnStatusChanged): void {
    this.#statusCallback = callback;
  }
  /** Sets the callback invoked once per token when it is about to expire. */
  SetTokenExpirationCallback(callback: () => void): void {
    this.#tokenExpirationCallback = callback;
  }

  /** Creates a PKCE challenge and verifier. */
  CreateAuthorizationCodeVerifier(): AuthorizationCodeVerifier {
    const pair = this.#core.createAuthorizationCodeVerifier();
    const challenge = new AuthorizationCodeChallenge();
    challenge.SetMethod(pair.challenge.method);
    challenge.SetChallenge(pair.challenge.challenge);
    const verifier = new AuthorizationCodeVerifier();
    verifier.SetChallenge(challenge);
    verifier.SetVerifier(pair.verifier);
    return verifier;
  }

  /** Starts the OAuth2 flow; the callback gets the code and the redirect URI for `GetToken`. */
  Authorize(args: AuthorizationArgs, callback: AuthorizationCallback): void {
    if (!args.IsValid()) {
      deliver(callback, ClientResult.fromError(new TypeError('AuthorizationArgs is nullobj')), '', '');
      return;
    }
    reply(
      () => this.#core.authorize(args.toCore()),
      callback,
      ({ code, redirectUri }) => [code, redirectUri],
      '',
      '',
    );
  }
  /** Aborts the authorization in progress. */
  AbortAuthorize(): void {
    this.#core.abortAuthorize();
  }
  /** Exchanges an authorization code for tokens. */
  GetToken(
    applicationId: Uint64Like,
    code: string,
    codeVerifier: string,
    redirectUri: string,
    callback: TokenExchangeCallback,
  ): void {
    this.#tokens(
      () =>
        this.#core.getToken({ applicationId: idToString(applicationId), code, codeVerifier, redirectUri }),
      callback,
    );
  }
  /** Exchanges a code and merges the provisional account of the external identity into the linked account. */
  GetTokenFromProvisionalMerge(
    applicationId: Uint64Like,
    code: string,
    codeVerifier: string,
    redirectUri: string,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
    callback: TokenExchangeCallback,
  ): void {
    this.#tokens(
      () =>
        this.#core.getTokenFromProvisionalMerge({
          ...externalAuth(applicationId, externalAuthType, externalAuthToken),
          code,
          codeVerifier,
          redirectUri,
        }),
      callback,
    );
  }
  /**
   * Signs the player in on a device without a browser (the OAuth 2.0 device flow): the code shows on the
   * desktop client's device authorization screen, the player approves it on another device, and the callback
   * gets the tokens. The screen closes when the flow ends.
   */
  GetTokenFromDevice(args: DeviceAuthorizationArgs, callback: TokenExchangeCallback): void {
    if (!args.IsValid()) {
      deliverTokenFailure(callback, new TypeError('DeviceAuthorizationArgs is nullobj'));
      return;
    }
    this.#tokens(() => this.#core.getTokenFromDevice(args.toCore(), { showScreen: true }), callback);
  }
  /** `GetTokenFromDevice`, merging the provisional account of the external identity into the player's. */
  GetTokenFromDeviceProvisionalMerge(
    args: DeviceAuthorizationArgs,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
    callback: TokenExchangeCallback,
  ): void {
    if (!args.IsValid()) {
      deliverTokenFailure(callback, new TypeError('DeviceAuthorizationArgs is nullobj'));
      return;
    }
    this.#tokens(
      () =>
        this.#core.getTokenFromDeviceProvisionalMerge(
          args.toCore(),
          { externalAuthType, externalAuthToken },
          { showScreen: true },
        ),
      callback,
    );
  }
  /** Aborts `GetTokenFromDevice` in progress; its callback gets the abort. */
  AbortGetTokenFromDevice(): void {
    this.#core.abortGetTokenFromDevice();
  }
  /**
   * Shows `userCode` on the desktop client's device authorization screen, for a device flow the game runs
   * itself (its backend polls the token endpoint). A failure is logged.
   */
  OpenAuthorizeDeviceScreen(clientId: Uint64Like, userCode: string): void {
    unanswered(this.#core.openAuthorizeDeviceScreen(idToString(clientId), userCode));
  }
  /** Hides the desktop client's device authorization screen. */
  CloseAuthorizeDeviceScreen(): void {
    unanswered(this.#core.closeAuthorizeDeviceScreen());
  }
  /** Sets the callback invoked when the device authorization screen closes (closed, approved or denied). */
  SetAuthorizeDeviceScreenClosedCallback(callback: () => void): void {
    whenSubscribed(
      this.#core.setAuthorizeDeviceScreenClosedCallback(() => {
        deliver(callback);
      }),
    );
  }
  /** Refreshes tokens. */
  RefreshToken(applicationId: Uint64Like, refreshToken: string, callback: TokenExchangeCallback): void {
    this.#tokens(
      () => this.#core.refreshToken({ applicationId: idToString(applicationId), refreshToken }),
      callback,
    );
  }
  /** Finds or creates the provisional account of an external identity. */
  GetProvisionalToken(
    applicationId: Uint64Like,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
    callback: TokenExchangeCallback,
  ): void {
    this.#tokens(
      () => this.#core.getProvisionalToken(externalAuth(applicationId, externalAuthType, externalAuthToken)),
      callback,
    );
  }
  /**
   * Publisher-level linking: exchanges the parent (publisher) application's token for a token of the child
   * application `childApplicationId`, for the same user (public clients; a confidential client uses
   * `GameBackend.exchangeChildToken` on its server).
   */
  ExchangeChildToken(
    parentApplicationToken: string,
    childApplicationId: Uint64Like,
    callback: ExchangeChildTokenCallback,
  ): void {
    reply(
      () =>
        this.#core.exchangeChildToken({
          parentApplicationToken,
          childApplicationId: idToString(childApplicationId),
        }),
      callback,
      (t) => [t.accessToken, t.tokenType, t.expiresIn, t.scopes],
      '',
      AuthorizationTokenType.Bearer,
      0,
      '',
    );
  }
  /** Revokes every token of the application for that user. */
  RevokeToken(applicationId: Uint64Like, token: string, callback: ResultCallback): void {
    this.#result(() => this.#core.revokeToken({ applicationId: idToString(applicationId), token }), callback);
  }
  /** Unlinks the external identity into a new provisional account. */
  UnmergeIntoProvisionalAccount(
    applicationId: Uint64Like,
    externalAuthType: AuthenticationExternalAuthType,
    externalAuthToken: string,
    callback: ResultCallback,
  ): void {
    this.#result(
      () =>
        this.#core.unmergeIntoProvisionalAccount(
          externalAuth(applicationId, externalAuthType, externalAuthToken),
        ),
      callback,
    );
  }
  /** Sets the display name of the signed-in provisional account. */
  UpdateProvisionalAccountDisplayName(name: string, callback: ResultCallback): void {
    this.#result(() => this.#core.updateProvisionalAccountDisplayName(name), callback);
  }
  /** Sets the token to connect with; call `Connect()` from the callback. */
  UpdateToken(tokenType: AuthorizationTokenType, token: string, callback: ResultCallback): void {
    this.#result(() => this.#core.updateToken(tokenType, token), callback);
  }
  /** Looks up the user behind a token without connecting. */
  FetchCurrentUser(
    _tokenType: AuthorizationTokenType,
    token: string,
    callback: FetchCurrentUserCallback,
  ): void {
    reply(
      () => this.#core.fetchCurrentUser(token),
      callback,
      (user) => [BigInt(user.id), user.username],
      0n,
      '',
    );
  }
  /** True when a non-empty token is set. */
  IsAuthenticated(): boolean {
    return this.#core.isAuthenticated();
  }

  /** Connects; progress arrives through the status callback. */
  Connect(): void {
    this.#core.connect().catch(() => {
      // The failure is reported through the status callback, as in the C++ SDK.
    });
  }
  /** Disconnects. */
  Disconnect(): void {
    void this.#core.disconnect();
  }
  /** The connection status. */
  GetStatus(): ClientStatus {
    return clientStatusOf(this.#core.getStatus());
  }
  /** The current user, or undefined before Ready (the C++ `GetCurrentUserV2`). */
  GetCurrentUserV2(): UserHandle | undefined {
    const user = this.#core.getCurrentUser();
    return user ? new UserHandle(user) : undefined;
  }
  /**
   * The signed-in user's profiles from external identity providers (the 1.6 `GetUserApplicationProfiles`;
   * the 1.9 header has it as `UserHandle::UserApplicationProfiles()`); empty before Ready.
   */
  GetUserApplicationProfiles(): UserApplicationProfileHandle[] {
    return this.GetCurrentUserV2()?.UserApplicationProfiles() ?? [];
  }
  /**
   * The same as {@link Client.GetUserApplicationProfiles}: the C++ variant skips a lock, and JavaScript has
   * none to skip.
   */
  GetUserApplicationProfilesNoLock(): UserApplicationProfileHandle[] {
    return this.GetUserApplicationProfiles();
  }
  /** The current user, or `UserHandle.nullobj` before Ready. Prefer {@link Client.GetCurrentUserV2}. */
  GetCurrentUser(): UserHandle {
    return this.GetCurrentUserV2() ?? UserHandle.nullobj;
  }

  /** Looks up a user the client knows (friends, message authors, the current user). */
  GetUser(userId: Uint64Like): UserHandle | undefined {
    const user = this.#core.getUser(idToString(userId));
    return user ? new UserHandle(user) : undefined;
  }
  /**
   * The user signed in to the desktop client running on this machine (over RPC; needs no sign-in of the game).
   * `applicationId` is the game's, as the client's own (`SetApplicationId`); the callback gets undefined when no
   * desktop client runs.
   */
  GetDiscordClientConnectedUser(
    applicationId: Uint64Like,
    callback: GetDiscordClientConnectedUserCallback,
  ): void {
    reply(
      () => {
        const wanted = idToString(applicationId);
        const own = this.#core.getApplicationId();
        if (own === undefined) this.#core.setApplicationId(wanted);
        else if (own !== wanted)
          throw new ValidationError(`applicationId ${wanted} is not the client's application (${own})`);
        return this.#core.getDiscordClientConnectedUser();
      },
      callback,
      (user) => [user ? desktopClientUser(user) : undefined],
      undefined,
    );
  }
  /** Sets the callback invoked whenever a known user changes (name, status, activity). */
  SetUserUpdatedCallback(callback: UserIdCallback): void {
    this.#idCallback('userUpdated', callback);
  }

  // ── Rich presence and invites ──────────────────────────────────────────────────────────────────

  /** Sets the player's rich presence (through the gateway when Ready, else a running local client). */
  UpdateRichPresence(activity: Activity, callback: ResultCallback): void {
    this.#result(() => this.#core.updateRichPresence(activity.toCore()), callback);
  }
  /** Clears the player's rich presence. */
  ClearRichPresence(): void {
    this.#core.clearRichPresence().catch(() => {
      // As in the C++ SDK, clearing reports nothing.
    });
  }
  /** Sets Online, Idle, Dnd or Invisible. */
  SetOnlineStatus(status: StatusType, callback: ResultCallback): void {
    this.#result(() => this.#core.setOnlineStatus(status), callback);
  }
  /** Invites a user to the player's party. */
  SendActivityInvite(userId: Uint64Like, content: string, callback: ResultCallback): void {
    this.#result(() => this.#core.sendActivityInvite(idToString(userId), content), callback);
  }
  /** Asks to join a user's party. */
  SendActivityJoinRequest(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.sendActivityJoinRequest(idToString(userId)), callback);
  }
  /** Lets the sender of a join request in. */
  SendActivityJoinRequestReply(invite: ActivityInvite, callback: ResultCallback): void {
    this.#result(() => this.#core.sendActivityJoinRequestReply(invite.toCore()), callback);
  }
  /** Accepts an invite; the callback gets the join secret. */
  AcceptActivityInvite(invite: ActivityInvite, callback: AcceptActivityInviteCallback): void {
    reply(
      () => this.#core.acceptActivityInvite(invite.toCore()),
      callback,
      (secret) => [secret],
      '',
    );
  }
  /** Sets the callback invoked when an invite or join request arrives. */
  SetActivityInviteCreatedCallback(callback: ActivityInviteCallback): void {
    this.#inviteCallback('activityInviteCreated', callback);
  }
  /** Sets the callback invoked when an invite changes (e.g. becomes invalid). */
  SetActivityInviteUpdatedCallback(callback: ActivityInviteCallback): void {
    this.#inviteCallback('activityInviteUpdated', callback);
  }

  // ── The desktop client ─────────────────────────────────────────────────────────────────────────

  /**
   * Sets the callback invoked when the player starts linking from the desktop client's UI: the game should
   * call `Authorize`. Kept across restarts of the desktop client.
   */
  RegisterAuthorizeRequestCallback(callback: AuthorizeRequestCallback): void {
    whenSubscribed(
      this.#core.registerAuthorizeRequestCallback(() => {
        deliver(callback);
      }),
    );
  }
  /** Removes the authorize-request callback. */
  RemoveAuthorizeRequestCallback(): void {
    whenSubscribed(this.#core.removeAuthorizeRequestCallback());
  }
  /** Sets the callback invoked with the join secret when the player joins from the desktop client. */
  SetActivityJoinCallback(callback: ActivityJoinCallback): void {
    whenSubscribed(
      this.#core.setActivityJoinCallback((joinSecret) => {
        deliver(callback, joinSecret);
      }),
    );
  }
  /** Like `SetActivityJoinCallback`, with the application the invite belongs to. */
  SetActivityJoinWithApplicationCallback(callback: ActivityJoinWithApplicationCallback): void {
    whenSubscribed(
      this.#core.setActivityJoinWithApplicationCallback((applicationId, joinSecret) => {
        deliver(callback, idToBigInt(applicationId), joinSecret);
      }),
    );
  }
  /** Registers the command the desktop client runs to start the game from an invite; false if it failed. */
  RegisterLaunchCommand(applicationId: Uint64Like, command: string): boolean {
    // The core checks the id and logs why it refused one.
    return this.#core.registerLaunchCommand(String(applicationId), command);
  }
  /** Registers starting the game through Steam (`steamAppId`) from an invite; false if it failed. */
  RegisterLaunchSteamApplication(applicationId: Uint64Like, steamAppId: number): boolean {
    return this.#core.registerLaunchSteamApplication(String(applicationId), steamAppId);
  }

  // ── Friends ────────────────────────────────────────────────────────────────────────────────────

  /** Every relationship, platform and game. */
  GetRelationships(): RelationshipHandle[] {
    return this.#core.getRelationships().map((r) => new RelationshipHandle(r));
  }
  /** The relationship with one user. */
  GetRelationshipHandle(userId: Uint64Like): RelationshipHandle {
    return new RelationshipHandle(this.#core.getRelationshipHandle(idToString(userId)));
  }
  /** Friends in one group of the friends list. */
  GetRelationshipsByGroup(groupType: RelationshipGroupType): RelationshipHandle[] {
    return this.#core.getRelationshipsByGroup(groupType).map((r) => new RelationshipHandle(r));
  }
  /** Friends whose username or display name contains the text. */
  SearchFriendsByUsername(searchStr: string): UserHandle[] {
    return this.#core.searchFriendsByUsername(searchStr).map((u) => new UserHandle(u));
  }
  /** Sends a platform friend request by username. */
  SendDiscordFriendRequest(username: string, callback: ResultCallback): void {
    this.#result(() => this.#core.sendDiscordFriendRequest(username), callback);
  }
  /** Sends a platform friend request by id. */
  SendDiscordFriendRequestById(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.sendDiscordFriendRequestById(idToString(userId)), callback);
  }
  /** Sends (or accepts) a game friend request by username. */
  SendGameFriendRequest(username: string, callback: ResultCallback): void {
    this.#result(() => this.#core.sendGameFriendRequest(username), callback);
  }
  /** Sends (or accepts) a game friend request by id. */
  SendGameFriendRequestById(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.sendGameFriendRequestById(idToString(userId)), callback);
  }
  /** Accepts an incoming platform friend request. */
  AcceptDiscordFriendRequest(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.acceptDiscordFriendRequest(idToString(userId)), callback);
  }
  /** Accepts an incoming game friend request. */
  AcceptGameFriendRequest(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.acceptGameFriendRequest(idToString(userId)), callback);
  }
  /** Declines an incoming platform friend request. */
  RejectDiscordFriendRequest(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.rejectDiscordFriendRequest(idToString(userId)), callback);
  }
  /** Declines an incoming game friend request. */
  RejectGameFriendRequest(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.rejectGameFriendRequest(idToString(userId)), callback);
  }
  /** Withdraws an outgoing platform friend request. */
  CancelDiscordFriendRequest(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.cancelDiscordFriendRequest(idToString(userId)), callback);
  }
  /** Withdraws an outgoing game friend request. */
  CancelGameFriendRequest(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.cancelGameFriendRequest(idToString(userId)), callback);
  }
  /** Ends every friendship with the user. */
  RemoveDiscordAndGameFriend(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.removeDiscordAndGameFriend(idToString(userId)), callback);
  }
  /** Ends the game friendship only. */
  RemoveGameFriend(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.removeGameFriend(idToString(userId)), callback);
  }
  /** Blocks the user. */
  BlockUser(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.blockUser(idToString(userId)), callback);
  }
  /** Lifts a block. */
  UnblockUser(userId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.unblockUser(idToString(userId)), callback);
  }
  /** Sets the callback invoked when a relationship is created or changes type. */
  SetRelationshipCreatedCallback(callback: RelationshipCallback): void {
    this.#relationshipCallback('relationshipCreated', callback);
  }
  /** Sets the callback invoked when a relationship ends. */
  SetRelationshipDeletedCallback(callback: RelationshipCallback): void {
    this.#relationshipCallback('relationshipDeleted', callback);
  }
  /** Sets the callback invoked when a friend may have moved between friends-list groups. */
  SetRelationshipGroupsUpdatedCallback(callback: UserIdCallback): void {
    this.#idCallback('relationshipGroupsUpdated', callback);
  }

  // ── Direct messages ──────────────────────────────────────────────────────────────────────────────

  /** Sends a direct message (1–2000 characters); the callback gets its id. */
  SendUserMessage(recipientId: Uint64Like, content: string, callback: SendUserMessageCallback): void {
    this.#newId(() => this.#core.sendUserMessage(idToString(recipientId), content), callback);
  }
  /** Sends a direct message with metadata (at most 25 keys, 1024 characters in all). */
  SendUserMessageWithMetadata(
    recipientId: Uint64Like,
    content: string,
    metadata: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
    callback: SendUserMessageCallback,
  ): void {
    this.#newId(
      () => this.#core.sendUserMessage(idToString(recipientId), content, plainMap(metadata)),
      callback,
    );
  }
  /** Edits one of the player's direct messages. */
  EditUserMessage(
    recipientId: Uint64Like,
    messageId: Uint64Like,
    content: string,
    callback: ResultCallback,
  ): void {
    this.#result(
      () => this.#core.editUserMessage(idToString(recipientId), idToString(messageId), content),
      callback,
    );
  }
  /** Deletes one of the player's direct messages. */
  DeleteUserMessage(recipientId: Uint64Like, messageId: Uint64Like, callback: ResultCallback): void {
    this.#result(
      () => this.#core.deleteUserMessage(idToString(recipientId), idToString(messageId)),
      callback,
    );
  }
  /** The last `limit` (1–200) messages with a user, oldest first; answered locally when the client holds them. */
  GetUserMessagesWithLimit(
    recipientId: Uint64Like,
    limit: number,
    callback: UserMessagesWithLimitCallback,
  ): void {
    this.#messageList(() => this.#core.getUserMessagesWithLimit(idToString(recipientId), limit), callback);
  }
  /** Every direct-message conversation of the player with its newest message id. */
  GetUserMessageSummaries(callback: UserMessageSummariesCallback): void {
    reply(
      () => this.#core.getUserMessageSummaries(),
      callback,
      (summaries) => [summaries.map((s) => new UserMessageSummary(s))],
      [],
    );
  }
  /** A message the client knows (sent, received or fetched). */
  GetMessageHandle(messageId: Uint64Like): MessageHandle | undefined {
    const core = this.#core.getMessageHandle(idToString(messageId));
    return core ? new MessageHandle(core, this.#lookups) : undefined;
  }
  /** A channel the client knows; a direct message's channel id is the other user's id. */
  GetChannelHandle(channelId: Uint64Like): ChannelHandle | undefined {
    const core = this.#core.getChannelHandle(idToString(channelId));
    return core ? new ChannelHandle(core) : undefined;
  }
  /** Sets the callback invoked when a message arrives or is sent. */
  SetMessageCreatedCallback(callback: MessageIdCallback): void {
    this.#idCallback('messageCreated', callback);
  }
  /** Sets the callback invoked when a message is edited or its moderation metadata changes. */
  SetMessageUpdatedCallback(callback: MessageIdCallback): void {
    this.#idCallback('messageUpdated', callback);
  }
  /** Sets the callback invoked when a message is deleted. */
  SetMessageDeletedCallback(callback: MessageDeletedCallback): void {
    this.#setCallback('messageDeleted', (messageId: string, channelId: string) => {
      deliver(callback, BigInt(messageId), idToBigInt(channelId));
    });
  }
  /**
   * Tells the desktop client on this machine whether the game shows chat now; while it does, the desktop
   * client does not also notify the player of the direct messages the game shows.
   */
  SetShowingChat(showingChat: boolean): void {
    this.#core.setShowingChat(showingChat);
  }
  /**
   * True when the message can be viewed in a Discord client (a DM between full accounts, a message of a
   * linked lobby); false for ephemeral conversations, disclosures and unknown or malformed ids.
   */
  CanOpenMessageInDiscord(messageId: Uint64Like): boolean {
    let id: string;
    try {
      id = idToString(messageId);
    } catch {
      return false;
    }
    return this.#core.canOpenMessageInDiscord(id);
  }
  /**
   * Opens the message in the desktop client. A provisional player gets `provisionalUserMergeRequiredCallback`
   * first (merge, then `ProvisionalUserMergeCompleted`); the callback gets an `RPCError` result without a
   * desktop client, a `ValidationError` one for a message that cannot be viewed in Discord.
   */
  OpenMessageInDiscord(
    messageId: Uint64Like,
    provisionalUserMergeRequiredCallback: ProvisionalUserMergeRequiredCallback,
    callback: OpenMessageInDiscordCallback,
  ): void {
    this.#result(
      () =>
        this.#core.openMessageInDiscord(idToString(messageId), {
          onProvisionalUserMergeRequired: () => {
            deliver(provisionalUserMergeRequiredCallback);
          },
        }),
      callback,
    );
  }
  /** Opens the desktop client's Connected Games settings; an `RPCError` result without a desktop client. */
  OpenConnectedGamesSettingsInDiscord(callback: OpenConnectedGamesSettingsInDiscordCallback): void {
    this.#result(() => this.#core.openConnectedGamesSettingsInDiscord(), callback);
  }

  // ── Lobbies ──────────────────────────────────────────────────────────────────────────────────────

  /** Creates the lobby for this secret or joins the existing one; the callback gets the lobby id. */
  CreateOrJoinLobby(secret: string, callback: CreateOrJoinLobbyCallback): void {
    this.#newId(() => this.#core.createOrJoinLobby(secret), callback);
  }
  /** As `CreateOrJoinLobby`, also replacing the lobby's and the player's member metadata. */
  CreateOrJoinLobbyWithMetadata(
    secret: string,
    lobbyMetadata: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
    memberMetadata: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
    callback: CreateOrJoinLobbyCallback,
  ): void {
    this.#newId(
      () => this.#core.createOrJoinLobby(secret, plainMap(lobbyMetadata), plainMap(memberMetadata)),
      callback,
    );
  }
  /** Leaves a lobby the player joined with a secret. */
  LeaveLobby(lobbyId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.leaveLobby(idToString(lobbyId)), callback);
  }
  /** A lobby the player is in. */
  GetLobbyHandle(lobbyId: Uint64Like): LobbyHandle | undefined {
    const core = this.#core.getLobbyHandle(idToString(lobbyId));
    return core ? new LobbyHandle(core) : undefined;
  }
  /** The ids of every lobby the player is in. */
  GetLobbyIds(): bigint[] {
    return this.#core.getLobbyIds().map((id) => idToBigInt(id));
  }
  /** Sets the callback invoked when a lobby becomes available (it may fire more than once per lobby). */
  SetLobbyCreatedCallback(callback: LobbyIdCallback): void {
    this.#idCallback('lobbyCreated', callback);
  }
  /** Sets the callback invoked when a lobby's metadata or linked channel changes. */
  SetLobbyUpdatedCallback(callback: LobbyIdCallback): void {
    this.#idCallback('lobbyUpdated', callback);
  }
  /** Sets the callback invoked when a lobby is no longer available. */
  SetLobbyDeletedCallback(callback: LobbyIdCallback): void {
    this.#idCallback('lobbyDeleted', callback);
  }
  /** Sets the callback invoked when a user joins a lobby the player is in. */
  SetLobbyMemberAddedCallback(callback: LobbyMemberCallback): void {
    this.#memberCallback('lobbyMemberAdded', callback);
  }
  /** Sets the callback invoked when a member changes. */
  SetLobbyMemberUpdatedCallback(callback: LobbyMemberCallback): void {
    this.#memberCallback('lobbyMemberUpdated', callback);
  }
  /** Sets the callback invoked when a member leaves or is removed. */
  SetLobbyMemberRemovedCallback(callback: LobbyMemberCallback): void {
    this.#memberCallback('lobbyMemberRemoved', callback);
  }
  /** Sends a message to every member of a lobby; the callback gets its id. */
  SendLobbyMessage(lobbyId: Uint64Like, content: string, callback: SendUserMessageCallback): void {
    this.#newId(() => this.#core.sendLobbyMessage(idToString(lobbyId), content), callback);
  }
  /** As `SendLobbyMessage`, with metadata delivered to the game's clients. */
  SendLobbyMessageWithMetadata(
    lobbyId: Uint64Like,
    content: string,
    metadata: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
    callback: SendUserMessageCallback,
  ): void {
    this.#newId(
      () => this.#core.sendLobbyMessage(idToString(lobbyId), content, plainMap(metadata)),
      callback,
    );
  }
  /** The last `limit` (1–200, of 72 hours) messages of a lobby the player is in, oldest first. */
  GetLobbyMessagesWithLimit(lobbyId: Uint64Like, limit: number, callback: GetLobbyMessagesCallback): void {
    this.#messageList(() => this.#core.getLobbyMessagesWithLimit(idToString(lobbyId), limit), callback);
  }

  // ── Linked channels ──────────────────────────────────────────────────────────────────────────────

  /** The guilds the player is a member of. */
  GetUserGuilds(callback: GetUserGuildsCallback): void {
    reply(
      () => this.#core.getUserGuilds(),
      callback,
      (guilds) => [guilds.map((g) => new GuildMinimal(g))],
      [],
    );
  }
  /** The channels of a guild the player can see, in the chat client's order. */
  GetGuildChannels(guildId: Uint64Like, callback: GetGuildChannelsCallback): void {
    reply(
      () => this.#core.getGuildChannels(idToString(guildId)),
      callback,
      (channels) => [channels.map((c) => new GuildChannel(c))],
      [],
    );
  }
  /** Links a guild channel to a lobby (needs the CanLinkLobby flag and channel permissions). */
  LinkChannelToLobby(lobbyId: Uint64Like, channelId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.linkChannelToLobby(idToString(lobbyId), idToString(channelId)), callback);
  }
  /** Removes a lobby's channel link. */
  UnlinkChannelFromLobby(lobbyId: Uint64Like, callback: ResultCallback): void {
    this.#result(() => this.#core.unlinkChannelFromLobby(idToString(lobbyId)), callback);
  }
  /** A single-use invite (one hour) to the linked channel's guild; the callback gets its URL. */
  JoinLinkedLobbyGuild(
    lobbyId: Uint64Like,
    provisionalUserMergeRequiredCallback: ProvisionalUserMergeRequiredCallback,
    callback: JoinLinkedLobbyGuildCallback,
  ): void {
    reply(
      () =>
        this.#core.joinLinkedLobbyGuild(idToString(lobbyId), {
          onProvisionalUserMergeRequired: () => {
            deliver(provisionalUserMergeRequiredCallback);
          },
        }),
      callback,
      (url) => [url],
      '',
    );
  }
  /** Tells a waiting `JoinLinkedLobbyGuild` that the account merge finished (or failed). */
  ProvisionalUserMergeCompleted(success: boolean): void {
    this.#core.provisionalUserMergeCompleted(success);
  }

  #messageList(
    run: () => Promise<CoreMessageHandle[]>,
    callback: (result: ClientResult, messages: MessageHandle[]) => void,
  ): void {
    reply(run, callback, (messages) => [messages.map((m) => new MessageHandle(m, this.#lookups))], []);
  }

  // ── Voice calls ────────────────────────────────────────────────────────────────────────────────

  /** Starts or joins a lobby's call; an invalid `Call` (`IsValid()` false) when it cannot (the error is logged). */
  StartCall(lobbyId: Uint64Like): Call {
    return this.#startCall(() => this.#core.startCall(idToString(lobbyId)));
  }
  /** As `StartCall`, with the raw audio callbacks (called on the audio pump, not through `RunCallbacks`). */
  StartCallWithAudioCallbacks(
    lobbyId: Uint64Like,
    receivedCb: UserAudioReceivedCallback,
    capturedCb: UserAudioCapturedCallback,
  ): Call {
    return this.#startCall(() =>
      this.#core.startCallWithAudioCallbacks(
        idToString(lobbyId),
        (userId, samples, perChannel, rate, channels) => {
          const out: OutBool = { value: false };
          receivedCb(BigInt(userId), samples, perChannel, rate, channels, out);
          return out.value;
        },
        capturedCb,
      ),
    );
  }
  /** The player's call in a lobby; an invalid `Call` when there is none. */
  GetCall(lobbyId: Uint64Like): Call {
    return new Call(this.#core.getCall(idToString(lobbyId)));
  }
  /** Every call the player is in. */
  GetCalls(): Call[] {
    return this.#core.getCalls().map((call) => new Call(call));
  }
  /** Leaves a lobby's call; the callback runs once it ended. */
  EndCall(lobbyId: Uint64Like, callback: EndCallCallback): void {
    afterwards(() => this.#core.endCall(idToString(lobbyId)), callback);
  }
  /** Leaves every call. */
  EndCalls(callback: EndCallCallback): void {
    afterwards(() => this.#core.endCalls(), callback);
  }
  /** Sets the callback for anyone joining or leaving a call in the player's lobbies. */
  SetVoiceParticipantChangedCallback(callback: VoiceParticipantChangedCallback): void {
    this.#core.setVoiceParticipantChangedCallback((lobbyId, memberId, added) => {
      deliver(callback, BigInt(lobbyId), BigInt(memberId), added);
    });
  }
  /** Mutes the player in every call. */
  SetSelfMuteAll(mute: boolean): void {
    this.#core.setSelfMuteAll(mute);
  }
  /** Whether the player is muted in all calls. */
  GetSelfMuteAll(): boolean {
    return this.#core.getSelfMuteAll();
  }
  /** Deafens the player in every call. */
  SetSelfDeafAll(deaf: boolean): void {
    this.#core.setSelfDeafAll(deaf);
  }
  /** Whether the player is deafened in all calls. */
  GetSelfDeafAll(): boolean {
    return this.#core.getSelfDeafAll();
  }
  /** The microphone volume (0–100); an out-of-range value leaves it unchanged. */
  SetInputVolume(inputVolume: number): void {
    this.#logged('SetInputVolume', () => {
      this.#core.setInputVolume(inputVolume);
    });
  }
  /** The microphone volume. */
  GetInputVolume(): number {
    return this.#core.getInputVolume();
  }
  /**
   * The level (dBFS) under which the microphone counts as silent; −100, the default, turns the check off.
   * An out-of-range value leaves it unchanged (and logs why).
   */
  SetNoAudioInputThreshold(dBFSThreshold: number): void {
    this.#logged('SetNoAudioInputThreshold', () => {
      this.#core.setNoAudioInputThreshold(dBFSThreshold);
    });
  }
  /** Sets the callback told when microphone input is detected again (`true`) or has stopped (`false`). */
  SetNoAudioInputCallback(callback: NoAudioInputCallback): void {
    this.#setCallback('audioInputDetected', (inputDetected: boolean) => {
      deliver(callback, inputDetected);
    });
  }
  /** The playback volume (0–200); an out-of-range value leaves it unchanged. */
  SetOutputVolume(outputVolume: number): void {
    this.#logged('SetOutputVolume', () => {
      this.#core.setOutputVolume(outputVolume);
    });
  }
  /** The playback volume. */
  GetOutputVolume(): number {
    return this.#core.getOutputVolume();
  }
  /**
   * Sets the callback for changes in the system's audio devices (plugged in, removed, a new default, or a
   * chosen device lost and replaced by the default); it gets both lists as they are now.
   */
  SetDeviceChangeCallback(callback: DeviceChangeCallback): void {
    this.#deviceChangeCallback = callback;
  }
  /** The input devices. */
  GetInputDevices(cb: AudioDevicesCallback): void {
    deliverDevices(this.#core.getInputDevices(), cb);
  }
  /** The output devices. */
  GetOutputDevices(cb: AudioDevicesCallback): void {
    deliverDevices(this.#core.getOutputDevices(), cb);
  }
  /** The current input device. */
  GetCurrentInputDevice(cb: AudioDeviceCallback): void {
    deliverDevice(this.#core.getCurrentInputDevice(), cb);
  }
  /** The current output device. */
  GetCurrentOutputDevice(cb: AudioDeviceCallback): void {
    deliverDevice(this.#core.getCurrentOutputDevice(), cb);
  }
  /** Switches the input device (`null` or `wav-in:<path>`). */
  SetInputDevice(deviceId: string, cb: ResultCallback): void {
    this.#result(() => this.#core.setInputDevice(deviceId), cb);
  }
  /** Switches the output device (`null` or `wav-out:<path>`). */
  SetOutputDevice(deviceId: string, cb: ResultCallback): void {
    this.#result(() => this.#core.setOutputDevice(deviceId), cb);
  }
  /** The default audio device's id. */
  static GetDefaultAudioDeviceId(): string {
    return CoreClient.getDefaultAudioDeviceId();
  }
  /** Kept; no effect on desktop. */
  SetEngineManagedAudioSession(isEngineManaged: boolean): void {
    this.#core.setEngineManagedAudioSession(isEngineManaged);
  }
  /** Echo cancellation (WebRTC AEC3) on the microphone; takes effect once its library is compiled. */
  SetEchoCancellation(on: boolean): void {
    this.#processing({ echoCancellation: on });
  }
  /** Noise suppression (RNNoise) on the microphone; takes effect once its library is compiled. */
  SetNoiseSuppression(on: boolean): void {
    this.#processing({ noiseSuppression: on });
  }
  /** Automatic gain control on the microphone. */
  SetAutomaticGainControl(on: boolean): void {
    this.#processing({ automaticGainControl: on });
  }
  /** AEC diagnostic recording into the voice log dir. */
  SetAecDump(on: boolean): void {
    this.#core.setAecDump(on);
  }
  /** Writes the voice log lines at or above `severity` (default: all of them) to `voice.log` in `path`. */
  SetVoiceLogDir(path: string, severity?: LoggingSeverity): void {
    this.#logged('SetVoiceLogDir', () => {
      this.#core.setVoiceLogDir(path, severity);
    });
  }

  #startCall(start: () => CoreCall): Call {
    try {
      return new Call(start());
    } catch {
      // As in the C++ SDK, the invalid Call is the answer (not a member, already in the call, not Ready).
      return new Call(undefined);
    }
  }

  /** C++ setters return nothing: a refused value leaves the setting as it was. */
  /** The C++ setters return nothing: a failure to load a library is logged by the core, not thrown. */
  #processing(change: {
    echoCancellation?: boolean;
    noiseSuppression?: boolean;
    automaticGainControl?: boolean;
  }): void {
    const [name, on] = Object.entries(change)[0] ?? ['', false];
    const set =
      name === 'echoCancellation'
        ? this.#core.setEchoCancellation(on)
        : name === 'noiseSuppression'
          ? this.#core.setNoiseSuppression(on)
          : this.#core.setAutomaticGainControl(on);
    set.catch(() => undefined);
  }

  #logged(_what: string, run: () => void): void {
    try {
      run();
    } catch {
      // `what` names the setter for a debugger; the C++ SDK reports nothing either.
    }
  }

  /** Forwards an event whose one argument is an id (of a user, message or lobby) as a bigint. */
  #idCallback(event: IdEvent, callback: (id: bigint) => void): void {
    this.#setCallback(event, (id: string) => {
      deliver(callback, BigInt(id));
    });
  }

  #relationshipCallback(
    event: 'relationshipCreated' | 'relationshipDeleted',
    callback: RelationshipCallback,
  ): void {
    this.#setCallback(event, (userId: string, isDiscord: boolean) => {
      deliver(callback, BigInt(userId), isDiscord);
    });
  }

  #inviteCallback(
    event: 'activityInviteCreated' | 'activityInviteUpdated',
    callback: ActivityInviteCallback,
  ): void {
    this.#setCallback(event, (invite: CoreActivityInvite) => {
      deliver(callback, ActivityInvite.fromCore(invite));
    });
  }

  #memberCallback(
    event: 'lobbyMemberAdded' | 'lobbyMemberUpdated' | 'lobbyMemberRemoved',
    callback: LobbyMemberCallback,
  ): void {
    this.#setCallback(event, (lobbyId: string, memberId: string) => {
      deliver(callback, BigInt(lobbyId), BigInt(memberId));
    });
  }

  /** How message handles reach users, channels and lobbies. */
  get #lookups(): MessageLookups {
    return {
      user: (id) => this.#core.getUser(id),
      channel: (id) => this.#core.getChannelHandle(id),
      lobby: (id) => this.#core.getLobbyHandle(id),
    };
  }

  /** A call that creates something (a message, a lobby) and answers with its id; 0 on failure. */
  #newId(run: () => Promise<string>, callback: (result: ClientResult, id: bigint) => void): void {
    reply(run, callback, (id) => [BigInt(id)], 0n);
  }

  /** Replaces the one listener a `Set…Callback` method owns for `event`. */
  #setCallback<E extends keyof ClientEvents>(event: E, listener: (...args: ClientEvents[E]) => void): void {
    const previous = this.#callbacks.get(event) as ((...args: ClientEvents[E]) => void) | undefined;
    if (previous) this.#core.off(event, previous);
    this.#callbacks.set(event, listener as unknown as (...args: never[]) => void);
    this.#core.on(event, listener);
  }

  #tokens(run: () => Promise<TokenExchangeResult>, callback: TokenExchangeCallback): void {
    reply(
      run,
      callback,
      (t) => [t.accessToken, t.refreshToken, t.tokenType, t.expiresIn, t.scopes],
      '',
      '',
      AuthorizationTokenType.Bearer,
      0,
      '',
    );
  }

  #result(run: () => Promise<void>, callback: ResultCallback): void {
    reply(run, callback, () => []);
  }
}

/** The client events whose one argument is an id. */
type IdEvent = {
  [E in keyof ClientEvents]: ClientEvents[E] extends [string] ? E : never;
}[keyof ClientEvents];

/** Runs a core call and routes its outcome; a synchronous throw (validation) is reported like a rejection. */
function settle<T>(
  run: () => Promise<T>,
  onSuccess: (value: T) => void,
  onFailure: (result: ClientResult) => void,
): void {
  let promise: Promise<T>;
  try {
    promise = run();
  } catch (error) {
    promise = Promise.reject(asError(error));
  }
  promise.then(onSuccess, (error: unknown) => {
    onFailure(ClientResult.fromError(error));
  });
}

/**
 * Runs a core call and delivers its outcome to a C++-style callback: success with `answer(value)`, or the
 * failure with `fallback` (the empty values the C++ SDK passes on failure).
 */
function reply<T, Rest extends unknown[] | []>(
  run: () => Promise<T>,
  callback: (result: ClientResult, ...rest: Rest) => void,
  answer: (value: T) => NoInfer<Rest>,
  ...fallback: NoInfer<Rest>
): void {
  settle(
    run,
    (value) => {
      deliver(callback, ClientResult.success(), ...answer(value));
    },
    (result) => {
      deliver(callback, result, ...fallback);
    },
  );
}

/** Calls `callback` once the core call settled, either way (ending a call reports no result). */
function afterwards(run: () => Promise<void>, callback: () => void): void {
  const done = (): void => {
    deliver(callback);
  };
  settle(run, done, done);
}

function deliverDevices(devices: Promise<CoreAudioDevice[]>, callback: AudioDevicesCallback): void {
  void devices.then((list) => {
    deliver(
      callback,
      list.map((d) => new AudioDevice(d)),
    );
  });
}

function deliverDevice(device: Promise<CoreAudioDevice>, callback: AudioDeviceCallback): void {
  void device.then((d) => {
    deliver(callback, new AudioDevice(d));
  });
}

/** A token callback's failure before any call: the error and the empty token fields. */
function deliverTokenFailure(callback: TokenExchangeCallback, error: Error): void {
  deliver(callback, ClientResult.fromError(error), '', '', AuthorizationTokenType.Bearer, 0, '');
}

/** The application and external identity that the provisional-account calls take. */
function externalAuth(
  applicationId: Uint64Like,
  externalAuthType: AuthenticationExternalAuthType,
  externalAuthToken: string,
): ExternalAuth & { applicationId: string } {
  return { applicationId: idToString(applicationId), externalAuthType, externalAuthToken };
}

/** A plain object of a `Map` or a record, as the core API takes string maps. */
function plainMap(
  map: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
): Record<string, string> {
  const entries: Iterable<readonly [string, string]> =
    map instanceof Map
      ? (map as ReadonlyMap<string, string>).entries()
      : Object.entries(map as Readonly<Record<string, string>>);
  return Object.fromEntries(entries);
}

/** A handle over the desktop client's user: name and id as it reported them, no presence or relationship. */
function desktopClientUser(user: RpcUser): UserHandle {
  const store = new UserStore();
  store.upsert({ id: user.id, username: user.username, global_name: user.global_name ?? null });
  return new UserHandle(new CoreUserHandle(store, user.id));
}

/** A subscription on the desktop client is best effort (the core logs failures); nothing is left unhandled. */
function whenSubscribed(subscribed: Promise<void>): void {
  subscribed.catch(() => undefined);
}

/** A C++ `void` call with no callback: its failure is already logged by the core, so it is only caught here. */
function unanswered(done: Promise<void>): void {
  done.catch(() => undefined);
}

function deliver<Args extends unknown[]>(callback: (...args: Args) => void, ...args: Args): void {
  enqueueCallback(() => {
    callback(...args);
  });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

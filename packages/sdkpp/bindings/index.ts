/**
 * The SDK-shaped API for engine plugins: the C++ SDK's class and method names (`Client.Authorize(args, cb)`,
 * `AuthorizationArgs.SetScopes`, `nullobj`, `IsValid()` for `operator bool`), callbacks with `ClientResult`
 * delivered by `RunCallbacks()`. A thin layer over the idiomatic API of `sdkpp`.
 * @packageDocumentation
 */
export {
  AuthorizationArgs,
  AuthorizationCodeChallenge,
  AuthorizationCodeVerifier,
} from './AuthorizationArgs.js';
export { RunCallbacks, ResetCallbacks, SetFreeThreaded } from './callbacks.js';
export { DeviceAuthorizationArgs } from './DeviceAuthorizationArgs.js';
export {
  Client,
  ClientCreateOptions,
  type AcceptActivityInviteCallback,
  type ActivityInviteCallback,
  type ActivityJoinCallback,
  type ActivityJoinWithApplicationCallback,
  type AuthorizeRequestCallback,
  type AuthorizationCallback,
  type FetchCurrentUserCallback,
  type GetDiscordClientConnectedUserCallback,
  type LogCallback,
  type OnStatusChanged,
  type RelationshipCallback,
  type UserIdCallback,
  type MessageDeletedCallback,
  type CreateOrJoinLobbyCallback,
  type GetGuildChannelsCallback,
  type GetLobbyMessagesCallback,
  type GetUserGuildsCallback,
  type JoinLinkedLobbyGuildCallback,
  type LobbyIdCallback,
  type LobbyMemberCallback,
  type ProvisionalUserMergeRequiredCallback,
  type OpenMessageInDiscordCallback,
  type OpenConnectedGamesSettingsInDiscordCallback,
  type MessageIdCallback,
  type NoAudioInputCallback,
  type SendUserMessageCallback,
  type UserMessageSummariesCallback,
  type UserMessagesWithLimitCallback,
  type ResultCallback,
  type TokenExchangeCallback,
  type ExchangeChildTokenCallback,
} from './Client.js';
export { ClientResult } from './ClientResult.js';
export { HttpStatusCode } from './HttpStatusCode.js';
export {
  AudioDevice,
  AudioModeType,
  Call,
  CallInfoHandle,
  VADThresholdSettings,
  VoiceStateHandle,
  type CallOnParticipantChanged,
  type CallOnSpeakingStatusChanged,
  type CallOnStatusChanged,
  type CallOnVoiceStateChanged,
} from './Call.js';
export type {
  AudioDeviceCallback,
  AudioDevicesCallback,
  DeviceChangeCallback,
  EndCallCallback,
  OutBool,
  UserAudioCapturedCallback,
  UserAudioReceivedCallback,
  VoiceParticipantChangedCallback,
} from './Client.js';
export type { Uint64Like } from './ids.js';
export { RelationshipHandle, UserApplicationProfileHandle, UserHandle } from './UserHandle.js';
export { MessageHandle, UserMessageSummary } from './MessageHandle.js';
export { AdditionalContent } from './AdditionalContent.js';
export { ChannelHandle } from './ChannelHandle.js';
export { LinkedChannel, LobbyHandle, LobbyMemberHandle } from './LobbyHandle.js';
export { GuildChannel, GuildMinimal, LinkedLobby } from './Guild.js';
export { ActivityInvite } from './ActivityInvite.js';
export {
  Activity,
  ActivityAssets,
  ActivityButton,
  ActivityParty,
  ActivitySecrets,
  ActivityTimestamps,
} from './Activity.js';
export { CallError, CallStatus, ClientError, ClientStatus } from './statusEnums.js';
// The idiomatic API's enums, shared as they are: the C++ SDK's names and values.
export {
  ActivityActionTypes,
  ActivityGamePlatforms,
  ActivityPartyPrivacy,
  ActivityTypes,
  AdditionalContentType,
  AuthenticationCodeChallengeMethod,
  AuthenticationExternalAuthType,
  AuthorizationTokenType,
  AvatarType,
  ChannelType,
  DisclosureType as DisclosureTypes,
  ErrorType,
  ExternalIdentityProviderType,
  IntegrationType,
  LoggingSeverity,
  RelationshipGroupType,
  RelationshipType,
  StatusDisplayTypes,
  StatusType,
} from '../src/index.js';

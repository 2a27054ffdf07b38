/**
 * sdkpp: the platform's client social SDK for Node and Electron games.
 * @packageDocumentation
 */
export { Client, type ClientEvents, type ClientOptions } from './client/Client.js';
export { ClientCore } from './client/ClientCore.js';
export { LobbyClient } from './client/LobbyClient.js';
export { SocialClient } from './client/SocialClient.js';
export type { SocialEvents } from './social/SocialEvents.js';
export type { MessageEvents } from './chat/MessageEvents.js';
export type { InviteEvents } from './invites/InviteEvents.js';
export type { LobbyEvents } from './lobbies/LobbyEvents.js';
export type { VoiceEvents } from './voice/call/VoiceEvents.js';
export { ClientError, ClientStatus, clientErrorToString, statusToString } from './client/ClientStatus.js';
export type { AuthorizeOptions, AuthorizeResult } from './auth/AuthManager.js';
export { IntegrationType, type AuthorizationArgs } from './auth/AuthorizationArgs.js';
export type { ExternalAuth } from './auth/OAuth2Api.js';
export type {
  DeviceAuthorizationArgs,
  DeviceUserCode,
  GetTokenFromDeviceOptions,
} from './auth/deviceFlow.js';
export { openInSystemBrowser, type UrlOpener } from './auth/openUrl.js';
export {
  AuthenticationCodeChallengeMethod,
  computeCodeChallenge,
  createAuthorizationCodeVerifier,
  isValidCodeVerifier,
  type AuthorizationCodeChallenge,
  type AuthorizationCodeVerifier,
} from './auth/pkce.js';
export {
  DEFAULT_COMMUNICATION_SCOPES,
  DEFAULT_PRESENCE_SCOPES,
  getDefaultCommunicationScopes,
  getDefaultPresenceScopes,
} from './auth/scopes.js';
export {
  AuthenticationExternalAuthType,
  AuthorizationTokenType,
  type ChildTokenResult,
  type TokenExchangeResult,
} from './auth/tokenTypes.js';
// The error family lives in @sdkpp/protocol (the emulator shares it); this package is where a game meets it.
export {
  AbortedError,
  AuthorizationError,
  BrowserUnavailableError,
  ClientDestroyedError,
  ClientNotReadyError,
  DeauthorizedError,
  ErrorType,
  errorTypeToString,
  HttpError,
  NetworkError,
  SdkError,
  ValidationError,
  type SdkErrorDetails,
} from '@sdkpp/protocol';
export {
  MediaEngineError,
  JS_ENGINE_WARNING_CODE,
  createMediaEngine,
  getMediaEngineInfo,
  type AeadAlgorithm,
  type CreateMediaEngineOptions,
  type CryptoSelfTestResult,
  type MediaEngine,
  type MediaEngineInfo,
  type MediaEngineKind,
  type MediaEnginePreference,
  type NativeAddonOrigin,
  type NativeAddonSource,
  AUDIO_RESULTS,
  AudioResult,
  audioResultName,
  JitterFrameKind,
  OPUS_FRAME_SAMPLES,
  OPUS_MAX_PACKET_SIZE,
  OPUS_SILENCE_FRAME,
  SendAction,
  type AudioProcessor,
  type JitterBuffer,
  type JitterFrame,
  type OpusDecoder,
  type OpusEncoder,
  type OpusEncoderOptions,
  type TransmitMode,
  DAVE_BASE_SECRET_SIZE,
  DAVE_KEY_RETENTION_MS,
  DAVE_MAX_GENERATION_GAP,
  DAVE_MAX_OVERHEAD,
  DAVE_RESULTS,
  type DaveDecryptor,
  type DaveDecryptorOptions,
  type DaveEncryptor,
  type DaveFrameResult,
  type DaveRange,
  type DaveResultCode,
  type DaveStats,
  // Types the signatures above use, so that callers can name them.
  AEAD_ALGORITHMS,
  RTP_RESULTS,
  type AeadSelfTestResult,
  type AudioProcessorOptions,
  type IpDiscoveryDecodeResult,
  type IpDiscoveryPacket,
  type JitterBufferOptions,
  type JitterBufferStatus,
  type JitterFrameKindValue,
  type MediaEngineErrorCode,
  type SystemAudio,
  type SystemAudioDeviceInfo,
  type SystemAudioDirection,
  type SystemAudioEvent,
  type SystemAudioStreamStatus,
  type VoiceProcessingLink,
  type VoiceProcessingLinkStats,
  type MediaEngineLog,
  type RtpHeaderInit,
  type RtpParseResult,
  type SendActionValue,
  type TransportCryptor,
  type RtpFailure,
  type RtpHeader,
  type RtpLayout,
  type RtpResultCode,
  type TransportOpenResult,
  type TransportStats,
  type VoiceTransport,
  type VoiceTransportOptions,
  type VoiceTransportState,
  type VoiceTransportStats,
} from './media/index.js';
export { LoggingSeverity, type LogCallback, type LogWriter } from './logging/index.js';
export type { VoiceSocket, VoiceSocketFactory } from './voice/gateway/VoiceGatewayClient.js';
export type { Listener } from '@sdkpp/protocol';
export { RpcError, type RpcUser } from './rpc/IpcTransport.js';
export type { LocalClientOptions } from './rpc/LocalClientLink.js';
export { AvatarType, RelationshipHandle, UserHandle } from './social/UserHandle.js';
export { RelationshipGroupType, RelationshipType } from './social/enums.js';
export {
  ExternalIdentityProviderType,
  type UserApplicationProfile,
} from './social/UserApplicationProfile.js';
export { StatusType } from './presence/StatusType.js';
export { ActivityActionTypes, type ActivityInvite } from './invites/ActivityInvite.js';
export { MessageHandle, type MessageSnapshot } from './chat/MessageHandle.js';
export type { UserMessageSummary } from './chat/DirectMessageManager.js';
export { ChannelHandle, ChannelType } from './chat/ChannelHandle.js';
export { AdditionalContentType, DisclosureType, type AdditionalContent } from './chat/additionalContent.js';
export type { OpenMessageInDiscordOptions } from './chat/DesktopChat.js';
export type { Clock, TimerHandle } from '@sdkpp/protocol';
export type { GatewaySocket, GatewaySocketData, GatewaySocketFactory } from './gateway/GatewaySocket.js';
export {
  ActivityGamePlatforms,
  ActivityPartyPrivacy,
  ActivityTypes,
  StatusDisplayTypes,
  type Activity,
  type ActivityAssets,
  type ActivityButton,
  type ActivityParty,
  type ActivityTimestamps,
} from './presence/Activity.js';
export { LobbyHandle, type LobbySnapshot } from './lobbies/LobbyHandle.js';
export { LobbyMemberHandle, type LobbyMemberSnapshot } from './lobbies/LobbyMemberHandle.js';
export type { LinkedChannel } from './lobbies/wireLobby.js';
export { Call, type CallEvents, type VADThresholdSettings } from './voice/call/Call.js';
export type { InboundAudioState } from './voice/connection/InboundAudioWatchdog.js';
export { CallInfoHandle } from './voice/call/CallInfoHandle.js';
export {
  AudioModeType,
  CallError,
  CallStatus,
  callErrorToString,
  callStatusToString,
} from './voice/call/enums.js';
export { VoiceStateHandle } from './voice/call/VoiceStateHandle.js';
export {
  NULL_AUDIO_DEVICE_ID,
  WAV_INPUT_PREFIX,
  WAV_OUTPUT_PREFIX,
  type AudioDevice,
} from './voice/devices/audioDevices.js';
export { SYSTEM_DEFAULT_DEVICE_ID, type AudioDeviceLoss } from './voice/devices/SystemDevices.js';
export type { UserAudioCapturedCallback, UserAudioReceivedCallback } from './voice/call/CallManager.js';
export type { DaveSessionFactory, DaveSessionLike } from './media/index.js';
export {
  MAX_LOBBY_METADATA_CHARS,
  MAX_LOBBY_METADATA_KEYS,
  MAX_LOBBY_SECRET_LENGTH,
} from './lobbies/limits.js';
export type { GuildChannel, GuildMinimal, LinkedLobby } from './guilds/types.js';
export type { GuildStatus } from './guilds/guildStatus.js';
export type { JoinLinkedLobbyGuildOptions } from './guilds/GuildManager.js';

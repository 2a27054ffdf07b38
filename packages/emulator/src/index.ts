/**
 * `@sdkpp/emulator`: a local platform for building and testing games offline. It serves the HTTP API,
 * OAuth2 (with a consent page and PKCE), provisional accounts and the gateway on one loopback port.
 *
 * @example
 * ```ts
 * import { startEmulator } from '@sdkpp/emulator';
 * const emulator = await startEmulator({ autoConsent: true });
 * // … point the SDK at emulator.api / emulator.http, use emulator.browserAs('alice') as the browser …
 * await emulator.close();
 * ```
 */
export { startEmulator } from './Emulator.js';
export { StateExportError, type OmittedRecord } from './store/persist.js';
export {
  InteractionResponseError,
  type InteractionResponseFailure,
} from './interactions/InteractionResponseError.js';
export {
  synthesizeSpeech,
  SpeechSynthesisError,
  type SpeechAudio,
  type SpeechOptions,
} from './testing/speech.js';
export {
  matchAudio,
  type AudioMatch,
  type AudioMatchOptions,
  type AudioSegmentMatch,
} from './testing/audioMatch.js';
export { echoReturnLossEnhancement, estimatedSnr, snrGain } from './testing/voiceMetrics.js';
export { resampleMono, monoToStereo, stereoToMono } from './testing/resample.js';
export { readWavFile, writeWavFile } from './testing/wav.js';
export { emulatorBrowser, emulatorInfoAt } from './testing/remote.js';
export type {
  BrowserOptions,
  ChatMessageExtras,
  LocalClientNotification,
  LocalClientOpened,
  Emulator,
  EmulatorChannelMessage,
  EmulatorChannelOverwrite,
  EmulatorGuild,
  EmulatorGuildRole,
  EmulatorCommand,
  EmulatorEntitlement,
  EmulatorPurchase,
  EmulatorSku,
  EmulatorSubscription,
  EmulatorUrlMapping,
  EmulatorActivityInstance,
  EmulatorActivityShare,
  SetActivityLayoutOptions,
  EmulatorActivityLaunch,
  EmulatorSkuPrice,
  EmulatorInteractionLaunch,
  EmulatorConsoleLine,
  LaunchActivityOptions,
  EmulatorCommandOption,
  EmulatorInteraction,
  EmulatorInvocation,
  EmulatorInteractionResponse,
  EmulatorResponseMessage,
  AwaitResponseOptions,
  EmulatorModal,
  EmulatorPrivateMessage,
  InvokeCommandOptions,
  EmulatorConnectionInput,
  EnrollInQuestOptions,
  EmulatorUploadFile,
  SubmitModalOptions,
  EmulatorGuildChannel,
  EmulatorGuildChannelSpec,
  EmulatorInfo,
  EmulatorLobby,
  EmulatorLobbyMember,
  EmulatorLobbyMessage,
  EmulatorOptions,
  EmulatorPublicInfo,
  EmulatorPublicUser,
  EmulatorSavedState,
  EmulatorPresence,
  EmulatorRelationship,
  EmulatorUser,
  EmulatorImpairmentStats,
  EmulatorVoice,
  EmulatorVoiceChannelJoin,
  EmulatorVoiceChannelUser,
  EmulatorVoiceCall,
  EmulatorVoiceCounters,
  EmulatorVoiceOptions,
  EmulatorVoiceParticipant,
  EmulatorVoiceUdpCounters,
  VoiceImpairment,
  GatewaySessionInfo,
  WebhookDelivery,
  RateLimitRule,
  RateLimitSettings,
  RateLimitsOption,
} from './types.js';

export { AEAD_ALGORITHMS, AEAD_MAX_INPUT_SIZE, AEAD_PARAMETERS, isAeadAlgorithm } from './aead.js';
export type { AeadAlgorithm, AeadParameters } from './aead.js';
export {
  createMediaEngine,
  getDefaultMediaEngine,
  getMediaEngineInfo,
  JS_ENGINE_WARNING_CODE,
} from './createMediaEngine.js';
export type { CreateMediaEngineOptions, MediaEngineLog, MediaEnginePreference } from './createMediaEngine.js';
export { JS_ENGINE_VERSION, JsMediaEngine } from './js/JsMediaEngine.js';
export type { JsMediaEngineOptions } from './js/JsMediaEngine.js';
export type {
  AeadSelfTestResult,
  CryptoSelfTestResult,
  MediaEngine,
  MediaEngineInfo,
  MediaEngineKind,
  NativeAddonOrigin,
  NativeAddonSource,
} from './MediaEngine.js';
export { MediaEngineError } from './MediaEngineError.js';
export type { MediaEngineErrorCode } from './MediaEngineError.js';
export { NativeMediaEngine } from './native/NativeMediaEngine.js';
export { loadNativeAddon, nativeAddonRemedy } from './addon/loader.js';
export type { LoadNativeAddonOptions, NativeAddonLoadResult } from './addon/loader.js';
export {
  AUDIO_RESULTS,
  AudioResult,
  audioResultName,
  JitterFrameKind,
  OPUS_CHANNELS,
  OPUS_FRAME_SAMPLES,
  OPUS_FRAME_SAMPLES_PER_CHANNEL,
  OPUS_MAX_PACKET_SAMPLES_PER_CHANNEL,
  OPUS_MAX_PACKET_SIZE,
  OPUS_SAMPLE_RATE,
  OPUS_SILENCE_FRAME,
  SendAction,
  SILENCE_FRAMES_ON_STOP,
} from './audio/types.js';
export type {
  AudioProcessor,
  AudioProcessorOptions,
  AudioResultName,
  JitterBuffer,
  JitterBufferOptions,
  JitterBufferStatus,
  JitterFrame,
  JitterFrameKindValue,
  OpusDecoder,
  OpusEncoder,
  OpusEncoderOptions,
  SendActionValue,
  TransmitMode,
} from './audio/types.js';
export {
  emptyFailureCounts,
  IP_DISCOVERY_SIZE,
  isTransportEncryptionMode,
  ONE_BYTE_EXTENSION_PROFILE,
  OPUS_PAYLOAD_TYPE,
  RTP_RESULTS,
  TRANSPORT_ENCRYPTION_MODES,
  TRANSPORT_KEY_SIZE,
  TRANSPORT_OVERHEAD,
  TWO_BYTE_EXTENSION_PROFILE,
} from './rtp/types.js';
export type {
  IpDiscoveryDecodeResult,
  IpDiscoveryPacket,
  RtpFailure,
  RtpHeader,
  RtpHeaderInit,
  RtpLayout,
  RtpParseResult,
  RtpResultCode,
  TransportCryptor,
  TransportEncryptionMode,
  TransportOpenResult,
  TransportStats,
} from './rtp/types.js';
export {
  DAVE_BASE_SECRET_SIZE,
  DAVE_KEY_RETENTION_MS,
  DAVE_MAX_GENERATION_GAP,
  DAVE_MAX_OVERHEAD,
  DAVE_RESULTS,
  emptyDaveFailureCounts,
} from './dave/types.js';
export type {
  DaveDecryptor,
  DaveDecryptorOptions,
  DaveEncryptor,
  DaveFrameResult,
  DaveRange,
  DaveResultCode,
  DaveStats,
} from './dave/types.js';
export { VOICE_FRAME_SAMPLES } from './transport/types.js';
export type {
  VoiceTransport,
  VoiceTransportOptions,
  VoiceTransportState,
  VoiceTransportStats,
} from './transport/types.js';
export type {
  SystemAudio,
  SystemAudioDeviceInfo,
  SystemAudioDirection,
  SystemAudioEvent,
  SystemAudioStreamStatus,
  VirtualAudio,
  VirtualAudioStats,
  VoiceProcessingLink,
  VoiceProcessingLinkStats,
} from './devices/types.js';
// DAVE's MLS session, which keys the engines' frame cryptors (one per voice connection).
export {
  DaveProtocolSession,
  displayableCode,
  pairwiseFingerprint,
  privacyCode,
  verificationCode,
  type DaveEpochInfo,
  type DaveProtocolSessionEvents,
  type DaveProtocolSessionOptions,
  type DaveSessionFactory,
  type DaveSessionLike,
} from './dave/session/index.js';

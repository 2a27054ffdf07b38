export { AEAD_ALGORITHMS, AEAD_MAX_INPUT_SIZE, AEAD_PARAMETERS, isAeadAlgorithm } from './aead.js';
export type { AeadAlgorithm, AeadParameters } from './aead.js';
export { createMediaEngine, getDefaultMediaEngine, getMediaEngineInfo } from './createMediaEngine.js';
export type { CreateMediaEngineOptions, MediaEngineLog, MediaEnginePreference } from './createMediaEngine.js';
export { JS_ENGINE_VERSION, JsMediaEngine } from './js/JsMediaEngine.js';
export type { JsMediaEngineOptions } from './js/JsMediaEngine.js';
export type {
  AeadSelfTestResult,
  CryptoSelfTestResult,
  MediaEngine,
  MediaEngineInfo,
  MediaEngineKind,
} from './MediaEngine.js';
export { MediaEngineError } from './MediaEngineError.js';
export type { MediaEngineErrorCode } from './MediaEngineError.js';
export { NativeMediaEngine } from './native/NativeMediaEngine.js';
export { loadNativeAddon, nativeAddonRemedy } from '../native/loader.js';
export type { LoadNativeAddonOptions, NativeAddonLoadResult } from '../native/loader.js';

import { ErrorType, SdkError } from '@sdkpp/protocol';

/**
 * Why a media-engine call failed. The AEAD codes are the same for both engines (the native ones come from
 * native/napi/errors.cc), so callers never need to know which engine is running.
 */
export type MediaEngineErrorCode =
  /** An argument has the wrong type (not a string, not a Buffer or Uint8Array); Node's own code. */
  | 'ERR_INVALID_ARG_TYPE'
  /** The algorithm is unknown, or the engine's crypto library lacks it. */
  | 'ERR_AEAD_UNSUPPORTED_ALGORITHM'
  /** The key is not the algorithm's key size. */
  | 'ERR_AEAD_INVALID_KEY_SIZE'
  /** The nonce is not the algorithm's nonce size. */
  | 'ERR_AEAD_INVALID_NONCE_SIZE'
  /** The sealed input is shorter than the tag it must end with. */
  | 'ERR_AEAD_CIPHERTEXT_TOO_SHORT'
  /** An input exceeds `AEAD_MAX_INPUT_SIZE`. */
  | 'ERR_AEAD_INPUT_TOO_LARGE'
  /** A caller-provided output buffer is too small (native hot-path API). */
  | 'ERR_AEAD_OUTPUT_TOO_SMALL'
  /** Input and output buffers partly overlap (native hot-path API). */
  | 'ERR_AEAD_OVERLAPPING_BUFFERS'
  /** The tag does not match: the data, AAD, key or nonce differ from what was sealed. */
  | 'ERR_AEAD_AUTHENTICATION_FAILED'
  /** The crypto library failed unexpectedly. */
  | 'ERR_AEAD_BACKEND'
  /** `prefer: 'native'` was asked for, but the addon is missing, broken or stale. */
  | 'ERR_NATIVE_ADDON_UNAVAILABLE'
  /** An RTP header to send is impossible (a field out of range, more than 15 CSRCs, a ragged extension). */
  | 'ERR_RTP_INVALID_HEADER'
  /** The caller's output buffer is too small for the packet. */
  | 'ERR_RTP_OUTPUT_TOO_SMALL'
  /** The payload lies inside the output buffer somewhere other than its final place. */
  | 'ERR_RTP_OVERLAPPING_BUFFERS'
  /** Not one of the transport encryption modes. */
  | 'ERR_RTP_UNSUPPORTED_MODE'
  /** The transport key is not 32 bytes. */
  | 'ERR_RTP_INVALID_KEY_SIZE'
  /** The crypto library failed unexpectedly while sealing. */
  | 'ERR_RTP_BACKEND'
  /** An IP discovery packet to encode has an unknown type. */
  | 'ERR_IP_DISCOVERY_BAD_TYPE'
  /** An IP discovery address to encode is too long, empty in a response, or not an IP address's text. */
  | 'ERR_IP_DISCOVERY_BAD_ADDRESS'
  /** A DAVE sender key (base secret) is not 16 bytes. */
  | 'ERR_DAVE_INVALID_KEY_SIZE'
  /** The crypto library could not make a DAVE encryptor or decryptor. */
  | 'ERR_DAVE_BACKEND'
  /** A number argument is outside its range (a DAVE generation, length or time). */
  | 'ERR_OUT_OF_RANGE'
  /** An audio setting is out of range (a gain, a bitrate, a VAD threshold, a jitter buffer bound). */
  | 'ERR_AUDIO_BAD_ARGUMENT'
  /** The per-user gain table (256 users) is full. */
  | 'ERR_AUDIO_TOO_MANY_USERS'
  /** No Opus codec: the wasm codec's package is missing (the native engine falls back to it without libopus). */
  | 'ERR_OPUS_UNAVAILABLE'
  /** libopus failed to create its state. */
  | 'ERR_OPUS_INTERNAL'
  /** A voice transport setting is outside its range (a gain, a VAD threshold, a delay, an SSRC). */
  | 'ERR_TRANSPORT_BAD_ARGUMENT'
  /** The native transport thread does not run on this platform. */
  | 'ERR_TRANSPORT_UNSUPPORTED_PLATFORM'
  /** The voice transport's UDP socket could not be opened or bound. */
  | 'ERR_TRANSPORT_SOCKET'
  /** `start()` was called on a voice transport that is already running. */
  | 'ERR_TRANSPORT_ALREADY_RUNNING'
  /** The call needs a running voice transport. */
  | 'ERR_TRANSPORT_NOT_RUNNING'
  /** The transport thread's queue is full. */
  | 'ERR_TRANSPORT_QUEUE_FULL'
  /** The transport thread failed unexpectedly. */
  | 'ERR_TRANSPORT_INTERNAL'
  /**
   * No system audio devices: the JS engine has none, or the addon was built without them, or no audio
   * backend (PulseAudio, ALSA, WASAPI, Core Audio) could start. The message says which, and the remedy.
   */
  | 'ERR_SYSTEM_AUDIO_UNAVAILABLE'
  /** No audio device has this id (it was unplugged, or never existed). */
  | 'ERR_AUDIO_DEVICE_NOT_FOUND'
  /** The audio device exists but would not open or start (busy, or a format it refuses). */
  | 'ERR_AUDIO_DEVICE_FAILED'
  /** The system audio was disposed. */
  | 'ERR_SYSTEM_AUDIO_DISPOSED'
  /** No voice processing link has this id (every holder disposed it, or it was never made). */
  | 'ERR_PROCESSING_LINK_NOT_FOUND'
  /** This voice processing link object was disposed. */
  | 'ERR_PROCESSING_LINK_DISPOSED';

const CODES: ReadonlySet<string> = new Set<MediaEngineErrorCode>([
  'ERR_INVALID_ARG_TYPE',
  'ERR_AEAD_UNSUPPORTED_ALGORITHM',
  'ERR_AEAD_INVALID_KEY_SIZE',
  'ERR_AEAD_INVALID_NONCE_SIZE',
  'ERR_AEAD_CIPHERTEXT_TOO_SHORT',
  'ERR_AEAD_INPUT_TOO_LARGE',
  'ERR_AEAD_OUTPUT_TOO_SMALL',
  'ERR_AEAD_OVERLAPPING_BUFFERS',
  'ERR_AEAD_AUTHENTICATION_FAILED',
  'ERR_AEAD_BACKEND',
  'ERR_NATIVE_ADDON_UNAVAILABLE',
  'ERR_RTP_INVALID_HEADER',
  'ERR_RTP_OUTPUT_TOO_SMALL',
  'ERR_RTP_OVERLAPPING_BUFFERS',
  'ERR_RTP_UNSUPPORTED_MODE',
  'ERR_RTP_INVALID_KEY_SIZE',
  'ERR_RTP_BACKEND',
  'ERR_IP_DISCOVERY_BAD_TYPE',
  'ERR_IP_DISCOVERY_BAD_ADDRESS',
  'ERR_DAVE_INVALID_KEY_SIZE',
  'ERR_DAVE_BACKEND',
  'ERR_OUT_OF_RANGE',
  'ERR_AUDIO_BAD_ARGUMENT',
  'ERR_AUDIO_TOO_MANY_USERS',
  'ERR_OPUS_UNAVAILABLE',
  'ERR_OPUS_INTERNAL',
  'ERR_TRANSPORT_BAD_ARGUMENT',
  'ERR_TRANSPORT_UNSUPPORTED_PLATFORM',
  'ERR_TRANSPORT_SOCKET',
  'ERR_TRANSPORT_ALREADY_RUNNING',
  'ERR_TRANSPORT_NOT_RUNNING',
  'ERR_TRANSPORT_QUEUE_FULL',
  'ERR_TRANSPORT_INTERNAL',
  'ERR_SYSTEM_AUDIO_UNAVAILABLE',
  'ERR_AUDIO_DEVICE_NOT_FOUND',
  'ERR_AUDIO_DEVICE_FAILED',
  'ERR_SYSTEM_AUDIO_DISPOSED',
  'ERR_PROCESSING_LINK_NOT_FOUND',
  'ERR_PROCESSING_LINK_DISPOSED',
]);

/**
 * The error every media-engine operation throws; {@link MediaEngineError.code} says why. It is an
 * {@link SdkError} like every other SDK failure, of type `ValidationError`: nearly every code is an argument
 * the engine refused before doing any work, and the bindings' `ClientResult` reported all of them so before.
 */
export class MediaEngineError extends SdkError {
  /** Why the call failed. */
  declare readonly code: MediaEngineErrorCode;

  /**
   * @param code - Why the call failed.
   * @param message - Sizes and names only; never key or payload bytes.
   * @param options - `cause`: the underlying error, kept for debugging.
   */
  constructor(code: MediaEngineErrorCode, message: string, options?: { cause?: unknown }) {
    super(ErrorType.ValidationError, message, { code, cause: options?.cause });
  }

  /** `MediaEngineError[code]`, so a logged stack trace shows the code first. */
  override get name(): string {
    return `MediaEngineError[${this.code}]`;
  }

  /**
   * The same failure as a {@link MediaEngineError} when `error` carries one of its codes (as the addon's
   * errors do); anything else is returned unchanged, so unexpected faults keep their own type.
   */
  static from(error: unknown): unknown {
    if (error instanceof MediaEngineError || !(error instanceof Error) || !('code' in error)) return error;
    const { code } = error;
    if (typeof code !== 'string' || !CODES.has(code)) return error;
    return new MediaEngineError(code as MediaEngineErrorCode, error.message, { cause: error });
  }
}

import type { SystemAudio, VirtualAudio, VoiceProcessingLink } from './devices/types.js';
import type { AeadAlgorithm } from './aead.js';
import type { DaveDecryptor, DaveDecryptorOptions, DaveEncryptor } from './dave/types.js';
import type {
  AudioProcessor,
  AudioProcessorOptions,
  JitterBuffer,
  JitterBufferOptions,
  OpusDecoder,
  OpusEncoder,
  OpusEncoderOptions,
} from './audio/types.js';
import type {
  IpDiscoveryDecodeResult,
  IpDiscoveryPacket,
  RtpHeaderInit,
  RtpParseResult,
  TransportCryptor,
  TransportEncryptionMode,
} from './rtp/types.js';
import type { VoiceTransport, VoiceTransportOptions } from './transport/types.js';

/** Which engine runs the media pipeline. */
export type MediaEngineKind = 'native' | 'js';

/** What an engine is made of; logged at start-up and shown by the SDK's engine-info call. */
export interface MediaEngineInfo {
  /** `'native'` for the C++ addon, `'js'` for the pure-JS engine. */
  readonly engine: MediaEngineKind;
  /** The engine's version: the addon's own, or the package's for the JS engine. */
  readonly version: string;
  /** The crypto library doing the AEAD work. */
  readonly crypto: {
    /** `'OpenSSL'` for the addon, `'node:crypto'` for the JS engine. */
    readonly backend: string;
    /** The library's version string, e.g. `'OpenSSL 3.0.19 27 Jan 2026'`. */
    readonly version: string;
    /**
     * Where the library comes from: `'static'`, linked into the native addon (it runs in any host: Node,
     * Electron, Bun); `'host'`, the OpenSSL of the process (the JS engine's node:crypto, or an addon built
     * without a static libcrypto, which loads in Node only).
     */
    readonly linkage: 'static' | 'host';
  };
  /**
   * The Opus codec in use: `'libopus'` when the native addon was built with it; `'opus-wasm'` (libopus
   * compiled to wasm, from `@evan/opus`) for the JS engine and for a native addon built without libopus.
   */
  readonly codec: {
    /** `'libopus'`, `'opus-wasm'`, or `null` when neither is available (the wasm package is missing). */
    readonly name: 'libopus' | 'opus-wasm' | null;
    /** The codec's version, or `null`. */
    readonly version: string | null;
  };
  /** The algorithms and capabilities available, e.g. `['aes-256-gcm', 'chacha20-poly1305']`. */
  readonly features: readonly string[];
  /**
   * Whether the engine reaches the system's microphones and speakers itself (`createSystemAudio()`), and
   * if not, why: the JS engine has none, and the macOS prebuilds are cross-built without Apple's SDK. Without
   * them the game passes PCM in and out (its own engine's devices).
   */
  readonly systemAudio: {
    /** True when `createSystemAudio()` can open devices in this build. */
    readonly available: boolean;
    /** Why not, when `available` is false; `null` otherwise. */
    readonly reason: string | null;
  };
  /** Why the JS engine runs although the native one was wanted (`prefer: 'auto'`); absent otherwise. */
  readonly fallbackReason?: string;
  /** For the native engine: the `.node` file that was loaded and whether it was a prebuild or a local build. */
  readonly addon?: NativeAddonSource;
}

/**
 * Where a loaded addon came from: a prebuilt binary shipped in the package (`prebuilds/`), a build made
 * on this machine (`build/`, `build-cmake/`), or a file the caller named (`searchPaths`).
 */
export type NativeAddonOrigin = 'prebuild' | 'local-build' | 'search-path';

/** Where the native engine's addon was loaded from; see {@link MediaEngineInfo.addon}. */
export interface NativeAddonSource {
  /** The absolute path of the `.node` file. */
  readonly path: string;
  /** `'prebuild'` (shipped in the package), `'local-build'` (built on this machine) or `'search-path'`. */
  readonly origin: NativeAddonOrigin;
}

/** The self-test outcome for one algorithm. */
export interface AeadSelfTestResult {
  /** The algorithm's node:crypto name (a string, so newer engines can report algorithms added later). */
  readonly algorithm: string;
  /** True when all three checks passed. */
  readonly ok: boolean;
  /** Every published known-answer vector (test/vectors/aead.json) sealed and opened byte-exact. */
  readonly knownAnswer: boolean;
  /** Random data of random lengths, including 0 and 1, survived seal and open. */
  readonly roundTrip: boolean;
  /** A flipped bit in the ciphertext, the tag or the AAD was rejected. */
  readonly rejectsTampering: boolean;
}

/** The outcome of {@link MediaEngine.cryptoSelfTest}. */
export interface CryptoSelfTestResult {
  /** True when every algorithm in {@link MediaEngineInfo.features} passed. */
  readonly ok: boolean;
  /** One entry per supported algorithm. */
  readonly results: readonly AeadSelfTestResult[];
}

/**
 * The media pipeline's engine. The native addon and the pure-JS engine implement the same contract, and
 * the same tests run against both; everything above `src/media` depends on this interface only.
 *
 * Errors are {@link MediaEngineError}s with the same `code` whichever engine runs. When several
 * arguments are wrong at once, which of them is reported is not specified.
 */
export interface MediaEngine {
  /** What this engine is made of; fixed for the engine's lifetime. */
  readonly info: MediaEngineInfo;

  /**
   * Checks the crypto of every supported algorithm against published vectors, random round trips and
   * tampered inputs. Cheap enough (well under a millisecond natively) to run at start-up.
   */
  cryptoSelfTest(): CryptoSelfTestResult;

  /**
   * Encrypts and authenticates `plaintext` in one call.
   *
   * @param algorithm - One of {@link AeadAlgorithm}; others throw `ERR_AEAD_UNSUPPORTED_ALGORITHM`.
   * @param key - Exactly the algorithm's key size (32 bytes), else `ERR_AEAD_INVALID_KEY_SIZE`.
   * @param nonce - Exactly the algorithm's nonce size (12 bytes), else `ERR_AEAD_INVALID_NONCE_SIZE`.
   *   Never reuse a nonce with the same key.
   * @param aad - Authenticated, not encrypted; may be empty.
   * @param plaintext - May be empty.
   * @returns A new Buffer: the ciphertext (as long as the plaintext) followed by the 16-byte tag.
   */
  aeadSeal(
    algorithm: AeadAlgorithm,
    key: Uint8Array,
    nonce: Uint8Array,
    aad: Uint8Array,
    plaintext: Uint8Array,
  ): Buffer;

  /**
   * Authenticates and decrypts what {@link MediaEngine.aeadSeal} produced.
   *
   * @param ciphertextWithTag - Ciphertext followed by its tag; shorter than the tag throws
   *   `ERR_AEAD_CIPHERTEXT_TOO_SHORT`.
   * @returns A new Buffer with the plaintext.
   * @throws MediaEngineError `ERR_AEAD_AUTHENTICATION_FAILED` when anything differs from what was sealed;
   *   no unauthenticated byte is ever returned. Other arguments are checked as in `aeadSeal`.
   */
  aeadOpen(
    algorithm: AeadAlgorithm,
    key: Uint8Array,
    nonce: Uint8Array,
    aad: Uint8Array,
    ciphertextWithTag: Uint8Array,
  ): Buffer;

  /**
   * Creates one voice connection's transport encryption for `mode` and the op 4 `secret_key`.
   *
   * @throws MediaEngineError `ERR_RTP_UNSUPPORTED_MODE` for another mode, `ERR_RTP_INVALID_KEY_SIZE`
   *   unless the key is 32 bytes.
   */
  createTransportCryptor(mode: TransportEncryptionMode, key: Uint8Array): TransportCryptor;

  /**
   * Parses an unencrypted RTP packet (RFC 3550): header, CSRCs, extension, padding. Malformed bytes give
   * `{ ok: false, code }`, never an exception; offsets are into `packet`.
   */
  parseRtpPacket(packet: Uint8Array): RtpParseResult;

  /**
   * Writes an RTP header (fixed part, CSRCs, and the extension preamble and body) at the start of `out`.
   *
   * @returns The bytes written; the payload goes right after them.
   * @throws MediaEngineError `ERR_RTP_INVALID_HEADER` or `ERR_RTP_OUTPUT_TOO_SMALL`.
   */
  writeRtpHeader(header: RtpHeaderInit, out: Uint8Array): number;

  /**
   * Writes a 74-byte IP discovery request or response at the start of `out`.
   *
   * @returns 74.
   * @throws MediaEngineError `ERR_IP_DISCOVERY_BAD_TYPE`, `ERR_IP_DISCOVERY_BAD_ADDRESS`,
   *   `ERR_RTP_INVALID_HEADER` (SSRC or port out of range) or `ERR_RTP_OUTPUT_TOO_SMALL`.
   */
  encodeIpDiscovery(packet: IpDiscoveryPacket, out: Uint8Array): number;

  /** Reads an IP discovery datagram; anything malformed gives `{ ok: false, code }`. */
  decodeIpDiscovery(bytes: Uint8Array): IpDiscoveryDecodeResult;

  /**
   * Creates the local user's DAVE frame encryptor (end-to-end encryption of media frames, dave-e2ee.md
   * §1.7–1.8). It has no key until `setKeyRatchet`; frames then give `ERR_DAVE_NO_KEY` unless passthrough
   * mode is on.
   */
  createDaveEncryptor(): DaveEncryptor;

  /** Creates one remote sender's DAVE frame decryptor; see {@link DaveDecryptorOptions}. */
  createDaveDecryptor(options?: DaveDecryptorOptions): DaveDecryptor;

  /**
   * The DAVE hash ratchet's 16-byte frame key of `generation` (0–65535) for a 16-byte sender key: what
   * both engines derive internally, exposed to check them against published vectors.
   *
   * @throws MediaEngineError `ERR_DAVE_INVALID_KEY_SIZE` or `ERR_OUT_OF_RANGE`.
   */
  daveFrameKey(baseSecret: Uint8Array, generation: number): Buffer;

  /**
   * Creates an Opus encoder (48 kHz, stereo, 20 ms frames) with the codec {@link MediaEngineInfo.codec}
   * names. Its per-frame `encode` writes into a caller-owned buffer and returns a size or a negated code.
   *
   * @throws MediaEngineError `ERR_AUDIO_BAD_ARGUMENT` for an option out of range, `ERR_OPUS_UNAVAILABLE`
   *   when there is no codec at all.
   */
  createOpusEncoder(options?: OpusEncoderOptions): OpusEncoder;

  /** Creates an Opus decoder with packet-loss concealment and FEC; see {@link OpusDecoder}. */
  createOpusDecoder(): OpusDecoder;

  /** Creates one speaker's adaptive jitter buffer; see {@link JitterBuffer}. */
  createJitterBuffer(options?: JitterBufferOptions): JitterBuffer;

  /**
   * Creates the local user's capture and mix state (gain, VAD, push-to-talk, mute, deafen, per-user
   * gains); see {@link AudioProcessor}. `options.now` is its clock, a seam for tests.
   */
  createAudioProcessor(options?: AudioProcessorOptions): AudioProcessor;

  /**
   * Creates one voice connection's transport: UDP socket, IP discovery, 20 ms send pacing, receive,
   * per-SSRC DAVE and jitter buffers, the mix. The native engine runs it on its own thread, so a blocked
   * event loop does not delay packets; the JS engine runs it on timers (see `VoiceTransport`).
   */
  createVoiceTransport(options: VoiceTransportOptions): VoiceTransport;

  /**
   * Opens the system's microphones and speakers (the native engine, through miniaudio). Each call makes a
   * new, independent instance; dispose it when done.
   *
   * @throws MediaEngineError `ERR_SYSTEM_AUDIO_UNAVAILABLE` in the JS engine, in an addon built without
   *   system audio, or when no audio backend starts; its message gives the reason and the remedy (the
   *   game-PCM path, `client.pushAudioInput()`, works in every engine).
   */
  openSystemAudio(): SystemAudio;

  /**
   * Opens, in this thread, the {@link VoiceProcessingLink} another thread made with
   * {@link SystemAudio.createProcessingLink}: a worker thread runs the processing side through it.
   *
   * @throws MediaEngineError `ERR_PROCESSING_LINK_NOT_FOUND` when no link has that id (any more), and
   *   `ERR_SYSTEM_AUDIO_UNAVAILABLE` in the JS engine or an addon without system audio.
   */
  openProcessingLink(id: number): VoiceProcessingLink;

  /**
   * The SDK's virtual devices in a form this engine's voice transports serve on their own thread
   * ({@link VirtualAudio}); undefined where the transport runs on the JavaScript thread anyway (the JS
   * engine) or the addon predates them. A new, independent instance; dispose it when done.
   */
  createVirtualAudio(): VirtualAudio | undefined;
}

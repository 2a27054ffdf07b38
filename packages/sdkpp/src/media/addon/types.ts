import type { NativeSystemAudio, NativeVirtualAudio, NativeVoiceProcessingLink } from './systemAudioTypes.js';
import type {
  AudioProcessorCore,
  JitterBufferCore,
  OpusDecoderCore,
  OpusEncoderCore,
} from '../audio/cores.js';
import type { CryptoSelfTestResult, MediaEngineInfo } from '../MediaEngine.js';
import type { CheckedRtpHeader } from '../rtp/args.js';
import type { NativeVoiceTransportClass } from './transportTypes.js';

/**
 * The JS shape of `sdkpp_native.node` (native/napi). This file is the only place it is typed: everything
 * else reaches the addon through {@link NativeAddon}. Where the addon returns what an engine interface
 * already describes (the audio cores, the crypto self-test), it is typed by that interface, so each
 * shape is declared once.
 */

/**
 * The revision of the addon's JS shape that this code expects; `kAddonAbi` in native/core/version.h.
 * The loader refuses an addon that reports another value, so a stale build is never called into.
 */
export const NATIVE_ADDON_ABI = 7;

/** What `engineInfo()` reports about the build and the libraries it runs on. */
export interface NativeEngineInfo {
  /** Always `'native'`. */
  readonly name: 'native';
  /** The addon's version, equal to the package version it was built from. */
  readonly version: string;
  /** See {@link NATIVE_ADDON_ABI}. */
  readonly abi: number;
  /**
   * The crypto library the addon calls, as the engine reports it ({@link MediaEngineInfo.crypto}), except
   * that older addons do not report `linkage` (the engine then says `'host'`).
   */
  readonly crypto: Omit<MediaEngineInfo['crypto'], 'linkage'> &
    Partial<Pick<MediaEngineInfo['crypto'], 'linkage'>>;
  /** The linked libopus, or `null` while the addon is built without it. */
  readonly opus: { readonly version: string } | null;
  /** The algorithms and capabilities this build supports, e.g. `['aes-256-gcm', 'chacha20-poly1305']`. */
  readonly features: readonly string[];
  /** Whether this build has the system's microphones and speakers ({@link MediaEngineInfo.systemAudio}). */
  readonly systemAudio: MediaEngineInfo['systemAudio'];
  /** Whether the voice transport's own thread runs in this build (its OS's UDP layer and libopus). */
  readonly voiceTransport: boolean;
}

/**
 * The indices of the `Uint32Array` that `TransportCryptor.open()` and `rtpParsePacket()` fill, so that a
 * packet costs no JS object on the native side (`RtpInfoIndex` in native/napi/rtp_args.h).
 */
export const RTP_INFO = Object.freeze({
  nonce: 0,
  bodySize: 1,
  extensionOffset: 2,
  extensionSize: 3,
  payloadOffset: 4,
  payloadSize: 5,
  marker: 6,
  payloadType: 7,
  sequence: 8,
  timestamp: 9,
  ssrc: 10,
  hasExtension: 11,
  extensionProfile: 12,
  extensionWords: 13,
  paddingSize: 14,
  csrcCount: 15,
  csrcs: 16,
  /** The array's length: 16 fixed fields and 15 CSRCs. */
  size: 31,
});

/**
 * A header as the addon reads it: the checked header of rtp/args.ts without the extension body, which is
 * passed separately and sets the word count. The addon range-checks every number again
 * (`ERR_RTP_INVALID_HEADER`).
 */
export type NativeRtpHeader = Omit<CheckedRtpHeader, 'extensionBody'>;

/** `TransportCryptor.stats()`: counters since the cryptor was made. */
export interface NativeTransportStats {
  /** Packets sealed. */
  readonly sealed: number;
  /** The counter the last `seal()` without an explicit nonce used (0 before the first). */
  readonly lastNonce: number;
  /** How many `open()` calls ended with each result, indexed by code (`rtpResultNames()`). */
  readonly results: readonly number[];
}

/** One connection's transport encryption (native/napi/transport_cryptor_wrap.h). */
export interface NativeTransportCryptor {
  /**
   * Seals one packet into `out`. Returns the bytes written, or a negated result code. Without `nonce`,
   * the cryptor's counter is incremented and used.
   */
  seal(
    header: NativeRtpHeader,
    extensionBody: Uint8Array,
    payload: Uint8Array,
    out: Uint8Array,
    nonce?: number,
  ): number;
  /** Opens `packet` into `out`; returns 0 and fills `info` (see {@link RTP_INFO}), or a negated code. */
  open(packet: Uint8Array, out: Uint8Array, info: Uint32Array): number;
  /** See {@link NativeTransportStats}. */
  stats(): NativeTransportStats;
}

/** An IP discovery packet as `ipDiscoveryParse()` returns it. */
export interface NativeIpDiscoveryPacket {
  /** 1 request, 2 response. */
  readonly type: number;
  /** The SSRC field. */
  readonly ssrc: number;
  /** The address text up to its NUL. */
  readonly address: string;
  /** The port field. */
  readonly port: number;
}

/** What every C++ self-test reports: its named checks and whether all passed. */
export interface NativeSelfTestResult {
  /** True when every check passed. */
  readonly ok: boolean;
  /** Each check by name, in the order they ran. */
  readonly checks: readonly { readonly name: string; readonly ok: boolean }[];
}

/** The outcome of `transportSelfTest()`: the C++ unit tests of native/core/rtp. */
export type NativeTransportSelfTestResult = NativeSelfTestResult;

/** The outcome of `audioSelfTest()`: the C++ checks of native/core/audio, above all the allocation count. */
export interface NativeAudioSelfTestResult extends NativeSelfTestResult {
  /**
   * Whether this build counts allocations (linked with GNU ld's `--wrap` for the allocator: a local build on
   * Linux, the Windows prebuild). Without it (the zig-linked Linux and macOS prebuilds) the two allocation
   * checks are left out of `checks`, and the property is the one proven on the builds that count.
   */
  readonly countingAvailable: boolean;
  /** Whether the build has libopus (the measured ticks then include encode and decode). */
  readonly codecAvailable: boolean;
  /** Heap allocations counted across the measured ticks; 0 is the pass mark. */
  readonly allocationsInTicks: number;
  /** How many 20 ms ticks were measured. */
  readonly ticks: number;
}

/** The outcome of `daveSelfTest()`: the C++ checks of native/core/dave. */
export interface NativeDaveSelfTestResult extends NativeSelfTestResult {
  /** Whether this build counts allocations; without it `no-allocation-per-frame` is left out of `checks`. */
  readonly countingAvailable: boolean;
  /** Heap allocations counted across the measured frames; 0 is the pass mark. */
  readonly allocationsInFrames: number;
  /** How many frames were measured (each: encrypt, a forged copy refused, decrypt, a replay refused). */
  readonly frames: number;
}

/** The addon's `DaveEncryptor` (native/napi/dave_wrap.h). */
export interface NativeDaveEncryptor {
  /** Throws `ERR_DAVE_INVALID_KEY_SIZE` unless 16 bytes. */
  setKeyRatchet(baseSecret: Uint8Array): void;
  /** Frames copied unchanged while on. */
  setPassthroughMode(enabled: boolean): void;
  /** The full nonce of the next frame; a safe integer. */
  setNextNonce(nonce: number): void;
  /**
   * Encrypts `frame` into `out`: bytes written (>= 0), -1 for passthrough (the frame's own length), or
   * the negated `dave::Result`. `clearRanges` holds offset/size pairs.
   */
  encrypt(frame: Uint8Array, out: Uint8Array, clearRanges?: Uint32Array): number;
  /** Counters indexed by result code (`daveResultNames()`), and the last nonce used. */
  stats(): { readonly lastNonce: number; readonly results: readonly number[] };
}

/** The addon's `DaveDecryptor`; `nowMs`, when given, is the injected clock's time for that call. */
export interface NativeDaveDecryptor {
  /** Throws `ERR_DAVE_INVALID_KEY_SIZE` unless 16 bytes. */
  transitionToKeyRatchet(baseSecret: Uint8Array, retentionMs: number, nowMs?: number): void;
  /** See `DaveDecryptor.transitionToPassthroughMode`. */
  transitionToPassthroughMode(enabled: boolean, retentionMs: number, nowMs?: number): void;
  /** As `NativeDaveEncryptor.encrypt`. */
  decrypt(frame: Uint8Array, out: Uint8Array, nowMs?: number): number;
  /** Counters indexed by result code. */
  stats(): { readonly results: readonly number[] };
}

/**
 * The addon's exports. Every function checks its arguments and throws a `TypeError` or `RangeError` with
 * `code: 'ERR_INVALID_ARG_TYPE'` or `'ERR_AEAD_…'`, never crashing on a bad length.
 */
export interface NativeAddon {
  /** The addon's version string. */
  version(): string;
  /** Facts about the build; see {@link NativeEngineInfo}. */
  engineInfo(): NativeEngineInfo;
  /** Runs the known-answer, round-trip and tamper checks of every supported algorithm. */
  cryptoSelfTest(): CryptoSelfTestResult;
  /** One-shot AEAD encryption; returns ciphertext followed by the 16-byte tag. */
  aeadSeal(
    algorithm: string,
    key: Uint8Array,
    nonce: Uint8Array,
    aad: Uint8Array,
    plaintext: Uint8Array,
  ): Buffer;
  /** One-shot AEAD decryption of ciphertext followed by its tag; throws when authentication fails. */
  aeadOpen(
    algorithm: string,
    key: Uint8Array,
    nonce: Uint8Array,
    aad: Uint8Array,
    ciphertextWithTag: Uint8Array,
  ): Buffer;
  /** The names of the RTP result codes, indexed by code (`rtp::ResultName`). */
  rtpResultNames(): string[];
  /** Parses an unencrypted RTP packet; 0 and `info` filled, or a negated result code. */
  rtpParsePacket(packet: Uint8Array, info: Uint32Array): number;
  /** Writes the clear header (with the extension preamble); bytes written or a negated code. */
  rtpWriteHeader(header: NativeRtpHeader, extensionWords: number, out: Uint8Array): number;
  /** Writes a 74-byte IP discovery packet; bytes written or a negated code. */
  ipDiscoveryWrite(type: number, ssrc: number, address: string, port: number, out: Uint8Array): number;
  /** Reads an IP discovery packet, or returns a negated code. */
  ipDiscoveryParse(packet: Uint8Array): NativeIpDiscoveryPacket | number;
  /** Runs the C++ unit tests of native/core/rtp. */
  transportSelfTest(): NativeTransportSelfTestResult;
  /** One transport cryptor per connection and key; throws `ERR_RTP_UNSUPPORTED_MODE` or `ERR_RTP_INVALID_KEY_SIZE`. */
  TransportCryptor: new (mode: string, key: Uint8Array) => NativeTransportCryptor;
  /** The names of the DAVE result codes, indexed by code (`dave::ResultName`). */
  daveResultNames(): string[];
  /** The DAVE hash ratchet's 16-byte key of `generation` for a 16-byte base secret. */
  daveFrameKey(baseSecret: Uint8Array, generation: number): Buffer;
  /** HKDF-Extract with SHA-256 (RFC 5869): the 32-byte PRK. */
  hkdfSha256Extract(salt: Uint8Array, ikm: Uint8Array): Buffer;
  /** HKDF-Expand with SHA-256 (RFC 5869); `length` 1–8160, `info` at most 256 bytes. */
  hkdfSha256Expand(prk: Uint8Array, info: Uint8Array, length: number): Buffer;
  /** Runs the C++ checks of native/core/dave, above all that a steady-state frame allocates nothing. */
  daveSelfTest(): NativeDaveSelfTestResult;
  /**
   * P-256 for the DAVE session's MLS cipher suite (keys as a 32-byte scalar and a 65-byte uncompressed point),
   * present only when the addon's libcrypto has EC. Sign, shared secret and public point throw a `RangeError`
   * with `code: 'ERR_P256_INVALID_KEY'` for a key they cannot use; verification answers false instead.
   */
  p256Sign?: (scalar: Uint8Array, message: Uint8Array) => Buffer;
  /** Whether `signature` (DER ECDSA-SHA256) of `message` is `point`'s; see {@link NativeAddon.p256Sign}. */
  p256Verify?: (point: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;
  /** The 32-byte x coordinate of scalar·point; see {@link NativeAddon.p256Sign}. */
  p256SharedSecret?: (scalar: Uint8Array, point: Uint8Array) => Buffer;
  /** A fresh key pair: [scalar, point]; see {@link NativeAddon.p256Sign}. */
  p256Generate?: () => [Buffer, Buffer];
  /** The public point of a scalar; see {@link NativeAddon.p256Sign}. */
  p256PublicPoint?: (scalar: Uint8Array) => Buffer;
  /** The local user's DAVE frame encryption. */
  DaveEncryptor: new () => NativeDaveEncryptor;
  /** One remote sender's DAVE frame decryption; `passthrough` lets plain frames pass at first. */
  DaveDecryptor: new (passthrough: boolean) => NativeDaveDecryptor;
  /** The names of the audio result codes, indexed by code (`audio::AudioResultName`). */
  audioResultNames(): string[];
  /** Runs the C++ checks of native/core/audio (the no-allocation-per-tick test). */
  audioSelfTest(): NativeAudioSelfTestResult;
  /** Throws `ERR_OPUS_UNAVAILABLE` in a build without libopus (`engineInfo().opus === null`). */
  OpusEncoder: new (
    bitrate: number,
    inbandFec: boolean,
    packetLossPercent: number,
    voip: boolean,
  ) => OpusEncoderCore;
  /** Throws `ERR_OPUS_UNAVAILABLE` in a build without libopus. */
  OpusDecoder: new () => OpusDecoderCore;
  /** One speaker's jitter buffer. */
  JitterBuffer: new (minDelayFrames: number, maxDelayFrames: number) => JitterBufferCore;
  /** The local user's capture and mix state. */
  AudioProcessor: new () => AudioProcessorCore;
  /** The transport thread of one voice connection; throws `ERR_OPUS_UNAVAILABLE` without libopus. */
  VoiceTransport: NativeVoiceTransportClass;
  /** Whether this build carries system audio devices (miniaudio). Absent in addons built before it. */
  systemAudioBuilt?: () => boolean;
  /** The system's devices; throws `ERR_SYSTEM_AUDIO_UNAVAILABLE` when no backend starts. */
  SystemAudio?: new () => NativeSystemAudio;
  /**
   * Voice processing between the system devices and a transport: made on a SystemAudio, or opened by id
   * in another thread (throws `ERR_PROCESSING_LINK_NOT_FOUND`). Absent in addons built before it.
   */
  VoiceProcessingLink?: new (from: NativeSystemAudio | number) => NativeVoiceProcessingLink;
  /** The SDK's virtual devices for a transport's thread to serve (absent in an addon older than them). */
  VirtualAudio?: new () => NativeVirtualAudio;
}

export type { NativeSystemAudio, NativeVirtualAudio, NativeVoiceProcessingLink } from './systemAudioTypes.js';

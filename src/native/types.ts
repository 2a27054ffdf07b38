/**
 * The JS shape of `sdkpp_native.node` (native/napi). This file is the only place it is typed: everything
 * else reaches the addon through {@link NativeAddon}.
 */

/**
 * The revision of the addon's JS shape that this code expects; `kAddonAbi` in native/core/version.h.
 * The loader refuses an addon that reports another value, so a stale build is never called into.
 */
export const NATIVE_ADDON_ABI = 1;

/** What `engineInfo()` reports about the build and the libraries it runs on. */
export interface NativeEngineInfo {
  /** Always `'native'`. */
  readonly name: 'native';
  /** The addon's version, equal to the package version it was built from. */
  readonly version: string;
  /** See {@link NATIVE_ADDON_ABI}. */
  readonly abi: number;
  /** The crypto library the addon calls, as the running process provides it. */
  readonly crypto: {
    /** The library's name, e.g. `'OpenSSL'`. */
    readonly backend: string;
    /** Its own version string, e.g. `'OpenSSL 3.0.19 27 Jan 2026'`. */
    readonly version: string;
  };
  /** The linked libopus, or `null` while the addon is built without it. */
  readonly opus: { readonly version: string } | null;
  /** The algorithms and capabilities this build supports, e.g. `['aes-256-gcm', 'chacha20-poly1305']`. */
  readonly features: readonly string[];
}

/** The outcome of the native self-test for one algorithm. */
export interface NativeAeadSelfTestResult {
  /** The algorithm's node:crypto name. */
  readonly algorithm: string;
  /** True when all three checks passed. */
  readonly ok: boolean;
  /** Every published vector sealed and opened byte-exact. */
  readonly knownAnswer: boolean;
  /** Random data of random lengths survived seal and open. */
  readonly roundTrip: boolean;
  /** Tampered ciphertext, tag and AAD were all rejected. */
  readonly rejectsTampering: boolean;
}

/** The outcome of `cryptoSelfTest()`. */
export interface NativeCryptoSelfTestResult {
  /** True when every supported algorithm passed. */
  readonly ok: boolean;
  /** One entry per supported algorithm. */
  readonly results: readonly NativeAeadSelfTestResult[];
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
  cryptoSelfTest(): NativeCryptoSelfTestResult;
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
}

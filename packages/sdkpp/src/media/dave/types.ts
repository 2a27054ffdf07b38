/**
 * Every outcome of encrypting or decrypting one DAVE frame, indexed by the native `dave::Result` value (a
 * test keeps the two lists equal). `'OK'` and `'PASSTHROUGH'` are successes; the rest are
 * {@link DaveResultCode}s.
 */
export const DAVE_RESULTS = [
  'OK',
  'PASSTHROUGH',
  'ERR_DAVE_FRAME_TOO_SHORT',
  'ERR_DAVE_BAD_MARKER',
  'ERR_DAVE_BAD_SUPPLEMENTAL_SIZE',
  'ERR_DAVE_BAD_NONCE',
  'ERR_DAVE_BAD_RANGES',
  'ERR_DAVE_AUTHENTICATION_FAILED',
  'ERR_DAVE_REPLAYED_NONCE',
  'ERR_DAVE_GENERATION_TOO_FAR_AHEAD',
  'ERR_DAVE_KEY_EXPIRED',
  'ERR_DAVE_NO_KEY',
  'ERR_DAVE_OUTPUT_TOO_SMALL',
  'ERR_DAVE_OVERLAPPING_BUFFERS',
  'ERR_DAVE_BACKEND',
] as const;

/**
 * Why a frame was refused. Malformed or hostile frames are a result, never an exception:
 * - `ERR_DAVE_FRAME_TOO_SHORT`: shorter than the smallest footer (11 bytes), passthrough off.
 * - `ERR_DAVE_BAD_MARKER`: no `FA FA` at the end (a plain frame), passthrough off.
 * - `ERR_DAVE_BAD_SUPPLEMENTAL_SIZE`: the size byte is below 11 or beyond the frame.
 * - `ERR_DAVE_BAD_NONCE`: the nonce is not a ULEB128 inside the footer, or exceeds 32 bits.
 * - `ERR_DAVE_BAD_RANGES`: the clear ranges are bad ULEB128, out of order, overlapping or past the end
 *   (encrypting: more than fit a one-byte footer size).
 * - `ERR_DAVE_AUTHENTICATION_FAILED`: the 8-byte tag does not match (wrong key, altered byte).
 * - `ERR_DAVE_REPLAYED_NONCE`: the nonce was already accepted, or is below the 1024-nonce window.
 * - `ERR_DAVE_GENERATION_TOO_FAR_AHEAD`: the key generation is over 250 past the newest seen.
 * - `ERR_DAVE_KEY_EXPIRED`: the generation's or epoch's key was erased after its 10 s retention.
 * - `ERR_DAVE_NO_KEY`: no key ratchet yet, and passthrough off (or a DAVE frame).
 * - `ERR_DAVE_OUTPUT_TOO_SMALL`, `ERR_DAVE_OVERLAPPING_BUFFERS`: the caller's output buffer.
 * - `ERR_DAVE_BACKEND`: the crypto library failed unexpectedly.
 */
export type DaveResultCode = Exclude<(typeof DAVE_RESULTS)[number], 'OK' | 'PASSTHROUGH'>;

/** A DAVE sender key (the MLS exporter's output for one member and epoch) is 16 bytes. */
export const DAVE_BASE_SECRET_SIZE = 16;

/** How long superseded keys (older generations, older epochs) and passthrough keep working: 10 s. */
export const DAVE_KEY_RETENTION_MS = 10_000;

/** Frames may name a key generation at most this far past the newest one seen. */
export const DAVE_MAX_GENERATION_GAP = 250;

/** The most a DAVE footer can add to a frame (the supplemental size is one byte). */
export const DAVE_MAX_OVERHEAD = 255;

/** A span of a frame left unencrypted (video codecs' headers); Opus frames have none. */
export interface DaveRange {
  /** Where the clear bytes start. */
  readonly offset: number;
  /** How many there are. */
  readonly size: number;
}

/**
 * One frame's outcome. On success `length` bytes of `out` hold the result; `passthrough` says the frame
 * was copied unchanged (the silence frame, or passthrough mode). On failure `out` holds no plaintext.
 */
export type DaveFrameResult =
  | {
      /** The frame was encrypted, decrypted or passed through. */
      readonly ok: true;
      /** How many bytes of `out` hold the result. */
      readonly length: number;
      /** True when the frame was copied unchanged rather than encrypted or decrypted. */
      readonly passthrough: boolean;
    }
  | {
      /** The frame was refused; `out` holds no plaintext. */
      readonly ok: false;
      /** Why it was refused. */
      readonly code: DaveResultCode;
    };

/** Counters since the encryptor or decryptor was created. */
export interface DaveStats {
  /** Frames encrypted or decrypted. */
  readonly ok: number;
  /** Frames copied unchanged. */
  readonly passthrough: number;
  /** Refused frames by reason, every code present (0 when it never happened). */
  readonly failures: Readonly<Record<DaveResultCode, number>>;
}

/**
 * The local user's DAVE frame encryption (dave-e2ee.md §1.7–1.8): AES-128-GCM with an 8-byte tag, the
 * 32-bit nonce (first 1, key generation in its top byte) and the footer
 * `tag ‖ ULEB128 nonce ‖ ULEB128 ranges ‖ size ‖ FA FA`. Not thread-safe; one per outgoing stream.
 */
export interface DaveEncryptor {
  /**
   * Uses a new epoch's sender key from now on; the nonce restarts at 1.
   * @throws MediaEngineError `ERR_DAVE_INVALID_KEY_SIZE` unless 16 bytes.
   */
  setKeyRatchet(baseSecret: Uint8Array): void;
  /** On: frames are copied unchanged (protocol version 0, a call without end-to-end encryption). */
  setPassthroughMode(enabled: boolean): void;
  /**
   * The full nonce the next frame uses (its bits from 24 up are the key generation). For resuming and for
   * tests of key rotation; the platform's clients never skip nonces.
   */
  setNextNonce(nonce: number): void;
  /** The size `out` needs for a frame of `frameLength` bytes with these clear ranges. */
  maxEncryptedLength(frameLength: number, clearRanges?: readonly DaveRange[]): number;
  /**
   * Encrypts `frame` into `out` (caller-owned, reusable; exactly `frame`'s own memory is allowed).
   * @param clearRanges - Ascending, non-overlapping spans to leave in clear; none for Opus.
   */
  encrypt(frame: Uint8Array, out: Uint8Array, clearRanges?: readonly DaveRange[]): DaveFrameResult;
  /** See {@link DaveStats}, plus the nonce of the last frame encrypted. */
  stats(): DaveStats & {
    /** The nonce of the last frame encrypted (0 before any). */
    readonly lastNonce: number;
  };
}

/**
 * One remote sender's DAVE frame decryption: the sender's key ratchet of the current epoch and, for
 * 10 s after a transition, of earlier ones; a 1024-nonce replay window; superseded generations' keys
 * erased 10 s after a newer one decrypts; passthrough windows. Never throws for a frame's contents.
 */
export interface DaveDecryptor {
  /**
   * The sender's key for a new epoch. Earlier epochs keep decrypting for `retentionMs`.
   * @throws MediaEngineError `ERR_DAVE_INVALID_KEY_SIZE` unless 16 bytes.
   */
  transitionToKeyRatchet(baseSecret: Uint8Array, retentionMs?: number): void;
  /**
   * On: plain frames pass from now on. Off: they still pass for `retentionMs` (frames in flight when the
   * call upgraded to DAVE), then give `ERR_DAVE_BAD_MARKER` / `ERR_DAVE_FRAME_TOO_SHORT`.
   */
  transitionToPassthroughMode(enabled: boolean, retentionMs?: number): void;
  /** Decrypts `frame` into `out` (at least `frame.length` bytes, or `frame` itself). */
  decrypt(frame: Uint8Array, out: Uint8Array): DaveFrameResult;
  /** See {@link DaveStats}. */
  stats(): DaveStats;
}

/** Options of `MediaEngine.createDaveDecryptor`. */
export interface DaveDecryptorOptions {
  /** Whether plain frames pass before any transition. @defaultValue false */
  readonly passthrough?: boolean;
  /**
   * The clock in milliseconds, for key retention and passthrough windows. Inject one to test expiry
   * without waiting. @defaultValue a monotonic clock
   */
  readonly now?: () => number;
}

/** A stats record with every failure code at 0. */
export function emptyDaveFailureCounts(): Record<DaveResultCode, number> {
  const counts = {} as Record<DaveResultCode, number>;
  for (const code of DAVE_RESULTS) if (code !== 'OK' && code !== 'PASSTHROUGH') counts[code] = 0;
  return counts;
}

import type {
  NativeAddon,
  NativeDaveDecryptor as AddonDecryptor,
  NativeDaveEncryptor as AddonEncryptor,
} from '../addon/types.js';
import { baseSecretArg, nextNonceArg, rangePairs, retentionArg } from '../dave/args.js';
import {
  DAVE_MAX_OVERHEAD,
  DAVE_RESULTS,
  emptyDaveFailureCounts,
  type DaveDecryptor,
  type DaveDecryptorOptions,
  type DaveEncryptor,
  type DaveFrameResult,
  type DaveRange,
  type DaveResultCode,
  type DaveStats,
} from '../dave/types.js';
import { MediaEngineError } from '../MediaEngineError.js';
import { bytesArg } from '../rtp/args.js';

// The addon returns a number per frame: >= 0 bytes written, -1 passthrough (the frame's own length),
// below that the negated result code. These turn it into the shared result shape.
const PASSTHROUGH = -1;
const ODD_PAIRS = new Uint32Array(1);

function frameResult(value: number, frameLength: number): DaveFrameResult {
  if (value >= 0) return { ok: true, length: value, passthrough: false };
  if (value === PASSTHROUGH) return { ok: true, length: frameLength, passthrough: true };
  return { ok: false, code: (DAVE_RESULTS[-value] ?? 'ERR_DAVE_BACKEND') as DaveResultCode };
}

function statsFrom(results: readonly number[]): DaveStats {
  const failures = emptyDaveFailureCounts();
  DAVE_RESULTS.forEach((name, index) => {
    if (name !== 'OK' && name !== 'PASSTHROUGH') failures[name] = results[index] ?? 0;
  });
  return { ok: results[0] ?? 0, passthrough: results[1] ?? 0, failures };
}

function create<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw MediaEngineError.from(error);
  }
}

/** The native engine's DAVE encryptor: a thin shell over the addon's `DaveEncryptor`. */
export class NativeDaveEncryptor implements DaveEncryptor {
  readonly #encryptor: AddonEncryptor;

  /** @param addon - The loaded addon. */
  constructor(addon: NativeAddon) {
    this.#encryptor = create(() => new addon.DaveEncryptor());
  }

  /** {@inheritDoc DaveEncryptor.setKeyRatchet} */
  setKeyRatchet(baseSecret: Uint8Array): void {
    this.#encryptor.setKeyRatchet(baseSecretArg(baseSecret));
  }

  /** {@inheritDoc DaveEncryptor.setPassthroughMode} */
  setPassthroughMode(enabled: boolean): void {
    this.#encryptor.setPassthroughMode(enabled);
  }

  /** {@inheritDoc DaveEncryptor.setNextNonce} */
  setNextNonce(nonce: number): void {
    this.#encryptor.setNextNonce(nextNonceArg(nonce));
  }

  /** {@inheritDoc DaveEncryptor.maxEncryptedLength} */
  maxEncryptedLength(frameLength: number, clearRanges?: readonly DaveRange[]): number {
    return frameLength + Math.min(DAVE_MAX_OVERHEAD, 16 + 20 * (clearRanges?.length ?? 0));
  }

  /** {@inheritDoc DaveEncryptor.encrypt} */
  encrypt(frame: Uint8Array, out: Uint8Array, clearRanges?: readonly DaveRange[]): DaveFrameResult {
    const input = bytesArg(frame, 'frame');
    const target = bytesArg(out, 'out');
    const pairs = rangePairs(clearRanges);
    // Ranges that are not even integers go down as an odd-length list, which the addon refuses and
    // counts like any other bad ranges.
    const value = this.#encryptor.encrypt(input, target, pairs === null ? ODD_PAIRS : pairs);
    return frameResult(value, input.length);
  }

  /** {@inheritDoc DaveEncryptor.stats} */
  stats(): DaveStats & { readonly lastNonce: number } {
    const native = this.#encryptor.stats();
    return { ...statsFrom(native.results), lastNonce: native.lastNonce };
  }
}

/** The native engine's DAVE decryptor: a thin shell over the addon's `DaveDecryptor`. */
export class NativeDaveDecryptor implements DaveDecryptor {
  readonly #decryptor: AddonDecryptor;
  readonly #now: (() => number) | undefined;

  /** @param addon - The loaded addon. @param options - See {@link DaveDecryptorOptions}. */
  constructor(addon: NativeAddon, options: DaveDecryptorOptions = {}) {
    this.#now = options.now;
    this.#decryptor = create(() => new addon.DaveDecryptor(options.passthrough === true));
  }

  /** {@inheritDoc DaveDecryptor.transitionToKeyRatchet} */
  transitionToKeyRatchet(baseSecret: Uint8Array, retentionMs?: number): void {
    this.#decryptor.transitionToKeyRatchet(
      baseSecretArg(baseSecret),
      retentionArg(retentionMs),
      this.#now?.(),
    );
  }

  /** {@inheritDoc DaveDecryptor.transitionToPassthroughMode} */
  transitionToPassthroughMode(enabled: boolean, retentionMs?: number): void {
    this.#decryptor.transitionToPassthroughMode(enabled, retentionArg(retentionMs), this.#now?.());
  }

  /** {@inheritDoc DaveDecryptor.decrypt} */
  decrypt(frame: Uint8Array, out: Uint8Array): DaveFrameResult {
    const input = bytesArg(frame, 'frame');
    const value = this.#decryptor.decrypt(input, bytesArg(out, 'out'), this.#now?.());
    return frameResult(value, input.length);
  }

  /** {@inheritDoc DaveDecryptor.stats} */
  stats(): DaveStats {
    return statsFrom(this.#decryptor.stats().results);
  }
}

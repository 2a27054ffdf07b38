import { performance } from 'node:perf_hooks';

import { baseSecretArg, retentionArg } from '../args.js';
import {
  emptyDaveFailureCounts,
  type DaveDecryptor,
  type DaveDecryptorOptions,
  type DaveFrameResult,
  type DaveResultCode,
  type DaveStats,
} from '../types.js';
import { bytesArg } from '../../rtp/args.js';
import { EpochKeys } from './epochKeys.js';
import { isOpusSilenceFrame, overlapsPartially, parseFrame } from './frame.js';

const EPOCHS = 4;

/**
 * The JS engine's DAVE decryptor: the same contract, windows, results and counters as
 * native/core/dave/decryptor.cc, with node:crypto's AES-128-GCM.
 */
export class JsDaveDecryptor implements DaveDecryptor {
  readonly #now: () => number;
  // Oldest first; the last one is the current epoch.
  readonly #epochs: EpochKeys[] = [];
  #passthroughForever: boolean;
  #passthroughUntil = -Infinity;
  #ok = 0;
  #passthrough = 0;
  readonly #failures = emptyDaveFailureCounts();

  /** @param options - See {@link DaveDecryptorOptions}. */
  constructor(options: DaveDecryptorOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#passthroughForever = options.passthrough === true;
  }

  /** {@inheritDoc DaveDecryptor.transitionToKeyRatchet} */
  transitionToKeyRatchet(baseSecret: Uint8Array, retentionMs?: number): void {
    const key = baseSecretArg(baseSecret);
    const retention = retentionArg(retentionMs);
    const now = this.#now();
    for (const epoch of this.#epochs) epoch.expiry = Math.min(epoch.expiry, now + retention);
    this.#drop(now);
    if (this.#epochs.length === EPOCHS) this.#epochs.shift();
    this.#epochs.push(new EpochKeys(key));
  }

  /** {@inheritDoc DaveDecryptor.transitionToPassthroughMode} */
  transitionToPassthroughMode(enabled: boolean, retentionMs?: number): void {
    const retention = retentionArg(retentionMs);
    if (enabled) {
      this.#passthroughForever = true;
      return;
    }
    const until = this.#now() + retention;
    if (this.#passthroughForever) {
      this.#passthroughForever = false;
      this.#passthroughUntil = until;
    } else {
      this.#passthroughUntil = Math.min(this.#passthroughUntil, until);
    }
  }

  /** {@inheritDoc DaveDecryptor.decrypt} */
  decrypt(frame: Uint8Array, out: Uint8Array): DaveFrameResult {
    const input = bytesArg(frame, 'frame');
    const target = bytesArg(out, 'out');
    const result = this.#decrypt(input, target);
    if (!result.ok) this.#failures[result.code]++;
    else if (result.passthrough) this.#passthrough++;
    else this.#ok++;
    return result;
  }

  /** {@inheritDoc DaveDecryptor.stats} */
  stats(): DaveStats {
    return { ok: this.#ok, passthrough: this.#passthrough, failures: { ...this.#failures } };
  }

  #decrypt(frame: Uint8Array, out: Uint8Array): DaveFrameResult {
    if (out.length < frame.length) return failure('ERR_DAVE_OUTPUT_TOO_SMALL');
    if (overlapsPartially(frame, out, frame.length)) return failure('ERR_DAVE_OVERLAPPING_BUFFERS');
    const now = this.#now();
    if (isOpusSilenceFrame(frame)) return copyThrough(frame, out);
    this.#drop(now);
    const parsed = parseFrame(frame);
    if (typeof parsed === 'string') {
      const passthrough = this.#passthroughForever || now < this.#passthroughUntil;
      return passthrough ? copyThrough(frame, out) : failure(parsed);
    }
    const newest = this.#epochs.at(-1);
    if (newest === undefined) return failure('ERR_DAVE_NO_KEY');
    let code = newest.decrypt(parsed, frame, out, now);
    for (let i = this.#epochs.length - 2; i >= 0 && code !== null; i--) {
      const epoch = this.#epochs[i];
      if (epoch === undefined) continue;
      const older = epoch.decrypt(parsed, frame, out, now);
      // Report the most telling failure: a wrong key in one epoch says less than a replay in another.
      if (older === null || code === 'ERR_DAVE_AUTHENTICATION_FAILED') code = older;
    }
    return code === null ? { ok: true, length: parsed.interleavedLength, passthrough: false } : failure(code);
  }

  #drop(now: number): void {
    for (let i = this.#epochs.length - 1; i >= 0; i--) {
      const epoch = this.#epochs[i];
      if (epoch === undefined || epoch.expiry <= now) this.#epochs.splice(i, 1);
      else epoch.dropExpired(now);
    }
  }
}

function copyThrough(frame: Uint8Array, out: Uint8Array): DaveFrameResult {
  out.set(frame);
  return { ok: true, length: frame.length, passthrough: true };
}

function failure(code: DaveResultCode): DaveFrameResult {
  return { ok: false, code };
}

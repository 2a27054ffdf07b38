import { createCipheriv, createSecretKey, type KeyObject } from 'node:crypto';

import { baseSecretArg, nextNonceArg, rangePairs } from '../args.js';
import {
  DAVE_MAX_OVERHEAD,
  emptyDaveFailureCounts,
  type DaveEncryptor,
  type DaveFrameResult,
  type DaveRange,
  type DaveResultCode,
  type DaveStats,
} from '../types.js';
import { bytesArg } from '../../rtp/args.js';
import {
  clearBytes,
  encryptedSpans,
  footerSize,
  isOpusSilenceFrame,
  nonceToIv,
  overlapsPartially,
  rangesValid,
  TAG_SIZE,
  writeFooterAfterTag,
} from './frame.js';
import { HashRatchet } from './hashRatchet.js';

const GENERATION_SHIFT = 2 ** 24;

/**
 * The JS engine's DAVE encryptor: the same contract, frames, results and counters as
 * native/core/dave/encryptor.cc, with node:crypto's AES-128-GCM (a cipher object per frame).
 */
export class JsDaveEncryptor implements DaveEncryptor {
  #base: Buffer | null = null;
  #ratchet: HashRatchet | null = null;
  #key: KeyObject | null = null;
  #keyGeneration = -1;
  #nextNonce = 1;
  #passthroughMode = false;
  #ok = 0;
  #passthrough = 0;
  readonly #failures = emptyDaveFailureCounts();

  /** {@inheritDoc DaveEncryptor.setKeyRatchet} */
  setKeyRatchet(baseSecret: Uint8Array): void {
    this.#base = Buffer.from(baseSecretArg(baseSecret));
    this.#ratchet = new HashRatchet(this.#base);
    this.#key = null;
    this.#keyGeneration = -1;
    this.#nextNonce = 1;
  }

  /** {@inheritDoc DaveEncryptor.setPassthroughMode} */
  setPassthroughMode(enabled: boolean): void {
    this.#passthroughMode = enabled;
  }

  /** {@inheritDoc DaveEncryptor.setNextNonce} */
  setNextNonce(nonce: number): void {
    const checked = nextNonceArg(nonce);
    this.#nextNonce = checked === 0 ? 1 : checked;
  }

  /** {@inheritDoc DaveEncryptor.maxEncryptedLength} */
  maxEncryptedLength(frameLength: number, clearRanges?: readonly DaveRange[]): number {
    return frameLength + Math.min(DAVE_MAX_OVERHEAD, 16 + 20 * (clearRanges?.length ?? 0));
  }

  /** {@inheritDoc DaveEncryptor.encrypt} */
  encrypt(frame: Uint8Array, out: Uint8Array, clearRanges?: readonly DaveRange[]): DaveFrameResult {
    const input = bytesArg(frame, 'frame');
    const target = bytesArg(out, 'out');
    const result = this.#encrypt(input, target, clearRanges);
    if (!result.ok) this.#failures[result.code]++;
    else if (result.passthrough) this.#passthrough++;
    else this.#ok++;
    return result;
  }

  /** {@inheritDoc DaveEncryptor.stats} */
  stats(): DaveStats & { readonly lastNonce: number } {
    return {
      ok: this.#ok,
      passthrough: this.#passthrough,
      failures: { ...this.#failures },
      lastNonce: this.#nextNonce - 1,
    };
  }

  #encrypt(frame: Uint8Array, out: Uint8Array, clearRanges?: readonly DaveRange[]): DaveFrameResult {
    if (this.#passthroughMode || isOpusSilenceFrame(frame)) {
      if (out.length < frame.length) return failure('ERR_DAVE_OUTPUT_TOO_SMALL');
      if (overlapsPartially(frame, out, frame.length)) return failure('ERR_DAVE_OVERLAPPING_BUFFERS');
      out.set(frame);
      return { ok: true, length: frame.length, passthrough: true };
    }
    if (this.#ratchet === null || this.#base === null) return failure('ERR_DAVE_NO_KEY');
    const ranges = clearRanges ?? [];
    if (rangePairs(ranges) === null || !rangesValid(ranges, frame.length)) {
      return failure('ERR_DAVE_BAD_RANGES');
    }
    const fullNonce = this.#nextNonce;
    const nonce = fullNonce % 2 ** 32;
    const footer = footerSize(nonce, ranges);
    if (footer === null) return failure('ERR_DAVE_BAD_RANGES');
    const length = frame.length + footer;
    if (out.length < length) return failure('ERR_DAVE_OUTPUT_TOO_SMALL');
    if (overlapsPartially(frame, out, length)) return failure('ERR_DAVE_OVERLAPPING_BUFFERS');
    const key = this.#keyFor(Math.floor(fullNonce / GENERATION_SHIFT));
    try {
      const cipher = createCipheriv('aes-128-gcm', key, nonceToIv(nonce), { authTagLength: TAG_SIZE });
      if (ranges.length > 0) cipher.setAAD(clearBytes(frame, ranges));
      const spans = encryptedSpans(ranges, frame.length);
      // Each span's ciphertext is computed before anything is written, so in place works too.
      const pieces = spans.map(({ offset, size }) => cipher.update(frame.subarray(offset, offset + size)));
      cipher.final();
      if (out.buffer !== frame.buffer || out.byteOffset !== frame.byteOffset) {
        for (const { offset, size } of ranges) out.set(frame.subarray(offset, offset + size), offset);
      }
      spans.forEach(({ offset }, i) => out.set(pieces[i] ?? new Uint8Array(0), offset));
      out.set(cipher.getAuthTag(), frame.length);
    } catch {
      return failure('ERR_DAVE_BACKEND');
    }
    writeFooterAfterTag(nonce, ranges, footer, out, frame.length);
    this.#nextNonce++;
    return { ok: true, length, passthrough: false };
  }

  #keyFor(generation: number): KeyObject {
    if (this.#key !== null && generation === this.#keyGeneration) return this.#key;
    if (this.#ratchet === null || this.#base === null) throw new Error('unreachable: no ratchet');
    if (generation < this.#ratchet.nextGeneration) this.#ratchet = new HashRatchet(this.#base);
    this.#key = createSecretKey(this.#ratchet.advanceTo(generation));
    this.#keyGeneration = generation;
    return this.#key;
  }
}

function failure(code: DaveResultCode): DaveFrameResult {
  return { ok: false, code };
}

import { MediaEngineError } from '../MediaEngineError.js';
import { bytesArg } from '../rtp/args.js';
import { DAVE_BASE_SECRET_SIZE, DAVE_KEY_RETENTION_MS, type DaveRange } from './types.js';

// Argument checks shared by both engines, so a wrong call fails alike whichever engine runs. Frame
// contents are never checked here: they are results, not exceptions.

/** A 16-byte sender key, else `ERR_DAVE_INVALID_KEY_SIZE`. */
export function baseSecretArg(value: unknown): Uint8Array {
  const key = bytesArg(value, 'baseSecret');
  if (key.length !== DAVE_BASE_SECRET_SIZE) {
    throw new MediaEngineError(
      'ERR_DAVE_INVALID_KEY_SIZE',
      `A DAVE sender key is ${DAVE_BASE_SECRET_SIZE} bytes, got ${key.length}`,
    );
  }
  return key;
}

/** A retention in milliseconds (default 10 s), a finite number. */
export function retentionArg(value: unknown): number {
  if (value === undefined) return DAVE_KEY_RETENTION_MS;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new MediaEngineError('ERR_INVALID_ARG_TYPE', 'The "retentionMs" argument must be a finite number');
  }
  return Math.trunc(value);
}

/** A ratchet generation for `daveFrameKey`: an integer 0–65535. */
export function generationArg(value: unknown): number {
  if (typeof value !== 'number') {
    throw new MediaEngineError('ERR_INVALID_ARG_TYPE', 'The "generation" argument must be a number');
  }
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) {
    throw new MediaEngineError('ERR_OUT_OF_RANGE', 'The "generation" must be an integer 0-65535');
  }
  return value;
}

/** A safe non-negative integer nonce. */
export function nextNonceArg(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new MediaEngineError(
      'ERR_INVALID_ARG_TYPE',
      'The "nonce" argument must be a safe non-negative integer',
    );
  }
  return value;
}

/**
 * Clear ranges as offset/size pairs, or `null` when they are not integers in 0..2^32-1 (the encryptor
 * then reports `ERR_DAVE_BAD_RANGES`, as for ranges out of order).
 */
export function rangePairs(ranges: readonly DaveRange[] | undefined): Uint32Array | null | undefined {
  if (ranges === undefined || ranges.length === 0) return undefined;
  const pairs = new Uint32Array(ranges.length * 2);
  for (let i = 0; i < ranges.length; i++) {
    const { offset, size } = ranges[i] ?? { offset: -1, size: -1 };
    if (!isUint32(offset) || !isUint32(size)) return null;
    pairs[2 * i] = offset;
    pairs[2 * i + 1] = size;
  }
  return pairs;
}

function isUint32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}

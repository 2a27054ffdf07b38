import { MediaEngineError } from '../MediaEngineError.js';
import type { JitterBufferOptions, OpusEncoderOptions } from './types.js';

// Option checks shared by both engines, so that a wrong setting fails with the same code and message
// whichever engine runs. Per-frame data is never checked here: the cores return result codes for it.

/** Encoder options with every default filled in. */
export interface CheckedEncoderOptions {
  readonly bitrate: number;
  readonly inbandFec: boolean;
  readonly packetLossPercent: number;
  readonly voip: boolean;
}

/** Throws `ERR_AUDIO_BAD_ARGUMENT` unless `value` is an integer in [min, max]. */
export function checkInteger(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new MediaEngineError(
      'ERR_AUDIO_BAD_ARGUMENT',
      `"${name}" must be an integer from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

/** Throws `ERR_AUDIO_BAD_ARGUMENT` unless `value` is a finite number in [min, max]. */
export function checkNumber(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new MediaEngineError(
      'ERR_AUDIO_BAD_ARGUMENT',
      `"${name}" must be a number from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

/** Throws `ERR_INVALID_ARG_TYPE` unless `value` is a boolean. */
export function checkBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') {
    throw new MediaEngineError('ERR_INVALID_ARG_TYPE', `"${name}" must be a boolean`);
  }
  return value;
}

/** The encoder's options, checked, with defaults. */
export function checkEncoderOptions(options: OpusEncoderOptions): CheckedEncoderOptions {
  const application = options.application ?? 'voip';
  if (application !== 'voip' && application !== 'audio') {
    throw new MediaEngineError(
      'ERR_AUDIO_BAD_ARGUMENT',
      `"application" must be 'voip' or 'audio', got ${String(application)}`,
    );
  }
  return {
    bitrate: checkInteger(options.bitrate ?? 64000, 'bitrate', 500, 512000),
    inbandFec: checkBoolean(options.inbandFec ?? true, 'inbandFec'),
    packetLossPercent: checkInteger(options.packetLossPercent ?? 10, 'packetLossPercent', 0, 100),
    voip: application === 'voip',
  };
}

/** The jitter buffer's delay bounds, checked, with defaults. */
export function checkJitterOptions(options: JitterBufferOptions): { min: number; max: number } {
  const min = checkInteger(options.minDelayFrames ?? 1, 'minDelayFrames', 1, 32);
  const max = checkInteger(options.maxDelayFrames ?? Math.max(10, min), 'maxDelayFrames', min, 32);
  return { min, max };
}

/** Throws `ERR_INVALID_ARG_TYPE` unless `value` is an `Int16Array`. */
export function checkInt16Array(value: unknown, name: string): Int16Array {
  if (!(value instanceof Int16Array)) {
    throw new MediaEngineError('ERR_INVALID_ARG_TYPE', `The "${name}" argument must be an Int16Array`);
  }
  return value;
}

/** Throws `ERR_INVALID_ARG_TYPE` unless `value` is a `Uint8Array` (a Buffer included). */
export function checkBytes(value: unknown, name: string): Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new MediaEngineError(
      'ERR_INVALID_ARG_TYPE',
      `The "${name}" argument must be a Buffer or Uint8Array`,
    );
  }
  return value;
}

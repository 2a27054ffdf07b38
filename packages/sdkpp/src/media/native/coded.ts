import { MediaEngineError } from '../MediaEngineError.js';

/** Runs a call into the addon, turning its coded errors into {@link MediaEngineError}s. */
export function coded<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw MediaEngineError.from(error);
  }
}

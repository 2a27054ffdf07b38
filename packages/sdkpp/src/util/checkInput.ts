import { ValidationError } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';

/**
 * Runs the local checks of an operation before any I/O. A `ValidationError` is logged as a warning naming
 * the operation (its message never carries content or secrets) and thrown on; other errors pass unlogged.
 */
export function checkInput(log: LogWriter, operation: string, checks: () => void): void {
  try {
    checks();
  } catch (error) {
    if (error instanceof ValidationError) log.warn(`${operation}: ${error.message}`);
    throw error;
  }
}

import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { LoggingSeverity } from '../src/index.js';

/** The file `SetLogDir` writes in its directory. */
export const LOG_FILE_NAME = 'sdkpp.log';

/**
 * @internal A log callback that appends each (already redacted) line to `<dir>/sdkpp.log`, or undefined when
 * the directory cannot be created. A line that cannot be written is dropped: logging must not break the game.
 */
export function logFileWriter(
  dir: string,
): ((message: string, severity: LoggingSeverity) => void) | undefined {
  const file = path.join(dir, LOG_FILE_NAME);
  try {
    mkdirSync(dir, { recursive: true });
    appendFileSync(file, '');
  } catch {
    return undefined;
  }
  return (message, severity) => {
    try {
      appendFileSync(
        file,
        `${new Date().toISOString()} ${LoggingSeverity[severity] ?? severity} ${message}\n`,
      );
    } catch {
      // The disk filled up or the directory went away; the callbacks still get every line.
    }
  };
}

/** @internal True for a line of the voice subsystem: calls, the voice connection and the media engine. */
export function isVoiceLogLine(message: string): boolean {
  return /^\[(voice|media)[\]:]/.test(message);
}

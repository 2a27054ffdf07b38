import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { ValidationError } from '@sdkpp/protocol';
import { LoggingSeverity, type LogWriter } from '../../logging/index.js';

const SEVERITY_NAMES: Record<LoggingSeverity, string> = {
  [LoggingSeverity.Verbose]: 'verbose',
  [LoggingSeverity.Info]: 'info',
  [LoggingSeverity.Warning]: 'warn',
  [LoggingSeverity.Error]: 'error',
  [LoggingSeverity.None]: 'none',
};

/**
 * The voice log directory: while one is set, the calls' log lines also go to `voice.log` there (redacted),
 * so a player can send one file about a bad call; the AEC dump files go there too.
 */
export class VoiceLogFile {
  readonly #redact: (line: string) => string;
  #dir: string | undefined;
  #minimum = LoggingSeverity.Verbose;

  /** @param redact - removes secrets from a line before it is written to the file */
  constructor(redact: (line: string) => string) {
    this.#redact = redact;
  }

  /** The directory, or undefined when the lines go to the SDK log only. */
  get dir(): string | undefined {
    return this.#dir;
  }

  /**
   * Sets the directory (created when missing) or, with undefined, stops the file. Lines below `minimum`
   * stay out of the file (they still reach the SDK log as its own severity says).
   */
  setDir(dir: string | undefined, minimum: LoggingSeverity = LoggingSeverity.Verbose): void {
    if (!Object.values(LoggingSeverity).includes(minimum))
      throw new ValidationError('setVoiceLogDir: the severity is a LoggingSeverity');
    if (dir !== undefined) {
      if (typeof dir !== 'string' || dir.length === 0)
        throw new ValidationError('setVoiceLogDir: a directory path');
      try {
        mkdirSync(dir, { recursive: true });
      } catch (error) {
        throw new ValidationError(`setVoiceLogDir: cannot create ${dir}: ${(error as Error).message}`);
      }
    }
    this.#dir = dir;
    this.#minimum = minimum;
  }

  /** A writer that writes to `base` and, while a directory is set, to its `voice.log`; its children too. */
  tee(base: LogWriter): LogWriter {
    const write = (severity: LoggingSeverity, message: string): void => {
      const dir = this.#dir;
      if (!dir || severity < this.#minimum) return;
      try {
        appendFileSync(
          path.join(dir, 'voice.log'),
          `${new Date().toISOString()} ${SEVERITY_NAMES[severity]} ${this.#redact(message)}\n`,
        );
      } catch {
        // A log file that cannot be written must not break the call.
      }
    };
    return {
      verbose: (m) => {
        base.verbose(m);
        write(LoggingSeverity.Verbose, m);
      },
      info: (m) => {
        base.info(m);
        write(LoggingSeverity.Info, m);
      },
      warn: (m) => {
        base.warn(m);
        write(LoggingSeverity.Warning, m);
      },
      error: (m) => {
        base.error(m);
        write(LoggingSeverity.Error, m);
      },
      secret: (v) => {
        base.secret(v);
      },
      child: (tag) => this.tee(base.child(tag)),
    };
  }
}

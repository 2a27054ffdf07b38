import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { ValidationError } from '../errors/index.js';
import type { LogWriter } from '../logging/index.js';

/**
 * The voice log directory: while one is set, the calls' log lines also go to `voice.log` there (redacted),
 * so a player can send one file about a bad call; the AEC dump files go there too.
 */
export class VoiceLogFile {
  readonly #redact: (line: string) => string;
  #dir: string | undefined;

  /** @param redact - removes secrets from a line before it is written to the file */
  constructor(redact: (line: string) => string) {
    this.#redact = redact;
  }

  /** The directory, or undefined when the lines go to the SDK log only. */
  get dir(): string | undefined {
    return this.#dir;
  }

  /** Sets the directory (created when missing) or, with undefined, stops the file. */
  setDir(dir: string | undefined): void {
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
  }

  /** A writer that writes to `base` and, while a directory is set, to its `voice.log`; its children too. */
  tee(base: LogWriter): LogWriter {
    const write = (severity: string, message: string): void => {
      const dir = this.#dir;
      if (!dir) return;
      try {
        appendFileSync(
          path.join(dir, 'voice.log'),
          `${new Date().toISOString()} ${severity} ${this.#redact(message)}\n`,
        );
      } catch {
        // A log file that cannot be written must not break the call.
      }
    };
    return {
      verbose: (m) => {
        base.verbose(m);
        write('verbose', m);
      },
      info: (m) => {
        base.info(m);
        write('info', m);
      },
      warn: (m) => {
        base.warn(m);
        write('warn', m);
      },
      error: (m) => {
        base.error(m);
        write('error', m);
      },
      secret: (v) => {
        base.secret(v);
      },
      child: (tag) => this.tee(base.child(tag)),
    };
  }
}

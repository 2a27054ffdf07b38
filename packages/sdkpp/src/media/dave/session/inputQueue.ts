import { LoggingSeverity, type Logger, type LogWriter } from '../../../logging/index.js';
import { describeError, Refusal, type RefusalAction } from './validation.js';

/** Where a DAVE session logs: one line per call, never key material. */
export type DaveLog = (severity: LoggingSeverity, message: string) => void;

/** A {@link DaveLog} onto the SDK's logger or a plain writer (or nowhere), each line prefixed `dave:`. */
export function daveLog(logger: Logger | LogWriter | undefined): DaveLog {
  return (severity, message) => {
    if (!logger) return;
    const line = `dave: ${message}`;
    if ('log' in logger) logger.log(severity, line);
    else if (severity >= LoggingSeverity.Warning) logger.warn(line);
    else logger.info(line);
  };
}

/** What an {@link InputQueue} needs from its session. */
export interface InputQueueOptions {
  /** Where refusals and failures are logged. */
  log: DaveLog;
  /** Whether the session was closed: later inputs are dropped and no recovery starts. */
  closed: () => boolean;
  /** The session's recovery (op 31 and a new key package). */
  recover: () => Promise<void>;
}

/**
 * Runs a DAVE session's inputs strictly one after another, since each MLS step builds on the state the
 * previous one left; turns whatever an input throws into a log line and, where the group can no longer be
 * followed, the recovery. Nothing is thrown to the caller.
 */
export class InputQueue {
  readonly #o: InputQueueOptions;
  #tail: Promise<void> = Promise.resolve();

  /** @param options - The session's log, closed flag and recovery. */
  constructor(options: InputQueueOptions) {
    this.#o = options;
  }

  /** Resolves when every input given so far has been handled. */
  get idle(): Promise<void> {
    return this.#tail;
  }

  /**
   * Runs `step` after every earlier input. A {@link Refusal} is logged and acted on; any other error is
   * logged, and for a commit or welcome (`unexpected` = 'recover') also leads to the recovery, since the
   * group can no longer be followed.
   */
  enqueue(what: string, step: () => Promise<void>, unexpected: RefusalAction = 'ignore'): Promise<void> {
    const { log, closed, recover } = this.#o;
    const run = this.#tail.then(async () => {
      if (closed()) return;
      let recovering = false;
      try {
        await step();
      } catch (error) {
        if (error instanceof Refusal) {
          log(LoggingSeverity.Warning, `${what} refused: ${error.message}`);
          recovering = error.action === 'recover';
        } else {
          log(LoggingSeverity.Error, `${what} failed: ${describeError(error)}`);
          recovering = unexpected === 'recover';
        }
      }
      if (!recovering || closed()) return;
      try {
        await recover();
      } catch (error) {
        log(LoggingSeverity.Error, `recovery after ${what} failed: ${describeError(error)}`);
      }
    });
    this.#tail = run.catch(() => undefined);
    return this.#tail;
  }
}

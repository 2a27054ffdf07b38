import { LoggingSeverity, type LogCallback } from './LoggingSeverity.js';
import { SecretRedactor } from './redact.js';

/** Options of a {@link Logger}. */
export interface LoggerOptions {
  /**
   * Debug mode also delivers Info and Verbose lines, as the C++ SDK's debug build does.
   * @defaultValue `false` (release mode: Error and Warning only)
   */
  debug?: boolean;
}

interface Sink {
  callback: LogCallback;
  minSeverity: LoggingSeverity;
}

/** The tagged view of the SDK's logger that one component writes through; every line is redacted. */
export interface LogWriter {
  /** Writes a line at Verbose severity. */
  verbose(message: string): void;
  /** Writes a line at Info severity. */
  info(message: string): void;
  /** Writes a line at Warning severity. */
  warn(message: string): void;
  /** Writes a line at Error severity. */
  error(message: string): void;
  /** Remembers a secret value so that no later line can show it. */
  secret(value: string | undefined | null): void;
  /** A writer whose lines carry a further tag, e.g. `[gateway]`. */
  child(tag: string): LogWriter;
}

/**
 * The single place where the SDK's log lines are made. Every line is redacted here before any callback
 * sees it, so no token, code, verifier or secret reaches a log at any severity.
 */
export class Logger {
  readonly #sinks: Sink[] = [];
  readonly #redactor = new SecretRedactor();
  readonly #debug: boolean;
  #debugNoticeGiven = false;

  constructor(options: LoggerOptions = {}) {
    this.#debug = options.debug ?? false;
  }

  /** True when Info and Verbose lines are delivered. */
  get debug(): boolean {
    return this.#debug;
  }

  /**
   * Adds a callback for every line at `minSeverity` or above. In release mode Info and Verbose are never
   * delivered, whatever `minSeverity` says. Returns a function that removes the callback.
   */
  addCallback(callback: LogCallback, minSeverity: LoggingSeverity = LoggingSeverity.Info): () => void {
    const sink: Sink = { callback, minSeverity };
    this.#sinks.push(sink);
    if (this.#debug && !this.#debugNoticeGiven) {
      this.#debugNoticeGiven = true;
      this.#deliver(sink, 'sdkpp debug build: Info and Verbose lines are logged', LoggingSeverity.Warning);
    }
    return () => {
      const index = this.#sinks.indexOf(sink);
      if (index >= 0) this.#sinks.splice(index, 1);
    };
  }

  /** Remembers a secret value so that no later line can show it. */
  secret(value: string | undefined | null): void {
    this.#redactor.remember(value);
  }

  /** Redacts text with what this logger knows; for error messages that leave the SDK. */
  redact(text: string): string {
    return this.#redactor.redact(text);
  }

  /** Writes one line. */
  log(severity: LoggingSeverity, message: string): void {
    if (!this.#debug && severity < LoggingSeverity.Warning) return;
    if (this.#sinks.length === 0) return;
    const line = this.#redactor.redact(message);
    for (const sink of [...this.#sinks]) {
      if (severity >= sink.minSeverity) this.#deliver(sink, line, severity);
    }
  }

  /** A writer that prefixes its lines with `[tag]`. */
  writer(tag: string): LogWriter {
    const prefix = tag ? `[${tag}] ` : '';
    return {
      verbose: (m) => {
        this.log(LoggingSeverity.Verbose, prefix + m);
      },
      info: (m) => {
        this.log(LoggingSeverity.Info, prefix + m);
      },
      warn: (m) => {
        this.log(LoggingSeverity.Warning, prefix + m);
      },
      error: (m) => {
        this.log(LoggingSeverity.Error, prefix + m);
      },
      secret: (v) => {
        this.secret(v);
      },
      child: (sub) => this.writer(tag ? `${tag}:${sub}` : sub),
    };
  }

  #deliver(sink: Sink, line: string, severity: LoggingSeverity): void {
    try {
      sink.callback(line, severity);
    } catch {
      // A game's log callback that throws must not break the SDK, and logging it would recurse.
    }
  }
}

/** One line of the emulator's log, as listeners receive it. */
export interface LogEntry {
  /** Unix ms (real time) when the line was written. */
  time: number;
  /** The part of the emulator that wrote it: `http`, `gateway`, `voice`, `lobbies`, … */
  area: string;
  /** The line without its area. */
  message: string;
}

/** How many recent lines the log keeps, so a dashboard opened later still shows what just happened. */
const RECENT_LINES = 200;

/**
 * Writes the emulator's log lines to the `log` option's sink and to every subscriber (the dashboard). Call
 * sites pass only names, ids, methods, paths and status codes — never tokens, codes, verifiers or secrets — so
 * the lines are safe to show in a demo or a browser. A throwing sink or subscriber is ignored: a bad log
 * callback must not break request handling.
 */
export class EmulatorLog {
  readonly #sink: ((line: string) => void) | undefined;
  readonly #listeners = new Set<(entry: LogEntry) => void>();
  readonly #recent: LogEntry[] = [];

  constructor(sink: ((line: string) => void) | undefined) {
    this.#sink = sink;
  }

  /**
   * Writes `[area] message`, with control characters escaped: a line may carry names a client chose (a role
   * called `ok\n[oauth2] tokens issued to mallory`), which must not forge a second line or drive a terminal.
   */
  line(area: string, message: string): void {
    const entry: LogEntry = {
      time: Date.now(),
      area: escapeControls(area),
      message: escapeControls(message),
    };
    this.#recent.push(entry);
    if (this.#recent.length > RECENT_LINES) this.#recent.shift();
    if (this.#sink) {
      try {
        this.#sink(`[${entry.area}] ${entry.message}`);
      } catch {
        // Ignored on purpose: see the class comment.
      }
    }
    for (const listener of this.#listeners) {
      try {
        listener(entry);
      } catch {
        // Ignored on purpose: see the class comment.
      }
    }
  }

  /** Calls `listener` with every line from now on; returns the function that stops it. */
  subscribe(listener: (entry: LogEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** The most recent lines, oldest first (at most 200). */
  recent(): LogEntry[] {
    return this.#recent.map((entry) => ({ ...entry }));
  }
}

/**
 * C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional overrides and isolates:
 * everything that can end a line, move a terminal's cursor or reorder what a reader sees.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with each control character written as an escape (`\n`, `\t`, `\u001b`), so it stays one plain line. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** A short, non-secret form of a session id for log lines: the first four characters and an ellipsis. */
export function shortId(id: string): string {
  return `${id.slice(0, 4)}…`;
}

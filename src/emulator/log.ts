/**
 * Writes the emulator's log lines. Call sites pass only names, ids, methods, paths and status codes — never
 * tokens, codes, verifiers or secrets — so the lines are safe to show in a demo. A throwing sink is ignored:
 * a bad log callback must not break request handling.
 */
export class EmulatorLog {
  readonly #sink: ((line: string) => void) | undefined;

  constructor(sink: ((line: string) => void) | undefined) {
    this.#sink = sink;
  }

  /** Whether anyone listens; lets callers skip building a line. */
  get enabled(): boolean {
    return this.#sink !== undefined;
  }

  /** Writes `[area] message`. */
  line(area: string, message: string): void {
    if (!this.#sink) return;
    try {
      this.#sink(`[${area}] ${message}`);
    } catch {
      // Ignored on purpose: see the class comment.
    }
  }
}

/** A short, non-secret form of a session id for log lines: the first four characters and an ellipsis. */
export function shortId(id: string): string {
  return `${id.slice(0, 4)}…`;
}

import type { ServerResponse } from 'node:http';

import type { EmulatorLog, LogEntry } from '../log.js';

/** How long after a log line the state is sent again: lines come in bursts, one snapshot serves a burst. */
const DEBOUNCE_MS = 100;
/** How often the state is compared while someone watches: speaking, presence and counters log no line. */
const POLL_MS = 500;
/** A comment line this often keeps idle proxies and browsers from closing the stream. */
const KEEPALIVE_MS = 15_000;
/** Lines a newly opened page receives as its backlog. */
const BACKLOG_LINES = 300;

/**
 * The dashboard's Server-Sent Events stream: every log line as a `log` event, and the state as a `state` event
 * whenever it changed (after a log line, or found by polling while a page is open). The state is a JSON string
 * built by the caller; a snapshot that fails is skipped, not fatal.
 */
export class LiveFeed {
  readonly #clients = new Set<ServerResponse>();
  readonly #snapshot: () => string;
  readonly #backlog: LogEntry[];
  readonly #unsubscribe: () => void;
  #lastState = '';
  #debounce: NodeJS.Timeout | undefined;
  #poll: NodeJS.Timeout | undefined;
  #keepalive: NodeJS.Timeout | undefined;

  /** `snapshot` returns the current state as JSON; `log` is followed from now on (with its recent lines). */
  constructor(snapshot: () => string, log: EmulatorLog) {
    this.#snapshot = snapshot;
    this.#backlog = log.recent();
    this.#unsubscribe = log.subscribe((entry) => {
      this.note(entry);
    });
  }

  /** How many pages are connected. */
  get clientCount(): number {
    return this.#clients.size;
  }

  /** Shows a line in the pages' log (and in the backlog of pages opened later). */
  note(entry: LogEntry): void {
    this.#backlog.push(entry);
    if (this.#backlog.length > BACKLOG_LINES) this.#backlog.shift();
    if (this.#clients.size === 0) return;
    this.#broadcast('log', JSON.stringify(entry));
    this.#debounce ??= setTimeout(() => {
      this.#debounce = undefined;
      this.#pushIfChanged();
    }, DEBOUNCE_MS).unref();
  }

  /** Turns the response into an event stream: the backlog, the state, then live events. */
  open(res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      Connection: 'keep-alive',
    });
    // The browser retries a dropped stream after this long (an emulator restart, a drop).
    res.write('retry: 1000\n\n');
    for (const entry of this.#backlog) res.write(frame('log', JSON.stringify(entry)));
    const state = this.#safeSnapshot();
    if (state !== null) {
      this.#lastState = state;
      res.write(frame('state', state));
    }
    this.#clients.add(res);
    const gone = (): void => {
      this.#clients.delete(res);
      if (this.#clients.size === 0) this.#stopTimers();
    };
    // The response never finishes by itself, so its 'close' means the page went away.
    res.once('close', gone);
    res.on('error', () => {
      // A page that vanished mid-write is handled by 'close'.
    });
    this.#poll ??= setInterval(() => {
      this.#pushIfChanged();
    }, POLL_MS).unref();
    this.#keepalive ??= setInterval(() => {
      for (const client of this.#clients) client.write(': keep-alive\n\n');
    }, KEEPALIVE_MS).unref();
  }

  /** Ends every stream and stops following the log. */
  close(): void {
    this.#unsubscribe();
    this.#stopTimers();
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }

  #pushIfChanged(): void {
    if (this.#clients.size === 0) return;
    const state = this.#safeSnapshot();
    if (state === null || state === this.#lastState) return;
    this.#lastState = state;
    this.#broadcast('state', state);
  }

  #safeSnapshot(): string | null {
    try {
      return this.#snapshot();
    } catch {
      // A snapshot taken mid-change can fail; the next log line or poll takes another.
      return null;
    }
  }

  #broadcast(event: string, data: string): void {
    const text = frame(event, data);
    for (const client of this.#clients) client.write(text);
  }

  #stopTimers(): void {
    clearTimeout(this.#debounce);
    clearInterval(this.#poll);
    clearInterval(this.#keepalive);
    this.#debounce = undefined;
    this.#poll = undefined;
    this.#keepalive = undefined;
  }
}

/** One SSE event; `data` is JSON, which has no raw newlines. */
function frame(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

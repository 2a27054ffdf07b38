import WebSocket from 'ws';

/** Test code waiting for something to arrive: `until` sleeps until `wake` is called or `ms` pass. */
export class Arrivals {
  readonly #waiters: (() => void)[] = [];

  /** Resolves at the next `wake`, or after `ms`, whichever comes first. */
  until(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Wakes everything waiting. */
  wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}

/**
 * A test WebSocket client that queues what it receives and records the close; the gateway and voice
 * gateway test clients build on it and only say how a frame becomes a queued message.
 */
export abstract class QueuedSocket<T> {
  readonly ws: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  readonly #queue: T[] = [];
  readonly #arrivals = new Arrivals();
  readonly #errors: { closed: string; timedOut: string };
  #isClosed = false;

  /** `errors`: the messages `next` rejects with when the socket closes or the wait times out. */
  constructor(url: string, options: WebSocket.ClientOptions, errors: { closed: string; timedOut: string }) {
    this.#errors = errors;
    this.ws = new WebSocket(url, options);
    this.ws.on('error', () => {
      // Close codes are what the tests look at.
    });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => {
        resolve();
      });
      this.ws.once('unexpected-response', (_req, res) => {
        reject(new Error(`unexpected response ${res.statusCode}`));
      });
    });
    this.ws.on('message', (data: Buffer, isBinary) => {
      const message = this.parse(data, isBinary);
      if (message !== undefined) this.#queue.push(message);
      this.#arrivals.wake();
    });
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => {
        this.#isClosed = true;
        this.#arrivals.wake();
        resolve({ code, reason: reason.toString('utf8') });
      });
    });
  }

  /** Turns a received frame into the message to queue (`undefined`: nothing to queue). */
  protected abstract parse(data: Buffer, isBinary: boolean): T | undefined;

  /** Sends a JSON message `{ op, d }`. */
  send(op: number, d: unknown): void {
    this.ws.send(JSON.stringify({ op, d }));
  }

  /** The next message (matching `match`, others stay queued); rejects after `timeoutMs` or on close. */
  async next(match: (m: T) => boolean = () => true, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.#queue.findIndex(match);
      if (index >= 0) return this.#queue.splice(index, 1)[0] as T;
      if (this.#isClosed) throw new Error(this.#errors.closed);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(this.#errors.timedOut);
      await this.#arrivals.until(left);
    }
  }

  /** Messages received and not yet taken. */
  pending(): T[] {
    return [...this.#queue];
  }
}

import type { LogWriter } from '../logging/index.js';
import { ClientError, ClientStatus, statusToString } from './ClientStatus.js';

/** Options of an {@link HttpWaitStatus}. */
export interface HttpWaitStatusOptions {
  /** The connection's own status. */
  connectionStatus: () => ClientStatus;
  log: LogWriter;
  /** Emits the client's `statusChanged`. */
  emitStatus: (status: ClientStatus, error: ClientError, errorDetail: number) => void;
  /** Emits the client's `httpWait`. */
  emitWait: (waiting: boolean, retryAfterSeconds: number, route: string) => void;
}

/**
 * The status the client shows: the connection's own, or {@link ClientStatus.HttpWait} while at least one HTTP
 * request waits on a rate limit (unless the client is disconnected or disconnecting, which matter more). Only
 * what the game sees changes: features keep checking the connection's own status, so they work during a wait.
 */
export class HttpWaitStatus {
  readonly #o: HttpWaitStatusOptions;
  #waiting = 0;
  /** The status last reported through `statusChanged`. */
  #shown: ClientStatus;

  constructor(options: HttpWaitStatusOptions) {
    this.#o = options;
    this.#shown = options.connectionStatus();
  }

  /** The status to show now. */
  get status(): ClientStatus {
    return this.#show(this.#o.connectionStatus());
  }

  /** The connection's status changed: reports it, or keeps showing HttpWait while a request waits. */
  onConnectionStatus(status: ClientStatus, error: ClientError, errorDetail: number): void {
    const shown = this.#show(status);
    if (shown === this.#shown && error === ClientError.None) return;
    this.#shown = shown;
    this.#o.emitStatus(shown, error, errorDetail);
  }

  /** A request started (`waiting`) or stopped waiting on a rate limit. */
  onWait(waiting: boolean, retryAfterSeconds: number, route: string): void {
    this.#waiting = Math.max(0, this.#waiting + (waiting ? 1 : -1));
    this.#o.emitWait(waiting, retryAfterSeconds, route);
    const shown = this.status;
    if (shown === this.#shown) return;
    this.#o.log.info(`status ${statusToString(this.#shown)} → ${statusToString(shown)} (HTTP rate limit)`);
    this.#shown = shown;
    this.#o.emitStatus(shown, ClientError.None, 0);
  }

  #show(connection: ClientStatus): ClientStatus {
    const quiet = connection === ClientStatus.Disconnected || connection === ClientStatus.Disconnecting;
    return this.#waiting > 0 && !quiet ? ClientStatus.HttpWait : connection;
  }
}

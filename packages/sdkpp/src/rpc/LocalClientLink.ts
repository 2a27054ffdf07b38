import type { LogWriter } from '../logging/index.js';
import type { Clock } from '@sdkpp/protocol';
import { IpcTransport, RpcError } from './IpcTransport.js';

/** Where to look for a local desktop client; `false` in {@link ClientOptions} turns RPC off. */
export interface LocalClientOptions {
  /** Socket paths to try, in order. @defaultValue `discord-ipc-0` … `9` under the platform's directory */
  socketPaths?: () => string[];
  /** Delay before rescan attempt `n` after a lost connection. @defaultValue 1–30 s, doubling */
  reconnectDelayMs?: (attempt: number) => number;
}

/** After a scan found no local client, the next scan waits at least this long; a scan touches ten paths. */
const RESCAN_INTERVAL_MS = 5_000;

/** Connects to a local desktop client on first need and keeps the one transport for the client's lifetime. */
export class LocalClientLink {
  readonly #options: LocalClientOptions | false;
  readonly #applicationId: () => string | undefined;
  readonly #log: LogWriter;
  readonly #clock: Clock;
  #transport: IpcTransport | undefined;
  #connecting: Promise<IpcTransport | undefined> | undefined;
  #lastFailedScanAt = Number.NEGATIVE_INFINITY;
  #refusal: RpcError | undefined;

  constructor(
    options: LocalClientOptions | false,
    applicationId: () => string | undefined,
    log: LogWriter,
    clock: Clock,
  ) {
    this.#options = options;
    this.#applicationId = applicationId;
    this.#log = log;
    this.#clock = clock;
  }

  /** A connected transport, or undefined when RPC is off, no application id is set, or no local client runs. */
  get(): Promise<IpcTransport | undefined> {
    if (this.#transport?.connected) return Promise.resolve(this.#transport);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  /**
   * Why the last scan found no usable desktop client when one answered and refused (e.g. close code 4000 for
   * an application id it does not know); undefined when none answered or the last scan connected.
   */
  get refusal(): RpcError | undefined {
    return this.#refusal;
  }

  /** Closes the transport, if any. */
  close(): void {
    this.#transport?.close();
    this.#transport = undefined;
  }

  async #connect(): Promise<IpcTransport | undefined> {
    const options = this.#options;
    const clientId = this.#applicationId();
    if (options === false || !clientId) return undefined;
    if (this.#clock.now() - this.#lastFailedScanAt < RESCAN_INTERVAL_MS) return undefined;
    this.#transport ??= new IpcTransport({
      clientId,
      log: this.#log,
      clock: this.#clock,
      ...(options.socketPaths ? { socketPaths: options.socketPaths } : {}),
      ...(options.reconnectDelayMs ? { reconnectDelayMs: options.reconnectDelayMs } : {}),
    });
    try {
      await this.#transport.connect();
      this.#refusal = undefined;
      return this.#transport;
    } catch (error) {
      this.#refusal = error instanceof RpcError && error.code !== undefined ? error : undefined;
      this.#lastFailedScanAt = this.#clock.now();
      return undefined;
    }
  }
}

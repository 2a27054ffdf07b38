import { ErrorType, NetworkError, SdkError, ValidationError } from '../errors/index.js';
import { GatewayConnection, GatewayState, type GatewayStateDetail } from '../gateway/GatewayConnection.js';
import type { GatewaySocketFactory } from '../gateway/GatewaySocket.js';
import type { LogWriter } from '../logging/index.js';
import type { RestClient } from '../rest/RestClient.js';
import type { Clock } from '../util/Clock.js';
import { TypedEmitter } from '../util/TypedEmitter.js';
import { ClientError, ClientStatus, statusToString } from './ClientStatus.js';

/** Events of the {@link ConnectionManager}. */
export interface ConnectionEvents {
  [event: string]: unknown[];
  status: [status: ClientStatus, error: ClientError, errorDetail: number];
  ready: [data: Record<string, unknown>];
  dispatch: [event: string, data: unknown];
}

/** Options of a {@link ConnectionManager}. */
export interface ConnectionManagerOptions {
  rest: RestClient;
  log: LogWriter;
  clock: Clock;
  socketFactory: GatewaySocketFactory;
  token: () => string | undefined;
  gatewayUrl: string | undefined;
  reconnectDelayMs: ((attempt: number) => number) | undefined;
  invalidSessionDelayMs: (() => number) | undefined;
}

/**
 * Owns the gateway connection and turns its states into the client's status machine
 * (see {@link ClientStatus} for the transitions).
 */
export class ConnectionManager extends TypedEmitter<ConnectionEvents> {
  readonly #o: ConnectionManagerOptions;
  #status = ClientStatus.Disconnected;
  #gateway: GatewayConnection | undefined;
  #gatewayUrl: string | undefined;
  #hadReady = false;

  constructor(options: ConnectionManagerOptions) {
    super();
    this.#o = options;
    this.#gatewayUrl = options.gatewayUrl;
  }

  /** The current status. */
  get status(): ClientStatus {
    return this.#status;
  }

  /** The live gateway connection, while connected. */
  get gateway(): GatewayConnection | undefined {
    return this.#gateway;
  }

  /**
   * Connects and resolves once the status is Ready. Rejects when the connection ends in Disconnected first
   * (for example a terminal close code). Transient failures are retried by the client itself meanwhile.
   */
  async connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#status === ClientStatus.Ready) return;
    if (this.#status !== ClientStatus.Disconnected) {
      await this.#untilReady(options.signal);
      return;
    }
    if (!this.#o.token()) throw new ValidationError('no token: call updateToken() before connect()');
    this.#setStatus(ClientStatus.Connecting, ClientError.None, 0);
    const ready = this.#untilReady(options.signal);
    try {
      const url = await this.#resolveGatewayUrl();
      // disconnect() may have run while the gateway address was being fetched.
      if ((this.#status as ClientStatus) !== ClientStatus.Connecting) {
        await ready;
        return;
      }
      this.#startGateway(url);
    } catch (error) {
      this.#o.log.error(`could not connect: ${(error as Error).message}`);
      this.#setStatus(ClientStatus.Disconnected, ClientError.ConnectionFailed, 0);
      ready.catch(() => undefined);
      throw error;
    }
    await ready;
  }

  /** Closes the connection (close code 1000, which ends the session) and resolves once Disconnected. */
  async disconnect(): Promise<void> {
    const gateway = this.#gateway;
    if (this.#status === ClientStatus.Disconnected && !gateway) return;
    this.#setStatus(ClientStatus.Disconnecting, ClientError.None, 0);
    this.#gateway = undefined;
    await gateway?.close();
    this.#hadReady = false;
    this.#setStatus(ClientStatus.Disconnected, ClientError.None, 0);
  }

  async #resolveGatewayUrl(): Promise<string> {
    if (this.#gatewayUrl) return this.#gatewayUrl;
    const { body } = await this.#o.rest.request<{ url?: unknown }>({ method: 'GET', route: '/gateway' });
    if (typeof body.url !== 'string' || !/^wss?:\/\//.test(body.url)) {
      throw new SdkError(ErrorType.HTTPError, 'GET /gateway returned no usable url');
    }
    this.#gatewayUrl = body.url;
    return body.url;
  }

  #startGateway(url: string): void {
    const gateway = new GatewayConnection({
      url,
      token: () => this.#o.token() ?? '',
      log: this.#o.log,
      clock: this.#o.clock,
      socketFactory: this.#o.socketFactory,
      ...(this.#o.reconnectDelayMs ? { reconnectDelayMs: this.#o.reconnectDelayMs } : {}),
      ...(this.#o.invalidSessionDelayMs ? { invalidSessionDelayMs: this.#o.invalidSessionDelayMs } : {}),
    });
    this.#gateway = gateway;
    gateway.on('state', (state, detail) => {
      if (this.#gateway === gateway) this.#onGatewayState(state, detail);
    });
    gateway.on('ready', (data) => {
      if (this.#gateway === gateway) this.emit('ready', data);
    });
    gateway.on('dispatch', (event, data) => {
      if (this.#gateway === gateway) this.emit('dispatch', event, data);
    });
    gateway.open();
  }

  #onGatewayState(state: GatewayState, detail: GatewayStateDetail): void {
    switch (state) {
      case GatewayState.Identifying:
      case GatewayState.Resuming:
        this.#setStatus(ClientStatus.Connected, ClientError.None, 0);
        break;
      case GatewayState.Ready:
        this.#hadReady = true;
        this.#setStatus(ClientStatus.Ready, ClientError.None, 0);
        break;
      case GatewayState.Backoff: {
        const error = detail.connectFailed ? ClientError.ConnectionFailed : ClientError.UnexpectedClose;
        this.#setStatus(ClientStatus.Reconnecting, error, detail.closeCode ?? 0);
        break;
      }
      case GatewayState.Closed:
        // Only a terminal close code gets here: disconnect() detaches the gateway before closing it.
        this.#gateway = undefined;
        this.#hadReady = false;
        this.#setStatus(ClientStatus.Disconnected, ClientError.UnexpectedClose, detail.closeCode ?? 0);
        break;
      case GatewayState.Idle:
      case GatewayState.Connecting:
        break;
    }
  }

  /** True once READY arrived on the current connection. */
  get hadReady(): boolean {
    return this.#hadReady;
  }

  #untilReady(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onStatus = (status: ClientStatus, error: ClientError, detail: number): void => {
        if (status === ClientStatus.Ready) finish();
        else if (status === ClientStatus.Disconnected) {
          finish(
            new NetworkError(
              `connection ended before Ready (${ClientError[error]}${detail ? `, close code ${detail}` : ''})`,
              { retryable: false },
            ),
          );
        }
      };
      const onAbort = (): void => {
        finish(signal?.reason as Error);
      };
      const finish = (error?: Error): void => {
        this.off('status', onStatus);
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve();
      };
      this.on('status', onStatus);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #setStatus(status: ClientStatus, error: ClientError, detail: number): void {
    if (status === this.#status && error === ClientError.None) return;
    const previous = this.#status;
    this.#status = status;
    this.#o.log.info(
      `status ${statusToString(previous)} → ${statusToString(status)}${error ? ` (${ClientError[error]} ${detail})` : ''}`,
    );
    this.emit('status', status, error, detail);
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#o.log.error(`a ${event} listener threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}

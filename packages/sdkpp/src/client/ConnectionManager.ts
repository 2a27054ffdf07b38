import type { TokenSource } from '../auth/TokenSource.js';
import {
  AbortedError,
  ClientDestroyedError,
  ErrorType,
  NetworkError,
  SdkError,
  ValidationError,
} from '@sdkpp/protocol';
import { GatewayConnection, GatewayState, type GatewayStateDetail } from '../gateway/GatewayConnection.js';
import type { GatewaySocketFactory } from '../gateway/GatewaySocket.js';
import { describeCloseCode } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import type { RestClient } from '../rest/RestClient.js';
import type { Clock } from '@sdkpp/protocol';
import { TypedEmitter } from '@sdkpp/protocol';
import { abortedError } from '@sdkpp/protocol';
import { ClientError, ClientStatus, statusToString } from './ClientStatus.js';

/** The gateway's close code for a token it does not accept. */
const AUTHENTICATION_FAILED = 4004;

/** Events of the {@link ConnectionManager}. */
export interface ConnectionEvents {
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
  /** The access token the gateway identifies with. */
  tokens: TokenSource;
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
  /** Counts connection attempts, so a late step of an attempt that was cancelled or replaced does nothing. */
  #attempts = 0;
  #destroyed = false;

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
   *
   * `signal` aborts with `AbortedError`: an already-aborted signal before anything starts; later, the
   * connection attempt this call started is cancelled (status Disconnected with `ConnectionCanceled`). A call
   * made while another attempt is under way only stops waiting for it.
   */
  async connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    const { signal } = options;
    if (this.#destroyed) throw new ClientDestroyedError();
    if (signal?.aborted) throw abortedError(signal, 'connect()');
    if (this.#status === ClientStatus.Ready) return;
    if (this.#status !== ClientStatus.Disconnected) {
      await this.#untilReady(signal);
      return;
    }
    if (!this.#o.tokens.token) {
      throw new ValidationError(this.#o.tokens.refusal ?? 'no token: call updateToken() before connect()');
    }
    this.#setStatus(ClientStatus.Connecting, ClientError.None, 0);
    const attempt = ++this.#attempts;
    const ready = this.#untilReady(signal);
    // `ready` may settle (abort, destroy) while the gateway address is still being fetched; it is awaited below.
    ready.catch(() => undefined);
    try {
      const url = await this.#resolveGatewayUrl(signal);
      // disconnect() may have run while the gateway address was being fetched.
      if (this.#now() === ClientStatus.Connecting && attempt === this.#attempts) this.#startGateway(url);
      await ready;
    } catch (error) {
      if (error instanceof AbortedError && attempt === this.#attempts && this.#now() !== ClientStatus.Ready)
        await this.#cancel();
      else if (this.#now() === ClientStatus.Connecting && attempt === this.#attempts) {
        this.#o.log.error(`could not connect: ${(error as Error).message}`);
        this.#setStatus(ClientStatus.Disconnected, ClientError.ConnectionFailed, 0);
      }
      throw error;
    }
  }

  /** Closes the connection (close code 1000, which ends the session) and resolves once Disconnected. */
  async disconnect(): Promise<void> {
    if (this.#status === ClientStatus.Disconnected && !this.#gateway) return;
    await this.#close(ClientError.None);
  }

  /** Disconnects for good: pending and later `connect()` calls reject with `ClientDestroyedError`. */
  async destroy(): Promise<void> {
    this.#destroyed = true;
    await this.disconnect();
  }

  /** Ends a connection attempt that its `connect()` call aborted. */
  async #cancel(): Promise<void> {
    this.#o.log.info('connect() was aborted; the connection attempt is cancelled');
    await this.#close(ClientError.ConnectionCanceled);
  }

  /** Closes the gateway (Disconnecting → Disconnected with `reason`); a pending attempt's late steps do nothing. */
  async #close(reason: ClientError): Promise<void> {
    const gateway = this.#gateway;
    this.#attempts += 1;
    this.#gateway = undefined;
    this.#setStatus(ClientStatus.Disconnecting, ClientError.None, 0);
    await gateway?.close();
    this.#hadReady = false;
    this.#setStatus(ClientStatus.Disconnected, reason, 0);
  }

  async #resolveGatewayUrl(signal: AbortSignal | undefined): Promise<string> {
    if (this.#gatewayUrl) return this.#gatewayUrl;
    const { body } = await this.#o.rest.request<{ url?: unknown }>({
      method: 'GET',
      route: '/gateway',
      signal,
    });
    if (typeof body.url !== 'string' || !/^wss?:\/\//.test(body.url)) {
      throw new SdkError(ErrorType.HTTPError, 'GET /gateway returned no usable url');
    }
    this.#gatewayUrl = body.url;
    return body.url;
  }

  #startGateway(url: string): void {
    const gateway = new GatewayConnection({
      url,
      token: () => this.#o.tokens.token ?? '',
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

  /** The status, read afresh (TypeScript would otherwise keep a narrowing across awaits). */
  #now(): ClientStatus {
    return this.#status;
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
            this.#destroyed
              ? new ClientDestroyedError('the client was destroyed before it was Ready')
              : new NetworkError(
                  detail === AUTHENTICATION_FAILED
                    ? 'the gateway refused the token (close code 4004, Authentication failed): refresh it with refreshToken() or authorize again, then call updateToken()'
                    : `connection ended before Ready (${ClientError[error]}${detail ? `, close code ${describeCloseCode(detail)}` : ''})`,
                  { retryable: false, ...(detail ? { code: detail } : {}) },
                ),
          );
        }
      };
      const onAbort = (): void => {
        finish(abortedError(signal, 'connect()'));
      };
      const finish = (error?: Error): void => {
        this.off('status', onStatus);
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve();
      };
      if (signal?.aborted) {
        onAbort();
        return;
      }
      this.on('status', onStatus);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #setStatus(status: ClientStatus, error: ClientError, detail: number): void {
    if (status === this.#status && error === ClientError.None) return;
    const previous = this.#status;
    this.#status = status;
    this.#o.log.info(
      `status ${statusToString(previous)} → ${statusToString(status)}${error !== ClientError.None ? ` (${error} ${detail})` : ''}`,
    );
    this.emit('status', status, error, detail);
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#o.log.error(`a ${event} listener threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}

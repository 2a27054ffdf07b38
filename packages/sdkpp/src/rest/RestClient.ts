import { AbortedError, HttpError, NetworkError, SdkError, ErrorType, ValidationError } from '@sdkpp/protocol';
import type { LogWriter } from '../logging/index.js';
import { systemClock, type Clock } from '@sdkpp/protocol';
import { RateLimiter, type Attempt, type RateLimitWaitListener } from './RateLimiter.js';

/** How a request authenticates. Credentials never appear in logs or errors. */
export type RestAuth = { kind: 'none' } | { kind: 'bearer'; token: string } | { kind: 'bot'; token: string };

/** One request to the platform's HTTP API. */
export interface RestRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the API base, e.g. `/oauth2/token`. */
  route: string;
  query?: Record<string, string>;
  /** A JSON body. */
  json?: unknown;
  /** A form body (`application/x-www-form-urlencoded`), as the OAuth2 endpoints require. */
  form?: Record<string, string | undefined>;
  auth?: RestAuth;
  signal?: AbortSignal | undefined;
}

/** A successful response. */
export interface RestResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** Options of a {@link RestClient}. */
export interface RestClientOptions {
  /** The API base, e.g. `https://discord.com/api/v10`. */
  apiBase: string;
  /** The current request timeout in milliseconds; read per request so `setHttpRequestTimeout` applies at once. */
  timeoutMs: () => number;
  log: LogWriter;
  /** The fetch implementation; a seam for unit tests. @defaultValue `globalThis.fetch` */
  fetch?: typeof fetch;
  /** Times rate-limit waits. @defaultValue the system clock */
  clock?: Clock;
  /** How rate limits are waited out. */
  rateLimits?: {
    /** The longest single wait in ms before a call fails instead. @defaultValue 60000 */
    maxWaitMs?: number;
    /** How many times one request is sent again after a 429. @defaultValue 3 */
    maxRetries?: number;
    /** Told when a request starts (`waiting`) and stops waiting on a rate limit. */
    onWait?: RateLimitWaitListener;
  };
}

/** The longest single rate-limit wait by default: a minute, after which the game hears about it. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 60_000;
/** How many 429s one request sits out by default. */
export const DEFAULT_MAX_RATE_LIMIT_RETRIES = 3;

/** Largest response body the SDK reads; a larger one is a protocol fault, not data to buffer. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * The HTTP client every manager uses. A response that does not arrive complete within the timeout is a
 * {@link NetworkError}, never a success; an error status becomes an {@link HttpError} with the platform's code.
 */
export class RestClient {
  readonly #options: RestClientOptions;
  readonly #fetch: typeof fetch;
  readonly #limiter: RateLimiter;

  constructor(options: RestClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const maxWaitMs = options.rateLimits?.maxWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
    const maxRetries = options.rateLimits?.maxRetries ?? DEFAULT_MAX_RATE_LIMIT_RETRIES;
    if (!Number.isFinite(maxWaitMs) || maxWaitMs < 0)
      throw new ValidationError('the maximum rate-limit wait must be a number of ms ≥ 0');
    if (!Number.isInteger(maxRetries) || maxRetries < 0)
      throw new ValidationError('the rate-limit retry count must be an integer ≥ 0');
    this.#limiter = new RateLimiter({
      clock: options.clock ?? systemClock,
      log: options.log,
      maxWaitMs,
      maxRetries,
      onWait: options.rateLimits?.onWait,
    });
  }

  /** The API base this client talks to. */
  get apiBase(): string {
    return this.#options.apiBase;
  }

  /**
   * Sends a request and returns the parsed JSON body (or `undefined` for an empty body). Within the platform's
   * rate limits: it may wait first, and sends again after a 429 (see {@link RateLimiter}); it never sends again
   * after a timeout or a network error, which could deliver the request twice.
   */
  request<T>(req: RestRequest): Promise<RestResponse<T>> {
    return this.#limiter.run(req.method, req.route, req.signal, () => this.#attempt<T>(req));
  }

  async #attempt<T>(req: RestRequest): Promise<Attempt<RestResponse<T>>> {
    const timeoutMs = this.#options.timeoutMs();
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
    const url = this.#url(req);
    const init: RequestInit = { method: req.method, headers: this.#headers(req), signal };
    if (req.form) init.body = formBody(req.form);
    else if (req.json !== undefined) init.body = JSON.stringify(req.json);

    const started = Date.now();
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(url, init);
      text = await readLimited(response);
    } catch (error) {
      throw this.#transportError(error, req, timeout, timeoutMs);
    }
    this.#options.log.verbose(`${req.method} ${req.route} → ${response.status} (${Date.now() - started} ms)`);

    const headers = response.headers;
    const body = parseBody(text, headers);
    if (response.ok) {
      if (body === MALFORMED) {
        const error = new SdkError(
          ErrorType.HTTPError,
          `${req.method} ${req.route}: the response body is not valid JSON`,
          { status: response.status },
        );
        return { kind: 'failed', headers, error };
      }
      return { kind: 'done', headers, value: { status: response.status, body: body as T, headers } };
    }
    const error = httpErrorFrom(req, response, body === MALFORMED ? undefined : body, text);
    if (response.status === 429) {
      const global =
        headers.get('x-ratelimit-global')?.toLowerCase() === 'true' ||
        (body !== null && typeof body === 'object' && (body as { global?: unknown }).global === true);
      return { kind: 'limited', headers, retryAfterSeconds: error.retryAfter, global, error };
    }
    return { kind: 'failed', headers, error };
  }

  #url(req: RestRequest): string {
    const url = new URL(this.#options.apiBase.replace(/\/$/, '') + req.route);
    for (const [key, value] of Object.entries(req.query ?? {})) url.searchParams.set(key, value);
    return url.toString();
  }

  #headers(req: RestRequest): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'sdkpp (Node)' };
    if (req.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    else if (req.json !== undefined) headers['content-type'] = 'application/json';
    const auth = req.auth ?? { kind: 'none' };
    if (auth.kind === 'bearer') headers.authorization = `Bearer ${auth.token}`;
    else if (auth.kind === 'bot') headers.authorization = `Bot ${auth.token}`;
    return headers;
  }

  #transportError(error: unknown, req: RestRequest, timeout: AbortSignal, timeoutMs: number): SdkError {
    const where = `${req.method} ${req.route}`;
    if (timeout.aborted) {
      this.#options.log.warn(`${where} timed out after ${timeoutMs} ms`);
      return new NetworkError(`${where} timed out after ${timeoutMs} ms`, { timedOut: true, cause: error });
    }
    if (req.signal?.aborted) return new AbortedError(`${where} was aborted`, { cause: error });
    if (error instanceof SdkError) return error;
    const reason = describeCause(error);
    this.#options.log.warn(`${where} failed: ${reason}`);
    return new NetworkError(`${where} failed: ${reason}`, { cause: error });
  }
}

const MALFORMED = Symbol('malformed');

function parseBody(text: string, headers: Headers): unknown {
  if (text === '') return undefined;
  const type = headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return MALFORMED;
  }
}

async function readLimited(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_RESPONSE_BYTES)
    throw new NetworkError(`response body of ${declared} bytes exceeds the limit`);
  const buffer = await response.arrayBuffer();
  if (buffer.byteLength > MAX_RESPONSE_BYTES) throw new NetworkError('response body exceeds the limit');
  return new TextDecoder().decode(buffer);
}

function formBody(form: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) if (value !== undefined) params.set(key, value);
  return params.toString();
}

function describeCause(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = cause && typeof cause === 'object' && 'code' in cause ? String(cause.code) : undefined;
    return code ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

interface PlatformErrorBody {
  code?: unknown;
  message?: unknown;
  error?: unknown;
  error_description?: unknown;
  retry_after?: unknown;
}

function httpErrorFrom(req: RestRequest, response: Response, body: unknown, text: string): HttpError {
  const data: PlatformErrorBody = body !== null && typeof body === 'object' ? body : {};
  let code: number | string | undefined;
  let message: string;
  if (typeof data.error === 'string') {
    code = data.error;
    message =
      typeof data.error_description === 'string' ? `${data.error}: ${data.error_description}` : data.error;
  } else {
    code = typeof data.code === 'number' ? data.code : undefined;
    message = typeof data.message === 'string' ? data.message : `HTTP ${response.status}`;
  }
  const retryAfter = retryAfterSeconds(data, response.headers);
  return new HttpError(`${req.method} ${req.route} failed with ${response.status}: ${message}`, {
    method: req.method,
    route: req.route,
    status: response.status,
    ...(code === undefined ? {} : { code }),
    responseBody: text,
    retryable: response.status === 429 || response.status >= 500,
    retryAfter,
  });
}

function retryAfterSeconds(data: PlatformErrorBody, headers: Headers): number {
  if (typeof data.retry_after === 'number' && Number.isFinite(data.retry_after)) return data.retry_after;
  const header = Number(headers.get('retry-after'));
  return Number.isFinite(header) && header > 0 ? header : 0;
}

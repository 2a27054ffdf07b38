import { ErrorType } from './ErrorType.js';

/** Extra facts an {@link SdkError} can carry; all optional. */
export interface SdkErrorDetails {
  /** The underlying error, kept for debugging. */
  cause?: unknown;
  /** The platform's error code: a JSON error code such as `530017`, or an OAuth2 error such as `'invalid_grant'`. */
  code?: number | string;
  /** The HTTP status of the response, when there was one. */
  status?: number;
  /** The raw response body, when there was one. Never holds a token: token responses are never errors. */
  responseBody?: string;
  /** True when trying again later is safe and recommended (rate limits, transient network faults). */
  retryable?: boolean;
  /** Seconds to wait before retrying, when the platform said so. */
  retryAfter?: number;
}

/**
 * The one error class every SDK operation rejects with. It mirrors the C++ SDK's `ClientResult`:
 * {@link SdkError.type} is the `ErrorType`, {@link SdkError.code} the platform's error code,
 * {@link SdkError.status} the HTTP status.
 */
export class SdkError extends Error {
  /** The kind of failure. */
  readonly type: ErrorType;
  /** The platform's error code (`530017`, `'invalid_grant'`), if any. */
  readonly code: number | string | undefined;
  /** The HTTP status, or 0 when no HTTP response was involved. */
  readonly status: number;
  /** The raw response body, or an empty string. */
  readonly responseBody: string;
  /** True when retrying later is safe and recommended. */
  readonly retryable: boolean;
  /** Seconds to wait before a retry, or 0. */
  readonly retryAfter: number;

  constructor(type: ErrorType, message: string, details: SdkErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.type = type;
    this.code = details.code;
    this.status = details.status ?? 0;
    this.responseBody = details.responseBody ?? '';
    this.retryable = details.retryable ?? false;
    this.retryAfter = details.retryAfter ?? 0;
  }

  /**
   * The `ErrorType` name, plus the platform's code in brackets when it says something: `HTTPError[50035]`.
   * Code 0, the platform's "general error", adds nothing to the status and is left out.
   */
  override get name(): string {
    const kind = ErrorType[this.type] ?? 'SdkError';
    return this.code === undefined || this.code === 0 ? kind : `${kind}[${String(this.code)}]`;
  }
}

/** The request got no usable answer: connection refused, reset, or timed out. */
export class NetworkError extends SdkError {
  /** True when the failure was the HTTP request timeout running out. */
  readonly timedOut: boolean;
  constructor(message: string, details: SdkErrorDetails & { timedOut?: boolean } = {}) {
    super(ErrorType.NetworkError, message, { retryable: true, ...details });
    this.timedOut = details.timedOut ?? false;
  }
}

/** The platform answered with an error status; {@link SdkError.code} holds its error code. */
export class HttpError extends SdkError {
  /** The HTTP method of the failed request. */
  readonly method: string;
  /** The route of the failed request, without query string. */
  readonly route: string;
  constructor(message: string, details: SdkErrorDetails & { method: string; route: string }) {
    super(ErrorType.HTTPError, message, details);
    this.method = details.method;
    this.route = details.route;
  }
}

/**
 * A refresh failed with `invalid_grant`: the user's tokens were deleted (revocation, unmerge or ban).
 * Treat it as the `APPLICATION_DEAUTHORIZED` webhook: drop the stored tokens and link again.
 */
export class DeauthorizedError extends HttpError {}

/** The inputs failed local validation; nothing was sent. */
export class ValidationError extends SdkError {
  constructor(message: string, details: SdkErrorDetails = {}) {
    super(ErrorType.ValidationError, message, details);
  }
}

/** The operation needs a Ready client. */
export class ClientNotReadyError extends SdkError {
  constructor(message = 'The client is not Ready: call connect() and wait for ClientStatus.Ready') {
    super(ErrorType.ClientNotReady, message);
  }
}

/** The operation was aborted by the game or the user. */
export class AbortedError extends SdkError {
  constructor(message = 'The operation was aborted', details: SdkErrorDetails = {}) {
    super(ErrorType.Aborted, message, details);
  }
}

/** An authorization step failed without an HTTP error. */
export class AuthorizationError extends SdkError {
  constructor(message: string, details: SdkErrorDetails = {}) {
    super(ErrorType.AuthorizationFailed, message, details);
  }
}

/**
 * No browser could be opened for the authorize page: the system's launcher is missing or would not start
 * (`spawn xdg-open ENOENT` on a headless Linux machine). The message ends with "open this address in a
 * browser: <url>", and {@link BrowserUnavailableError.url} is that address. It carries the sign-in's `state`,
 * so show it to the player and keep it out of logs (the SDK's own log lines never carry it). When
 * `authorize()` rejects with it, that sign-in has ended; an `openUrl` that catches it from
 * `openInSystemBrowser` and shows the message keeps the sign-in waiting while the player opens the address.
 */
export class BrowserUnavailableError extends AuthorizationError {
  /** The authorize page that could not be opened. */
  readonly url: string;
  constructor(message: string, details: SdkErrorDetails & { url: string }) {
    const { url, ...rest } = details;
    super(message, { code: 'browser-unavailable', ...rest });
    this.url = url;
  }
}

/** The client was destroyed while the operation was under way. */
export class ClientDestroyedError extends SdkError {
  constructor(message = 'The client was destroyed') {
    super(ErrorType.ClientDestroyed, message);
  }
}

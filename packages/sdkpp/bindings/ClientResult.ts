import { ErrorType, SdkError } from '../src/index.js';

/** The result of an SDK call, as the C++ SDK's `ClientResult`. */
export class ClientResult {
  /** An invalid result, like the C++ `nullobj`. */
  static readonly nullobj: ClientResult = new ClientResult(false);

  #valid: boolean;
  #type = ErrorType.None;
  #error = '';
  #errorCode = 0;
  #status = 0;
  #responseBody = '';
  #retryable = false;
  #retryAfter = 0;

  /** Creates a successful result, or copies `other`. */
  constructor(other?: ClientResult | boolean) {
    this.#valid = other !== false;
    if (other instanceof ClientResult) {
      this.#valid = other.#valid;
      this.#type = other.#type;
      this.#error = other.#error;
      this.#errorCode = other.#errorCode;
      this.#status = other.#status;
      this.#responseBody = other.#responseBody;
      this.#retryable = other.#retryable;
      this.#retryAfter = other.#retryAfter;
    }
  }

  /** @internal A success result. */
  static success(status = 200): ClientResult {
    const result = new ClientResult();
    result.#status = status;
    return result;
  }

  /** @internal The result for a rejected promise of the core API. */
  static fromError(error: unknown): ClientResult {
    const result = new ClientResult();
    if (error instanceof SdkError) {
      result.#type = error.type;
      result.#error = typeof error.code === 'string' ? `${error.code}: ${error.message}` : error.message;
      result.#errorCode = typeof error.code === 'number' ? error.code : 0;
      result.#status = error.status;
      result.#responseBody = error.responseBody;
      result.#retryable = error.retryable;
      result.#retryAfter = error.retryAfter;
    } else {
      result.#type = ErrorType.ValidationError;
      result.#error = error instanceof Error ? error.message : String(error);
    }
    return result;
  }

  /** True unless this is {@link ClientResult.nullobj} (the C++ `operator bool`). */
  IsValid(): boolean {
    return this.#valid;
  }
  /** The error message, or an empty string on success. */
  ToString(): string {
    return this.Successful() ? '' : `${ErrorType[this.#type] ?? 'Error'}: ${this.#error}`;
  }
  /** The kind of error. */
  Type(): ErrorType {
    return this.#type;
  }
  /** Sets the error kind; for building results in tests and mocks, as the C++ setters allow. */
  SetType(value: ErrorType): void {
    this.#type = value;
  }
  /** A description of the error. */
  Error(): string {
    return this.#error;
  }
  /** Replaces the error description that `Error()` and `ToString()` show. */
  SetError(value: string): void {
    this.#error = value;
  }
  /** The platform's numeric error code (e.g. 530017), or 0. */
  ErrorCode(): number {
    return this.#errorCode;
  }
  /** Sets the platform error code; 0 means none. */
  SetErrorCode(value: number): void {
    this.#errorCode = value;
  }
  /** The HTTP status (one of the `HttpStatusCode` values), or 0. */
  Status(): number {
    return this.#status;
  }
  /** Sets the HTTP status; 0 means no HTTP response was involved. */
  SetStatus(value: number): void {
    this.#status = value;
  }
  /** The raw response body, usually JSON. */
  ResponseBody(): string {
    return this.#responseBody;
  }
  /** Replaces the raw response body (usually JSON). */
  SetResponseBody(value: string): void {
    this.#responseBody = value;
  }
  /** Equivalent to `Type() === ErrorType.None`. */
  Successful(): boolean {
    return this.#type === ErrorType.None;
  }
  /** `true` resets the type to `ErrorType.None`; `false` changes nothing (set a type with `SetType`). */
  SetSuccessful(value: boolean): void {
    if (value) this.#type = ErrorType.None;
  }
  /** True when retrying later is safe and recommended. */
  Retryable(): boolean {
    return this.#retryable;
  }
  /** Marks whether retrying later is safe and recommended. */
  SetRetryable(value: boolean): void {
    this.#retryable = value;
  }
  /** Seconds to wait before retrying (rate limits). */
  RetryAfter(): number {
    return this.#retryAfter;
  }
  /** Sets the seconds to wait before a retry; 0 when the platform gave none. */
  SetRetryAfter(value: number): void {
    this.#retryAfter = value;
  }
}

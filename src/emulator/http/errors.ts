import { errorPage } from './html.js';
import { htmlReply, jsonReply, noStoreJsonReply, type Reply } from './replies.js';

/** An error a route throws to answer with a specific response. */
export abstract class HttpError extends Error {
  /** The response to send. */
  abstract toReply(): Reply;
}

/** A platform API error: `{code, message, ...}` with an HTTP status, e.g. 400 `{code:530010, …}`. */
export class ApiError extends HttpError {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  override toReply(): Reply {
    return jsonReply(this.status, { message: this.message, code: this.code, ...this.extra });
  }
}

/** 401 with the platform's body for a missing or bad Authorization header. */
export function unauthorized(): ApiError {
  return new ApiError(401, 0, '401: Unauthorized');
}

/** One field error inside a 50035 Invalid Form Body. */
/** The platform's JSON codes of "Unknown …" errors (404), by what was not found. */
const UNKNOWN_CODES = {
  Application: 10002,
  Channel: 10003,
  Guild: 10004,
  Invite: 10006,
  Member: 10007,
  Message: 10008,
  Overwrite: 10009,
  Role: 10011,
  User: 10013,
  Emoji: 10014,
  Ban: 10026,
  Lobby: 10031,
} as const;

/** A 404 "Unknown …" error with the platform's code, e.g. `unknown('Lobby')` → 10031 Unknown Lobby. */
export function unknown(entity: keyof typeof UNKNOWN_CODES): ApiError {
  return new ApiError(404, UNKNOWN_CODES[entity], `Unknown ${entity}`);
}

/** 403 50013 Missing Permissions; the names of the missing bits follow the platform's message. */
export function missingPermissions(names: readonly string[] = []): ApiError {
  return new ApiError(
    403,
    50013,
    names.length === 0 ? 'Missing Permissions' : `Missing Permissions: ${names.join(', ')}`,
  );
}

/** 403 50001 Missing Access, with an optional reason after the platform's message. */
export function missingAccess(reason?: string): ApiError {
  return new ApiError(403, 50001, reason === undefined ? 'Missing Access' : `Missing Access: ${reason}`);
}

export interface FieldError {
  code: string;
  message: string;
}

/** 400 50035 Invalid Form Body with the platform's nested `errors` tree (`{field: {_errors: […]}}`). */
export function invalidFormBody(fields: Record<string, FieldError>): ApiError {
  const errors: Record<string, { _errors: FieldError[] }> = {};
  for (const [name, error] of Object.entries(fields)) errors[name] = { _errors: [error] };
  return new ApiError(400, 50035, 'Invalid Form Body', { errors });
}

/** An RFC 6749 §5.2 error: `{error, error_description}` (no description when none is given). */
export class OAuthError extends HttpError {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description ?? error);
    this.name = 'OAuthError';
  }

  override toReply(): Reply {
    const body =
      this.description === undefined
        ? { error: this.error }
        : { error: this.error, error_description: this.description };
    return noStoreJsonReply(this.status, body, this.headers);
  }
}

/** An HTML error page, for requests made by a browser (the authorize endpoint). */
export class HtmlError extends HttpError {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
    this.name = 'HtmlError';
  }

  override toReply(): Reply {
    return htmlReply(this.status, errorPage(this.title, this.message));
  }
}

/**
 * What went wrong with a request body or query string, before any route logic: `malformed` is text that is
 * not what its type says (invalid JSON, bad percent-encoding, a body cut off), `too_deep` JSON nested past
 * MAX_JSON_DEPTH, `bad_multipart` a `multipart/form-data` body that cannot be read (the message says why).
 */
export type BodyProblem = 'too_large' | 'malformed' | 'too_deep' | 'bad_multipart' | 'unsupported_media_type';

/** Thrown by body and query parsing; the router turns it into the route's own error style. */
export class BodyError extends Error {
  constructor(
    readonly problem: BodyProblem,
    message: string,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

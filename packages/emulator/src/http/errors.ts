import type { ApiError } from '../platform/errors.js';
import { errorPage } from './html.js';
import { htmlReply, jsonReply, noStoreJsonReply, type Reply } from './replies.js';

/** An error a route throws to answer with a specific response. */
export abstract class HttpError extends Error {
  /** The response to send. */
  abstract toReply(): Reply;
}

/** The reply of a platform API error: its status, and `{message, code, ...extra}` as JSON. */
export function apiErrorReply(error: ApiError): Reply {
  return jsonReply(error.status, { message: error.message, code: error.code, ...error.extra });
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

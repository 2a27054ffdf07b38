import { JsonBoundsError, MAX_JSON_DEPTH, parseBoundedJson } from '@sdkpp/protocol';
import { BodyError } from './errors.js';

/**
 * Parses JSON a client sent (a request body, a multipart `payload_json`, a form field): nesting past
 * {@link MAX_JSON_DEPTH} is refused before anything is built, so no stored record can be too deep to read back,
 * send on the gateway or save. Throws a BodyError (`malformed` or `too_deep`), which the router answers as
 * the route's error style.
 */
export function parseJsonBody(text: string): unknown {
  try {
    return parseBoundedJson(text);
  } catch (error) {
    if (error instanceof JsonBoundsError && error.problem === 'too_deep') {
      throw new BodyError('too_deep', `the JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
    }
    throw new BodyError('malformed', 'invalid JSON');
  }
}

/**
 * How deep objects and arrays may nest in JSON that a peer sends. The platform's deepest bodies (a Components
 * V2 message inside an interaction callback) nest about a dozen levels; 32 leaves room for every real one
 * while keeping recursive walkers (validation, cloning, `JSON.stringify` at save time) far from the stack's
 * end, which a 20 000-level body reaches.
 */
export const MAX_JSON_DEPTH = 32;

/** Thrown by {@link parseBoundedJson} for text that is not JSON or nests too deep. */
export class JsonBoundsError extends Error {
  constructor(
    /** `invalid`: not JSON at all; `too_deep`: valid so far, but nested past the limit. */
    readonly problem: 'invalid' | 'too_deep',
    message: string,
  ) {
    super(message);
    this.name = 'JsonBoundsError';
  }
}

/**
 * The deepest nesting of objects and arrays in `text`, counted without parsing (strings and their escapes
 * are skipped), stopping as soon as it passes `limit`. Linear in the text and allocation-free, so it can run
 * before `JSON.parse` builds anything.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character, `\"` included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * `JSON.parse` for text from a peer: refuses nesting deeper than `maxDepth` before parsing, so nothing built
 * from the value can overflow the stack later (a stored 20 000-level body would break every read and every
 * save of it). Throws a {@link JsonBoundsError}.
 */
export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (jsonDepthExceeds(text, maxDepth)) {
    throw new JsonBoundsError('too_deep', `the JSON nests deeper than ${maxDepth} levels`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new JsonBoundsError('invalid', 'invalid JSON');
  }
}

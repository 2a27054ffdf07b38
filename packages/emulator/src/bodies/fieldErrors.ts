import { ApiError, type FieldError } from '../platform/errors.js';

/** A path into a request body: `['embeds', 0, 'fields']`. */
export type FieldPath = readonly (string | number)[];

/**
 * Collects problems at paths of a nested body and reports them as one 400 50035 Invalid Form Body with the
 * platform's nested `errors` tree (`{embeds: {0: {fields: {_errors: [...]}}}}`), so the answer names the field.
 */
export class FieldErrors {
  readonly #tree: Record<string, unknown> = {};
  #count = 0;

  /** Records a problem at `path`. */
  add(path: FieldPath, code: string, message: string): void {
    let node = this.#tree;
    for (const key of path) {
      const name = String(key);
      const next = Object.hasOwn(node, name) ? node[name] : undefined;
      if (typeof next === 'object' && next !== null) {
        node = next as Record<string, unknown>;
      } else {
        const created: Record<string, unknown> = {};
        node[name] = created;
        node = created;
      }
    }
    const list = (node._errors ??= []) as FieldError[];
    list.push({ code, message });
    this.#count += 1;
  }

  /** Whether any problem was recorded. */
  get any(): boolean {
    return this.#count > 0;
  }

  /** How many problems were recorded: a reader compares it before and after a part to tell if that failed. */
  get count(): number {
    return this.#count;
  }

  /** Throws the collected problems, if any. */
  finish(): void {
    if (this.#count > 0) throw new ApiError(400, 50035, 'Invalid Form Body', { errors: this.#tree });
  }
}

/** A value as an error message may quote it: primitives as they are, anything else by its kind. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `${value.slice(0, 40)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'a list' : typeof value;
}

/**
 * The body as a JSON object, or the platform's 400 50035 with DICT_TYPE_CONVERT at the root of `errors` (an
 * array, a string, null…).
 */
export function requireObjectBody(body: unknown): Record<string, unknown> {
  if (isRecord(body)) return body;
  throw new ApiError(400, 50035, 'Invalid Form Body', {
    errors: {
      _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }],
    },
  });
}

/** A plain JSON object, not an array or null. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks an optional string of at most `max` characters at `path`; returns it, or undefined when absent or bad. */
export function optionalString(
  errors: FieldErrors,
  path: FieldPath,
  value: unknown,
  max: number,
  min = 0,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    errors.add(path, 'BASE_TYPE_STRING', 'Must be a string.');
    return undefined;
  }
  if (value.length < min || value.length > max) {
    errors.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
    return undefined;
  }
  return value;
}

/**
 * Checks an optional name of `min`–`max` characters at `path`, where whitespace alone counts as empty: a name
 * that shows nothing is answered as a missing one (BASE_TYPE_BAD_LENGTH), never stored.
 */
export function optionalName(
  errors: FieldErrors,
  path: FieldPath,
  value: unknown,
  max: number,
  min = 1,
): string | undefined {
  const name = optionalString(errors, path, value, max, min);
  if (name !== undefined && name.trim().length < Math.max(min, 1)) {
    errors.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
    return undefined;
  }
  return name;
}

/** Checks an optional integer in [min, max] at `path`. */
export function optionalInteger(
  errors: FieldErrors,
  path: FieldPath,
  value: unknown,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    errors.add(path, 'NUMBER_TYPE_COERCE', `Value "${shown(value)}" is not int.`);
    return undefined;
  }
  if (value < min || value > max) {
    errors.add(path, 'NUMBER_TYPE_MAX', `int value should be between ${min} and ${max}.`);
    return undefined;
  }
  return value;
}

/** Checks an optional boolean at `path`. */
export function optionalBoolean(errors: FieldErrors, path: FieldPath, value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    errors.add(path, 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
    return undefined;
  }
  return value;
}

/** Checks an optional array of at most `max` entries at `path`. */
export function optionalArray(
  errors: FieldErrors,
  path: FieldPath,
  value: unknown,
  max: number,
  min = 0,
): unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    errors.add(path, 'BASE_TYPE_LIST', 'Must be a list.');
    return undefined;
  }
  if (value.length > max) {
    errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
    return undefined;
  }
  if (value.length < min) {
    errors.add(path, 'BASE_TYPE_MIN_LENGTH', `Must be ${min} or more in length.`);
    return undefined;
  }
  return value as unknown[];
}

/**
 * An integer query parameter in [min, max], `fallback` when absent; anything else is a 50035 naming it, as the
 * platform answers a bad `limit`.
 */
export function queryInteger(
  query: ReadonlyMap<string, string>,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const text = query.get(name);
  if (text === undefined) return fallback;
  const value = /^[0-9]{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) {
    throw new ApiError(400, 50035, 'Invalid Form Body', {
      errors: {
        [name]: {
          _errors: [{ code: 'NUMBER_TYPE_MAX', message: `int value should be between ${min} and ${max}.` }],
        },
      },
    });
  }
  return value;
}

/** An optional permissions bitfield (a decimal string, or a safe integer) at `path`; 0n when absent. */
export function optionalBitfield(errors: FieldErrors, path: FieldPath, value: unknown): bigint | undefined {
  if (value === undefined || value === null) return 0n;
  if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  errors.add(path, 'NUMBER_TYPE_COERCE', `Value "${shown(value)}" is not a permissions bitfield.`);
  return undefined;
}

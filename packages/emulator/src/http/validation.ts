import { requireObjectBody } from '../bodies/fieldErrors.js';
import { invalidFormBody, type FieldError } from '../platform/errors.js';
import { isSnowflake } from '../snowflake.js';

/**
 * Reads fields of a JSON body and collects every problem, then reports them together as one 50035
 * Invalid Form Body, as the platform does.
 */
export class BodyReader {
  readonly #body: Record<string, unknown>;
  readonly #errors: Record<string, FieldError> = {};

  /** Throws 50035 unless `body` is a JSON object. */
  constructor(body: unknown) {
    this.#body = requireObjectBody(body);
  }

  /** A string of `min`–`max` characters; absent (or null) gives undefined unless required. */
  string(name: string, min: number, max: number, required: boolean): string | undefined {
    const value = Object.hasOwn(this.#body, name) ? this.#body[name] : undefined;
    if (value === undefined || value === null) {
      if (required) this.#errors[name] = { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
      return undefined;
    }
    if (typeof value !== 'string') {
      this.#errors[name] = { code: 'BASE_TYPE_STRING', message: 'Must be a string.' };
      return undefined;
    }
    if (value.length < min || value.length > max) {
      this.#errors[name] = {
        code: 'BASE_TYPE_BAD_LENGTH',
        message: `Must be between ${min} and ${max} in length.`,
      };
      return undefined;
    }
    return value;
  }

  /** A required snowflake string. */
  snowflake(name: string): string | undefined {
    const value = this.string(name, 1, 20, true);
    if (value !== undefined && !isSnowflake(value)) {
      this.#errors[name] = { code: 'NUMBER_TYPE_COERCE', message: `Value "${value}" is not snowflake.` };
      return undefined;
    }
    return value;
  }

  /** A required value from a fixed list. */
  choice<T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.string(name, 1, 1024, true);
    if (value !== undefined && !(values as readonly string[]).includes(value)) {
      this.#errors[name] = {
        code: 'BASE_TYPE_CHOICES',
        message: `Value must be one of (${values.join(', ')}).`,
      };
      return undefined;
    }
    return value as T | undefined;
  }

  /** Throws the collected errors, if any. */
  finish(): void {
    if (Object.keys(this.#errors).length > 0) throw invalidFormBody(this.#errors);
  }
}

import { ValidationError } from '@sdkpp/protocol';

const SNOWFLAKE = /^[0-9]{1,20}$/;

/** True for a snowflake id as the platform sends it: a decimal string of at most 20 digits. */
export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && SNOWFLAKE.test(value);
}

/** Throws a `ValidationError` naming `what` unless `id` is a snowflake string. */
export function requireSnowflake(id: unknown, what: string): asserts id is string {
  if (!isSnowflake(id)) {
    throw new ValidationError(
      `${JSON.stringify(id)?.slice(0, 40) ?? String(id)} is not a ${what} id (a snowflake string)`,
    );
  }
}

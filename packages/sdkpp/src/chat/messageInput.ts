import { ValidationError } from '@sdkpp/protocol';

// The platform's limits on what a message may carry, checked before any request is sent. Direct and lobby
// chat share them and the game backend checks its lobby messages' metadata with them, so they belong to no
// one manager.

/** The platform's content limit, in characters. */
export const MAX_MESSAGE_LENGTH = 2000;
/** Sender metadata: at most 25 keys… */
export const MAX_METADATA_KEYS = 25;
/** …and 1024 characters of keys and values in all. */
export const MAX_METADATA_CHARS = 1024;
/** History requests return at most 200 messages of the last 72 hours. */
export const MAX_HISTORY_MESSAGES = 200;

/** Throws a `ValidationError` unless `content` is 1–2000 characters. */
export function requireContent(content: string): void {
  if (typeof content !== 'string' || content.length === 0 || content.length > MAX_MESSAGE_LENGTH) {
    throw new ValidationError(`message content must be 1–${MAX_MESSAGE_LENGTH} characters`);
  }
}

/** Throws a `ValidationError` unless `limit` is a history limit the platform accepts. */
export function requireLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_HISTORY_MESSAGES) {
    throw new ValidationError(`limit must be an integer 1–${MAX_HISTORY_MESSAGES}`);
  }
}

/** Checks sender metadata against the platform's limits. */
export function requireMetadata(metadata: Record<string, string>): void {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    throw new ValidationError('metadata must be an object');
  const entries = Object.entries(metadata);
  if (entries.length > MAX_METADATA_KEYS)
    throw new ValidationError(`metadata may have at most ${MAX_METADATA_KEYS} keys`);
  let chars = 0;
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw new ValidationError(`metadata value "${key}" must be a string`);
    chars += key.length + value.length;
  }
  if (chars > MAX_METADATA_CHARS)
    throw new ValidationError(`metadata may total at most ${MAX_METADATA_CHARS} characters`);
}

import { ValidationError } from '@sdkpp/protocol';

/** A lobby secret is 1–250 characters (`PUT /lobbies`). */
export const MAX_LOBBY_SECRET_LENGTH = 250;
/** Lobby and member metadata: at most 25 keys… */
export const MAX_LOBBY_METADATA_KEYS = 25;
/** …and 1000 characters of keys and values in all (the platform's "max total length 1000"). */
export const MAX_LOBBY_METADATA_CHARS = 1000;

/** Throws a `ValidationError` unless `secret` is a usable lobby secret. */
export function requireLobbySecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret.length === 0 || secret.length > MAX_LOBBY_SECRET_LENGTH) {
    throw new ValidationError(`a lobby secret must be 1–${MAX_LOBBY_SECRET_LENGTH} characters`);
  }
}

/** Throws a `ValidationError` unless `metadata` fits the platform's lobby metadata limits. */
export function requireLobbyMetadata(
  metadata: unknown,
  what: string,
): asserts metadata is Record<string, string> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new ValidationError(`${what} must be an object of strings`);
  }
  const entries = Object.entries(metadata);
  if (entries.length > MAX_LOBBY_METADATA_KEYS) {
    throw new ValidationError(`${what} may have at most ${MAX_LOBBY_METADATA_KEYS} keys`);
  }
  let chars = 0;
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw new ValidationError(`${what} value "${key}" must be a string`);
    chars += key.length + value.length;
  }
  if (chars > MAX_LOBBY_METADATA_CHARS) {
    throw new ValidationError(`${what} may total at most ${MAX_LOBBY_METADATA_CHARS} characters`);
  }
}

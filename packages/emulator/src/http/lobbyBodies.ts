import { ApiError, type FieldError } from '../platform/errors.js';
import { isSnowflake } from '../snowflake.js';
import { IDLE_TIMEOUT_RANGE } from '../social/Lobbies.js';
import { LOBBY_MEMBER_CAN_LINK } from '../store/types.js';
import { readStringMap } from './stringMap.js';

/**
 * Lobby and member metadata: at most 25 keys and 1000 characters of keys and values together. The platform
 * documents "≤25 keys, values ≤1024 chars, max total length 1000"; the emulator takes the stricter reading
 * (keys count towards the 1000, which also keeps every value under 1024), as the SDK checks it.
 */
export const LOBBY_METADATA_LIMITS = { maxKeys: 25, maxChars: 1000 };
/** A create-or-join secret is 1–250 characters. */
export const MAX_SECRET_LENGTH = 250;
/** An additional name is 1–80 characters. */
export const MAX_ADDITIONAL_NAME = 80;
/** Members per bulk request, and per `POST`/`PATCH /lobbies` member list. */
export const MAX_MEMBER_CHANGES = 25;

/** One member of a request: `POST`/`PATCH /lobbies` `members`, `PUT …/members/:id`, or a bulk change. */
export interface MemberInput {
  id: string;
  metadata?: Record<string, string>;
  flags?: number;
  /** Absent keeps the name, null clears it. */
  additionalName?: string | null;
  /** Bulk only: `remove_member: true`. */
  remove: boolean;
}

/**
 * A 50035 Invalid Form Body whose error sits at `path` in the platform's nested tree, e.g.
 * `['members', 3, 'id']` → `{members: {3: {id: {_errors: [error]}}}}`.
 */
export function formError(path: (string | number)[], error: FieldError): ApiError {
  let tree: Record<string, unknown> = { _errors: [error] };
  for (const key of [...path].reverse()) tree = { [String(key)]: tree };
  return new ApiError(400, 50035, 'Invalid Form Body', { errors: tree });
}

function has(body: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(body, key) && body[key] !== undefined;
}

/** The body as an object, or 50035 at the root (an array, a string, null…). */
export function objectBody(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw formError(['_root'], {
      code: 'DICT_TYPE_CONVERT',
      message: 'Only dictionaries may be used in a DictType',
    });
  }
  return raw as Record<string, unknown>;
}

/** Lobby or member metadata (null reads as empty), or 50035 naming the field. */
export function lobbyMetadata(value: unknown, field: string): Record<string, string> {
  return readStringMap(value, field, LOBBY_METADATA_LIMITS);
}

/** An optional integer in a range; null and absent give undefined. */
function optionalInteger(
  body: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
  path: (string | number)[] = [key],
): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw formError(path, {
      code: 'NUMBER_TYPE_COERCE',
      message: `Value ${JSON.stringify(value)} is not int.`,
    });
  }
  if (value < min) {
    throw formError(path, {
      code: 'NUMBER_TYPE_MIN',
      message: `Int value should be greater than or equal to ${min}.`,
    });
  }
  if (value > max) {
    throw formError(path, {
      code: 'NUMBER_TYPE_MAX',
      message: `Int value should be less than or equal to ${max}.`,
    });
  }
  return value;
}

/** `idle_timeout_seconds`, 5–604800. */
export function idleTimeout(body: Record<string, unknown>): number | undefined {
  return optionalInteger(body, 'idle_timeout_seconds', IDLE_TIMEOUT_RANGE.min, IDLE_TIMEOUT_RANGE.max);
}

/** Lobby `flags`: the platform allows only null or 1 (0 is read as "none" too). */
export function lobbyFlags(body: Record<string, unknown>): number | undefined {
  return optionalInteger(body, 'flags', 0, 1);
}

/** `secret`: required, 1–250 characters. */
export function secret(body: Record<string, unknown>): string {
  const value = body.secret;
  if (value === undefined || value === null) {
    throw formError(['secret'], { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
  }
  if (typeof value !== 'string')
    throw formError(['secret'], { code: 'BASE_TYPE_STRING', message: 'Must be a string.' });
  if (value.length < 1 || value.length > MAX_SECRET_LENGTH) {
    throw formError(['secret'], {
      code: 'BASE_TYPE_BAD_LENGTH',
      message: `Must be between 1 and ${MAX_SECRET_LENGTH} in length.`,
    });
  }
  return value;
}

/** `additional_name`: absent keeps (undefined), null clears, else 1–80 characters. */
function additionalName(body: Record<string, unknown>, path: (string | number)[]): string | null | undefined {
  if (!Object.hasOwn(body, 'additional_name') || body.additional_name === undefined) return undefined;
  const value = body.additional_name;
  if (value === null) return null;
  if (typeof value !== 'string')
    throw formError(path, { code: 'BASE_TYPE_STRING', message: 'Must be a string.' });
  if (value.length < 1 || value.length > MAX_ADDITIONAL_NAME) {
    throw formError(path, {
      code: 'BASE_TYPE_BAD_LENGTH',
      message: `Must be between 1 and ${MAX_ADDITIONAL_NAME} in length.`,
    });
  }
  return value;
}

/** The fields of one member (`id` excluded); `path` locates it in the body for error messages. */
export function memberFields(raw: unknown, path: (string | number)[]): Omit<MemberInput, 'id'> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw formError(path.length > 0 ? path : ['_root'], {
      code: 'DICT_TYPE_CONVERT',
      message: 'Only dictionaries may be used in a DictType',
    });
  }
  const body = raw as Record<string, unknown>;
  const out: Omit<MemberInput, 'id'> = { remove: false };
  if (has(body, 'metadata')) {
    try {
      out.metadata = lobbyMetadata(body.metadata, 'metadata');
    } catch (error) {
      if (path.length === 0) throw error;
      // Re-home the field error under the member's path.
      const errors = (error as ApiError).extra.errors as Record<string, unknown>;
      throw new ApiError(400, 50035, 'Invalid Form Body', { errors: nest(path, errors) });
    }
  }
  // CanLinkLobby is the only member flag.
  const flags = optionalInteger(body, 'flags', 0, LOBBY_MEMBER_CAN_LINK, [...path, 'flags']);
  if (flags !== undefined) out.flags = flags;
  const name = additionalName(body, [...path, 'additional_name']);
  if (name !== undefined) out.additionalName = name;
  const remove = body.remove_member;
  if (remove !== undefined && remove !== null && typeof remove !== 'boolean') {
    throw formError([...path, 'remove_member'], {
      code: 'BASE_TYPE_BOOLEAN',
      message: 'Must be either true or false.',
    });
  }
  out.remove = remove === true;
  return out;
}

function nest(path: (string | number)[], tree: Record<string, unknown>): Record<string, unknown> {
  let out = tree;
  for (const key of [...path].reverse()) out = { [String(key)]: out };
  return out;
}

/** One member with its `id` (a snowflake). */
function memberInput(raw: unknown, path: (string | number)[]): MemberInput {
  const fields = memberFields(raw, path);
  const id = (raw as Record<string, unknown>).id;
  if (typeof id !== 'string' || !isSnowflake(id)) {
    throw formError([...path, 'id'], {
      code: 'NUMBER_TYPE_COERCE',
      message: `Value "${String(id)}" is not snowflake.`,
    });
  }
  return { ...fields, id };
}

/**
 * A list of members (`members` of `POST`/`PATCH /lobbies`, or the bulk body itself when `field` is null):
 * 0–25 (bulk: 1–25) items.
 */
export function memberList(value: unknown, field: string | null): MemberInput[] {
  const where = field === null ? ['_root'] : [field];
  if (!Array.isArray(value)) {
    throw formError(where, { code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' });
  }
  if (value.length > MAX_MEMBER_CHANGES) {
    throw formError(where, {
      code: 'BASE_TYPE_MAX_LENGTH',
      message: `Must be ${MAX_MEMBER_CHANGES} or fewer in length.`,
    });
  }
  if (field === null && value.length === 0) {
    throw formError(where, { code: 'BASE_TYPE_MIN_LENGTH', message: 'Must be 1 or more in length.' });
  }
  return value.map((item: unknown, index) => memberInput(item, field === null ? [index] : [field, index]));
}

/**
 * The platform's API errors, `{code, message}` with an HTTP status. Services throw them (an unknown user, a
 * missing permission) as well as routes, so they stand below every face; http/ renders them as JSON replies.
 */

/** A platform API error: `{code, message, ...}` with an HTTP status, e.g. 400 `{code:530010, …}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 401 with the platform's body for a missing or bad Authorization header. */
export function unauthorized(): ApiError {
  return new ApiError(401, 0, '401: Unauthorized');
}

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
  Sticker: 10060,
  'Guild Scheduled Event': 10070,
  Sound: 10097,
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

/** One field error inside a 50035 Invalid Form Body. */
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

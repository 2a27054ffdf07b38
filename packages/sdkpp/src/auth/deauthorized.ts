import { DeauthorizedError, HttpError } from '@sdkpp/protocol';

/**
 * A refresh the platform refused with `invalid_grant` as a {@link DeauthorizedError}: the user's tokens were
 * deleted (revocation, unmerge, ban), which the platform says to treat as APPLICATION_DEAUTHORIZED. Anything
 * else is returned as it is. Shared by the game's refresh (public client) and the server's (client secret).
 */
export function deauthorizedFrom(error: unknown): unknown {
  if (!(error instanceof HttpError) || error.code !== 'invalid_grant') return error;
  return new DeauthorizedError(
    'The refresh token was rejected (invalid_grant): the user revoked the link, was unmerged or banned. Link again.',
    {
      method: error.method,
      route: error.route,
      status: error.status,
      code: error.code,
      responseBody: error.responseBody,
      cause: error,
    },
  );
}

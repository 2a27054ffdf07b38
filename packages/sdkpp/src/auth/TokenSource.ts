/**
 * The one place the client's access token is read from: the gateway identifies with it and every signed-in
 * HTTP request carries it. `AuthManager` is the source; everything else reads it through this view, so a
 * token changed by `updateToken()` is seen everywhere at once.
 */
export interface TokenSource {
  /** The bearer token given to `updateToken()`, if any. */
  readonly token: string | undefined;
  /** Why no token is set when the last one given was refused, for the error of what needed it. */
  readonly refusal: string | undefined;
}

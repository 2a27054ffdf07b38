/**
 * The kind of failure an SDK operation reports, with the same numeric values as the C++ SDK's `ErrorType`.
 */
export enum ErrorType {
  /** No error: the operation succeeded. */
  None = 0,
  /** The request never got an answer: offline, connection refused, or the HTTP timeout ran out. */
  NetworkError = 1,
  /** The platform answered with a non-success HTTP status. */
  HTTPError = 2,
  /** The operation needs the client to be Ready (see {@link ClientStatus}). */
  ClientNotReady = 3,
  /** The platform has turned this operation off for now. */
  Disabled = 4,
  /** The client was destroyed before the operation could finish. */
  ClientDestroyed = 5,
  /** The inputs failed local validation; nothing was sent. */
  ValidationError = 6,
  /** The user or the game aborted the operation (for example an authorization flow). */
  Aborted = 7,
  /** An authorization step failed without an HTTP error (state mismatch, user denied consent, timeout). */
  AuthorizationFailed = 8,
  /** The local desktop client answered an RPC command with an error. */
  RPCError = 9,
}

/** Returns the C++ SDK's name for an {@link ErrorType} value. */
export function errorTypeToString(type: ErrorType): string {
  return ErrorType[type] ?? `Unknown(${String(type)})`;
}

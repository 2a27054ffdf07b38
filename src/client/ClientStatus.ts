/**
 * The state of the client's gateway connection, with the C++ SDK's `Client::Status` values.
 *
 * Transitions: Disconnected → Connecting → Connected → Ready; Ready → Reconnecting → Connected → Ready after a
 * dropped connection; any → Disconnecting → Disconnected on `disconnect()`; any → Disconnected (with an error)
 * after a terminal close code, from which the client does not reconnect on its own.
 */
export enum ClientStatus {
  /** Not connected; `connect()` starts a connection. */
  Disconnected = 0,
  /** Fetching the gateway address and opening the socket. */
  Connecting = 1,
  /** The socket is open and the session is being identified or resumed. */
  Connected = 2,
  /** The session is live: users, relationships, lobbies and messages are available. */
  Ready = 3,
  /** The connection was lost; the client is resuming or reconnecting by itself. */
  Reconnecting = 4,
  /** `disconnect()` is closing the connection. */
  Disconnecting = 5,
  /** Waiting for an HTTP rate limit to pass. */
  HttpWait = 6,
}

/** Why the connection failed, with the C++ SDK's `Client::Error` values. */
export enum ClientError {
  /** No error. */
  None = 0,
  /** The connection could not be opened (refused, unreachable, handshake failed). */
  ConnectionFailed = 1,
  /** The platform closed the connection; `errorDetail` holds the close code. */
  UnexpectedClose = 2,
  /** The connection attempt was cancelled. */
  ConnectionCanceled = 3,
}

/** The C++ SDK's name of a status, e.g. `"Ready"`. */
export function statusToString(status: ClientStatus): string {
  return ClientStatus[status] ?? `Unknown(${String(status)})`;
}

/** The C++ SDK's name of a connection error, e.g. `"UnexpectedClose"`. */
export function clientErrorToString(error: ClientError): string {
  return ClientError[error] ?? `Unknown(${String(error)})`;
}

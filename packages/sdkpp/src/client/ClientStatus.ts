/**
 * The state of the client's gateway connection: the C++ SDK's `Client::Status`, each value its own name so it
 * logs readably (`'Ready'`); `sdkpp/bindings` keeps the C++ numbers.
 *
 * Transitions: Disconnected → Connecting → Connected → Ready; Ready → Reconnecting → Connected → Ready after a
 * dropped connection; any → Disconnecting → Disconnected on `disconnect()`; any → Disconnected (with an error)
 * after a terminal close code, from which the client does not reconnect on its own.
 */
export enum ClientStatus {
  /** Not connected; `connect()` starts a connection. */
  Disconnected = 'Disconnected',
  /** Fetching the gateway address and opening the socket. */
  Connecting = 'Connecting',
  /** The socket is open and the session is being identified or resumed. */
  Connected = 'Connected',
  /** The session is live: users, relationships, lobbies and messages are available. */
  Ready = 'Ready',
  /** The connection was lost; the client is resuming or reconnecting by itself. */
  Reconnecting = 'Reconnecting',
  /** `disconnect()` is closing the connection. */
  Disconnecting = 'Disconnecting',
  /** Waiting for an HTTP rate limit to pass. */
  HttpWait = 'HttpWait',
}

/** Why the connection failed: the C++ SDK's `Client::Error`, each value its own name (`'UnexpectedClose'`). */
export enum ClientError {
  /** No error. */
  None = 'None',
  /** The connection could not be opened (refused, unreachable, handshake failed). */
  ConnectionFailed = 'ConnectionFailed',
  /** The platform closed the connection; `errorDetail` holds the close code. */
  UnexpectedClose = 'UnexpectedClose',
  /** The connection attempt was cancelled. */
  ConnectionCanceled = 'ConnectionCanceled',
}

/**
 * The C++ SDK's name of a status, e.g. `"Ready"`: the status itself, since the idiomatic API's states are
 * their names (so they log readably); anything else reads `Unknown(…)`.
 */
export function statusToString(status: ClientStatus): string {
  return Object.values<string>(ClientStatus).includes(status) ? status : `Unknown(${status})`;
}

/** The C++ SDK's name of a connection error, e.g. `"UnexpectedClose"`. */
export function clientErrorToString(error: ClientError): string {
  return Object.values<string>(ClientError).includes(error) ? error : `Unknown(${error})`;
}

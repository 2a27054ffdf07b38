import {
  CallError as CoreCallError,
  CallStatus as CoreCallStatus,
  ClientError as CoreClientError,
  ClientStatus as CoreClientStatus,
} from '../src/index.js';

// The idiomatic API names its states (`'Ready'`), so they log readably; the bindings keep the C++ SDK's
// numbers, which engine plugins pass across their own language boundary.

/** The client's connection status, with the C++ SDK's `Client::Status` values. */
export enum ClientStatus {
  /** Not connected. */
  Disconnected = 0,
  /** Fetching the gateway address and opening the socket. */
  Connecting = 1,
  /** The socket is open; the session is being identified or resumed. */
  Connected = 2,
  /** The session is live. */
  Ready = 3,
  /** The connection was lost; the client is resuming or reconnecting by itself. */
  Reconnecting = 4,
  /** `Disconnect()` is closing the connection. */
  Disconnecting = 5,
  /** Waiting for an HTTP rate limit to pass. */
  HttpWait = 6,
}

/** Why the connection failed, with the C++ SDK's `Client::Error` values. */
export enum ClientError {
  /** No error. */
  None = 0,
  /** The connection could not be opened. */
  ConnectionFailed = 1,
  /** The platform closed the connection; the detail holds the close code. */
  UnexpectedClose = 2,
  /** The connection attempt was cancelled. */
  ConnectionCanceled = 3,
}

/** A call's status, with the C++ SDK's `Call::Status` values. */
export enum CallStatus {
  /** Not in the call. */
  Disconnected = 0,
  /** Waiting for a voice server. */
  Joining = 1,
  /** Opening and identifying on the voice server's socket. */
  Connecting = 2,
  /** The voice server accepted the call; audio is being set up. */
  SignalingConnected = 3,
  /** Audio flows both ways. */
  Connected = 4,
  /** The voice connection dropped and is being resumed. */
  Reconnecting = 5,
  /** Leaving the call. */
  Disconnecting = 6,
}

/** Why a call failed, with the C++ SDK's `Call::Error` values. */
export enum CallError {
  /** No error. */
  None = 0,
  /** The voice server could not be reached or refused the call before it connected. */
  SignalingConnectionFailed = 1,
  /** The voice server or the platform closed a connected call. */
  SignalingUnexpectedClose = 2,
  /** The audio (UDP) transport failed. */
  VoiceConnectionFailed = 3,
  /** No voice server was assigned in time. */
  JoinTimeout = 4,
  /** The voice server refused the player. */
  Forbidden = 5,
}

/** The C++ number of an idiomatic client status. */
export function clientStatusOf(status: CoreClientStatus): ClientStatus {
  return ClientStatus[status];
}

/** The C++ number of an idiomatic client error. */
export function clientErrorOf(error: CoreClientError): ClientError {
  return ClientError[error];
}

/** The C++ number of an idiomatic call status. */
export function callStatusOf(status: CoreCallStatus): CallStatus {
  return CallStatus[status];
}

/** The C++ number of an idiomatic call error. */
export function callErrorOf(error: CoreCallError): CallError {
  return CallError[error];
}

/** The name of a client status number, as `Client::StatusToString` gives it. */
export function clientStatusName(status: ClientStatus): string {
  return ClientStatus[status] ?? `Unknown(${String(status)})`;
}

/** The name of a client error number, as `Client::ErrorToString` gives it. */
export function clientErrorName(error: ClientError): string {
  return ClientError[error] ?? `Unknown(${String(error)})`;
}

/** The name of a call status number, as `Call::StatusToString` gives it. */
export function callStatusName(status: CallStatus): string {
  return CallStatus[status] ?? 'Unknown';
}

/** The name of a call error number, as `Call::ErrorToString` gives it. */
export function callErrorName(error: CallError): string {
  return CallError[error] ?? 'Unknown';
}

/** The state of a {@link Call}'s network connection (C++ `Call::Status`, same values). */
export enum CallStatus {
  Disconnected = 0,
  Joining = 1,
  Connecting = 2,
  SignalingConnected = 3,
  Connected = 4,
  Reconnecting = 5,
  Disconnecting = 6,
}

/** Why a {@link Call} failed (C++ `Call::Error`, same values). */
export enum CallError {
  None = 0,
  SignalingConnectionFailed = 1,
  SignalingUnexpectedClose = 2,
  VoiceConnectionFailed = 3,
  JoinTimeout = 4,
  Forbidden = 5,
}

/** Voice activity or push-to-talk (C++ `AudioModeType`, same values). */
export enum AudioModeType {
  MODE_UNINIT = 0,
  MODE_VAD = 1,
  MODE_PTT = 2,
}

/** The name of a call status, as `Call::StatusToString` gives it. */
export function callStatusToString(status: CallStatus): string {
  return CallStatus[status] ?? 'Unknown';
}

/** The name of a call error, as `Call::ErrorToString` gives it. */
export function callErrorToString(error: CallError): string {
  return CallError[error] ?? 'Unknown';
}

/** The state of a {@link Call}'s network connection (C++ `Call::Status`, same values). */
export enum CallStatus {
  /** Not in the call: ended, failed (see {@link CallError}) or not yet started. */
  Disconnected = 0,
  /** Waiting for the platform to assign a voice server; fails with JoinTimeout if none comes. */
  Joining = 1,
  /** Opening and identifying on the voice server's socket. */
  Connecting = 2,
  /** The voice server accepted the call; the audio transport is still being set up, so no audio yet. */
  SignalingConnected = 3,
  /** Audio flows both ways; the call is usable. */
  Connected = 4,
  /** The voice connection dropped and is being resumed; audio pauses until Connected again. */
  Reconnecting = 5,
  /** Leaving the call after `end`; Disconnected follows. */
  Disconnecting = 6,
}

/** Why a {@link Call} failed (C++ `Call::Error`, same values). */
export enum CallError {
  /** No error: the call is fine, or was ended on purpose. */
  None = 0,
  /** The voice server could not be reached, or refused the call before it ever connected. */
  SignalingConnectionFailed = 1,
  /** The voice server or the platform closed a call that had been connected. */
  SignalingUnexpectedClose = 2,
  /** The audio (UDP) transport failed, e.g. IP discovery got no answer. */
  VoiceConnectionFailed = 3,
  /** No voice server was assigned within the join timeout (15 s by default). */
  JoinTimeout = 4,
  /** The voice server refused the player (close 4004 or 4017, e.g. end-to-end encryption required). */
  Forbidden = 5,
}

/** Voice activity or push-to-talk (C++ `AudioModeType`, same values). */
export enum AudioModeType {
  /** Not set; cannot be passed to `setAudioMode`. */
  MODE_UNINIT = 0,
  /** Voice activity detection, the default: the microphone transmits while the player speaks. */
  MODE_VAD = 1,
  /** Push-to-talk: the microphone transmits only while the game holds PTT active. */
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

/**
 * The state of a {@link Call}'s network connection: the C++ `Call::Status`, each value its own name so it logs
 * readably (`'Connected'`); `sdkpp/bindings` keeps the C++ numbers.
 */
export enum CallStatus {
  /** Not in the call: ended, failed (see {@link CallError}) or not yet started. */
  Disconnected = 'Disconnected',
  /** Waiting for the platform to assign a voice server; fails with JoinTimeout if none comes. */
  Joining = 'Joining',
  /** Opening and identifying on the voice server's socket. */
  Connecting = 'Connecting',
  /** The voice server accepted the call; the audio transport is still being set up, so no audio yet. */
  SignalingConnected = 'SignalingConnected',
  /** Audio flows both ways; the call is usable. */
  Connected = 'Connected',
  /** The voice connection dropped and is being resumed; audio pauses until Connected again. */
  Reconnecting = 'Reconnecting',
  /** Leaving the call after `end`; Disconnected follows. */
  Disconnecting = 'Disconnecting',
}

/** Why a {@link Call} failed: the C++ `Call::Error`, each value its own name (`'JoinTimeout'`). */
export enum CallError {
  /** No error: the call is fine, or was ended on purpose. */
  None = 'None',
  /** The voice server could not be reached, or refused the call before it ever connected. */
  SignalingConnectionFailed = 'SignalingConnectionFailed',
  /** The voice server or the platform closed a call that had been connected. */
  SignalingUnexpectedClose = 'SignalingUnexpectedClose',
  /** The audio (UDP) transport failed, e.g. IP discovery got no answer. */
  VoiceConnectionFailed = 'VoiceConnectionFailed',
  /** No voice server was assigned within the join timeout (15 s by default). */
  JoinTimeout = 'JoinTimeout',
  /** The voice server refused the player (close 4004 or 4017, e.g. end-to-end encryption required). */
  Forbidden = 'Forbidden',
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
  return Object.values<string>(CallStatus).includes(status) ? status : 'Unknown';
}

/** The name of a call error, as `Call::ErrorToString` gives it. */
export function callErrorToString(error: CallError): string {
  return Object.values<string>(CallError).includes(error) ? error : 'Unknown';
}

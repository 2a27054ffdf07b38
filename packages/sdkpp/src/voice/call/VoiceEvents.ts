import type { AudioDevice } from '../devices/audioDevices.js';
import type { AudioDeviceLoss } from '../devices/SystemDevices.js';

/** Events of the lobbies' voice calls that the client emits, each with its argument tuple (part of the client's events). */
export interface VoiceEvents {
  /**
   * Someone joined (`added`) or left the voice call of a lobby the player is in, whether or not the player is
   * in the call.
   */
  voiceParticipantChanged: [lobbyId: string, memberId: string, added: boolean];
  /**
   * With `Client.setNoAudioInputThreshold` set: the microphone started delivering sound at or above
   * the threshold (`true`, at once) or stayed below it for a second (`false`), while in a call. Only changes
   * are reported.
   */
  audioInputDetected: [inputDetected: boolean];
  /**
   * The system's audio devices changed: one was plugged in or removed, or the default moved. Both lists
   * are what `client.getInputDevices()` and `client.getOutputDevices()` would give now.
   */
  devicesChanged: [inputDevices: AudioDevice[], outputDevices: AudioDevice[]];
  /**
   * The chosen microphone or speaker went away (unplugged, or it stopped delivering) and the SDK moved the
   * audio to the system default on its own; the call goes on.
   */
  audioDeviceLost: [loss: AudioDeviceLoss];
}

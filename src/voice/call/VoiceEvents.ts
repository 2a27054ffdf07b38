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
}

/**
 * Sees each remote user's 20 ms of PCM before it is mixed (48 kHz, interleaved stereo); may change the
 * samples in place. Returning true mutes that user's frame in the SDK's own playout (the game plays it).
 */
export type UserAudioReceivedCallback = (
  userId: string,
  samples: Int16Array,
  samplesPerChannel: number,
  sampleRate: number,
  channels: number,
) => boolean | void;

/** Sees the player's microphone audio (20 ms, 48 kHz stereo) before it is sent; may change it in place. */
export type UserAudioCapturedCallback = (
  samples: Int16Array,
  samplesPerChannel: number,
  sampleRate: number,
  channels: number,
) => void;

/** How a user sounds to this player in one call: volume 0–200 and the local mute. */
export interface UserPlayback {
  volume: number;
  localMute: boolean;
}

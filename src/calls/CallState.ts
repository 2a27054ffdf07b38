import type { AudioProcessor } from '../media/audio/types.js';
import type { VoiceTransport } from '../media/transport/types.js';
import type { VoiceAudioSettings, VoiceConnection } from '../voice/VoiceConnection.js';
import type { Call, VADThresholdSettings } from './Call.js';
import type { AudioModeType, CallStatus } from './enums.js';

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

/**
 * One call as the call manager, its backend and the audio pump share it: mutable on purpose, since the
 * pump touches it every 20 ms and copying it there would cost more than it protects.
 */
export interface CallState {
  readonly lobbyId: string;
  readonly call: Call;
  status: CallStatus;
  /** False once the call has reported Disconnected; nothing may change it after. */
  active: boolean;
  everConnected: boolean;
  /** Shared with the voice connection, which re-reads it on `applySettings`. */
  settings: VoiceAudioSettings;
  audioMode: AudioModeType;
  vad: VADThresholdSettings;
  playback: Map<string, UserPlayback>;
  connection: VoiceConnection | undefined;
  joinTimer: ReturnType<typeof setTimeout> | undefined;
  received: UserAudioReceivedCallback | undefined;
  captured: UserAudioCapturedCallback | undefined;
  outQueue: Int16Array[];
  /** Playout pacing: the transport's tick count at the last pull, and the silent frames still owed. */
  playout: { transport: VoiceTransport | undefined; ticks: number; balance: number };
  /** Capture pacing: frames pushed to `transport` since its tick count was `base`. */
  capture: { transport: VoiceTransport | undefined; pushed: number; base: number };
  /** Speaker-output mode's per-user mixer. */
  mixer: AudioProcessor | undefined;
}

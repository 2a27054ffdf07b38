import { ValidationError } from '../errors/index.js';
import { Call, type CallBackend } from './Call.js';
import type { CallState, UserAudioCapturedCallback, UserAudioReceivedCallback } from './CallState.js';
import { AudioModeType, CallStatus } from './enums.js';
import type { VoiceStateStore } from './VoiceStateStore.js';

/** The VAD threshold an automatic setting uses (the engine's energy VAD default). */
const AUTOMATIC_VAD_DB = -50;

/** What a new call takes from the client-wide settings and from `startCall`. */
export interface NewCallOptions {
  lobbyId: string;
  selfMute: boolean;
  selfDeaf: boolean;
  /** Linear, from the input volume. */
  captureGain: number;
  received: UserAudioReceivedCallback | undefined;
  captured: UserAudioCapturedCallback | undefined;
  /** The voice states its participants are read from. */
  states: VoiceStateStore;
  /** The player changed their mute or deafen in this call (the manager owns op 17). */
  setSelf: (state: CallState, flags: { selfMute?: boolean; selfDeaf?: boolean }) => void;
  /** Leaves this call (the manager owns the connection). */
  end: (state: CallState) => Promise<void>;
}

/**
 * A new call's state and its {@link Call}, whose backend reads and changes that state; Joining, with the
 * default audio settings (voice activity with the automatic threshold).
 */
export function createCallState(options: NewCallOptions): CallState {
  const state: CallState = {
    lobbyId: options.lobbyId,
    call: undefined as unknown as Call,
    status: CallStatus.Joining,
    active: true,
    everConnected: false,
    settings: {
      selfMute: options.selfMute,
      selfDeaf: options.selfDeaf,
      pushToTalk: false,
      pushToTalkActive: false,
      pushToTalkReleaseDelayMs: 20,
      vadThresholdDb: AUTOMATIC_VAD_DB,
      captureGain: options.captureGain,
    },
    audioMode: AudioModeType.MODE_VAD,
    vad: { automatic: true, vadThreshold: -60 },
    playback: new Map(),
    connection: undefined,
    joinTimer: undefined,
    received: options.received,
    captured: options.captured,
    outQueue: [],
    playout: { transport: undefined, ticks: 0, balance: 0 },
    capture: { transport: undefined, pushed: 0, base: 0 },
    mixer: undefined,
  };
  // The Call and its backend need each other: the state is complete only once the Call exists.
  (state as { call: Call }).call = new Call(backend(state, options));
  return state;
}

/**
 * Sets the player's mute and deafen in one call and re-applies the settings to its connection; true when
 * either changed (op 17 then has news).
 */
export function applySelf(state: CallState, flags: { selfMute?: boolean; selfDeaf?: boolean }): boolean {
  if (!state.active) return false;
  const before = { mute: state.settings.selfMute, deaf: state.settings.selfDeaf };
  if (flags.selfMute !== undefined) state.settings.selfMute = flags.selfMute;
  if (flags.selfDeaf !== undefined) state.settings.selfDeaf = flags.selfDeaf;
  if (before.mute === state.settings.selfMute && before.deaf === state.settings.selfDeaf) return false;
  state.connection?.applySettings();
  return true;
}

function backend(state: CallState, options: NewCallOptions): CallBackend {
  return {
    lobbyId: state.lobbyId,
    status: () => state.status,
    isActive: () => state.active,
    participants: () => options.states.participants(state.lobbyId),
    voiceState: (userId) => options.states.handle(state.lobbyId, userId),
    setSelf: (flags) => {
      options.setSelf(state, flags);
    },
    selfMute: () => state.settings.selfMute,
    selfDeaf: () => state.settings.selfDeaf,
    setAudio: (change) => {
      if (!state.active) return;
      if (change.audioMode !== undefined) {
        state.audioMode = change.audioMode;
        state.settings.pushToTalk = change.audioMode === AudioModeType.MODE_PTT;
      }
      if (change.pttActive !== undefined) state.settings.pushToTalkActive = change.pttActive;
      if (change.pttReleaseDelayMs !== undefined)
        state.settings.pushToTalkReleaseDelayMs = change.pttReleaseDelayMs;
      if (change.vad) {
        state.vad = change.vad;
        state.settings.vadThresholdDb = change.vad.automatic ? AUTOMATIC_VAD_DB : change.vad.vadThreshold;
      }
      state.connection?.applySettings();
    },
    audio: () => ({
      audioMode: state.audioMode,
      pttActive: state.settings.pushToTalkActive,
      pttReleaseDelayMs: state.settings.pushToTalkReleaseDelayMs,
      vad: state.vad,
    }),
    setUserPlayback: (userId, change) => {
      if (!state.active) return;
      const current = { ...(state.playback.get(userId) ?? { volume: 100, localMute: false }), ...change };
      state.playback.set(userId, current);
      state.connection?.setUserGain(userId, current.localMute ? 0 : current.volume / 100);
    },
    userPlayback: (userId) => ({ ...(state.playback.get(userId) ?? { volume: 100, localMute: false }) }),
    end: () => options.end(state),
    privacyCode: () => state.connection?.privacyCode ?? '',
    verificationCode: async (userId) => {
      const connection = state.connection;
      if (!connection)
        throw new ValidationError('getVerificationCode: the call is not connected yet (or has ended)');
      let code: string | null;
      try {
        code = await connection.verificationCode(userId);
      } catch (error) {
        // The DAVE session knows the pair only once both are members of the same MLS epoch.
        throw new ValidationError(
          `getVerificationCode: ${userId} and the player are not in the same end-to-end encrypted group yet; ask again once privacyCodeChanged gives a code`,
          { cause: error },
        );
      }
      if (!code) throw new ValidationError('getVerificationCode: the call is not end-to-end encrypted');
      return code;
    },
  };
}

import { ValidationError } from '@sdkpp/protocol';
import { TypedEmitter } from '@sdkpp/protocol';
import type { VoiceTransportStats } from '../../media/index.js';
import type { InboundAudioState } from '../connection/InboundAudioWatchdog.js';
import { AudioModeType, CallError, CallStatus, callErrorToString, callStatusToString } from './enums.js';
import type { VoiceStateHandle } from './VoiceStateHandle.js';

/** Voice activity detection settings (C++ `VADThresholdSettings`). */
export interface VADThresholdSettings {
  /** The threshold in dBFS, -100..0 (default -60). */
  readonly vadThreshold: number;
  /** Whether the SDK picks the threshold itself (default true). */
  readonly automatic: boolean;
}

/** Events of a {@link Call}. */
export interface CallEvents {
  /** The call's status changed; `errorDetail` is a voice close code when there is one. */
  statusChanged: [status: CallStatus, error: CallError, errorDetail: number];
  /** Someone joined (`added`) or left the call. */
  participantChanged: [userId: string, added: boolean];
  /** Someone started or stopped speaking (the player included). */
  speakingStatusChanged: [userId: string, isPlayingSound: boolean];
  /** A participant's voice state (self mute or deafen) changed. */
  voiceStateChanged: [userId: string];
  /**
   * The call's privacy code changed ({@link Call.getPrivacyCode}): a new end-to-end encryption epoch after
   * someone joined or left, or `''` while the player is alone or the call is not end-to-end encrypted. Show
   * it next to the call so players can compare it. An sdkpp addition; the C++ SDK has no such callback.
   */
  privacyCodeChanged: [privacyCode: string];
  /**
   * The player's inbound audio stopped while others spoke, or came back. The voice server said someone
   * speaks, yet nothing reached the player for 2.5 s: the path to them broke one way while the voice
   * connection stayed up (a lost NAT mapping, a misrouting server). The SDK then reconnects the voice
   * connection (the status goes Reconnecting → SignalingConnected → Connected, with a new privacy code) and
   * says `'stalled'`; `'flowing'` once audio arrives again; `'lost'` after three reconnects in a row did not
   * help (each waits twice as long as the one before), when it waits for audio without reconnecting further.
   * `stalledMs` is how long audio had been missing. Each comes with a log line (Warning for `'stalled'` and
   * `'lost'`). An sdkpp addition.
   */
  inboundAudioChanged: [state: InboundAudioState, stalledMs: number];
}

/**
 * What a {@link Call} asks of the SDK: the call's live state, kept by the call manager. Not for
 * applications.
 */
export interface CallBackend {
  readonly lobbyId: string;
  status(): CallStatus;
  isActive(): boolean;
  participants(): string[];
  voiceState(userId: string): VoiceStateHandle | undefined;
  setSelf(flags: { selfMute?: boolean; selfDeaf?: boolean }): void;
  selfMute(): boolean;
  selfDeaf(): boolean;
  setAudio(change: {
    audioMode?: AudioModeType;
    pttActive?: boolean;
    pttReleaseDelayMs?: number;
    vad?: VADThresholdSettings;
  }): void;
  audio(): {
    audioMode: AudioModeType;
    pttActive: boolean;
    pttReleaseDelayMs: number;
    vad: VADThresholdSettings;
  };
  setUserPlayback(userId: string, change: { volume?: number; localMute?: boolean }): void;
  userPlayback(userId: string): { volume: number; localMute: boolean };
  privacyCode(): string;
  transportStats(): VoiceTransportStats | undefined;
  verificationCode(userId: string): Promise<string>;
  end(): Promise<void>;
}

function requireUserId(userId: string, what: string): void {
  if (typeof userId !== 'string' || !/^\d{1,20}$/.test(userId))
    throw new ValidationError(`${what}: not a user id`);
}

/**
 * A voice call in a lobby (C++ `Call`): its status, the player's mute, deafen, push-to-talk and voice
 * activity settings, each participant's local volume and mute, the participants and their voice states,
 * speaking events, and the end-to-end encryption codes. Get one from `Client.startCall`; after the call ends
 * it reads as Disconnected and its setters do nothing.
 */
export class Call extends TypedEmitter<CallEvents> {
  readonly #b: CallBackend;

  /** @internal Created by the client. */
  constructor(backend: CallBackend) {
    super();
    this.#b = backend;
  }

  /**
   * Leaves the call, as `client.endCall(lobbyId)` does; resolves once it ended. Nothing happens for a call
   * that already ended. `await using call = client.startCall(lobbyId)` calls it when the scope ends.
   */
  async end(): Promise<void> {
    await this.#b.end();
  }

  /** The same as {@link Call.end}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#b.end();
  }

  /** Names a status (`Call::StatusToString`). */
  static statusToString(status: CallStatus): string {
    return callStatusToString(status);
  }

  /** Names an error (`Call::ErrorToString`). */
  static errorToString(error: CallError): string {
    return callErrorToString(error);
  }

  /** False once the call ended. */
  get isValid(): boolean {
    return this.#b.isActive();
  }

  /** The lobby id of the call. */
  getChannelId(): string {
    return this.#b.lobbyId;
  }

  /** The lobby id of the call (the C++ SDK names it both ways). */
  getGuildId(): string {
    return this.#b.lobbyId;
  }

  /** The call's status. */
  getStatus(): CallStatus {
    return this.#b.status();
  }

  /** The user ids of everyone in the call, the player included once joined. */
  getParticipants(): string[] {
    return this.#b.participants();
  }

  /** A participant's voice state, or undefined when they are not in the call. */
  getVoiceStateHandle(userId: string): VoiceStateHandle | undefined {
    return this.#b.voiceState(userId);
  }

  /** Mutes the player's microphone in this call (the others see it in the voice state). */
  setSelfMute(mute: boolean): void {
    this.#b.setSelf({ selfMute: mute });
  }

  /** Whether the player is muted in this call. */
  getSelfMute(): boolean {
    return this.#b.selfMute();
  }

  /** Deafens the player in this call: they hear nobody, and nobody hears them. */
  setSelfDeaf(deaf: boolean): void {
    this.#b.setSelf({ selfDeaf: deaf });
  }

  /** Whether the player is deafened in this call. */
  getSelfDeaf(): boolean {
    return this.#b.selfDeaf();
  }

  /** Voice activity (MODE_VAD, the default) or push-to-talk (MODE_PTT). */
  setAudioMode(audioMode: AudioModeType): void {
    if (audioMode !== AudioModeType.MODE_VAD && audioMode !== AudioModeType.MODE_PTT)
      throw new ValidationError('setAudioMode: MODE_VAD or MODE_PTT');
    this.#b.setAudio({ audioMode });
  }

  /** The audio mode. */
  getAudioMode(): AudioModeType {
    return this.#b.audio().audioMode;
  }

  /** In push-to-talk mode: the player pressed (true) or released (false) their push-to-talk key. */
  setPTTActive(active: boolean): void {
    this.#b.setAudio({ pttActive: active });
  }

  /** Whether the push-to-talk key is held. */
  getPTTActive(): boolean {
    return this.#b.audio().pttActive;
  }

  /** How long sending goes on after the push-to-talk key is released, 0–60000 ms (default 20). */
  setPTTReleaseDelay(releaseDelayMs: number): void {
    if (!Number.isInteger(releaseDelayMs) || releaseDelayMs < 0 || releaseDelayMs > 60_000)
      throw new ValidationError('setPTTReleaseDelay: an integer number of ms in 0..60000');
    this.#b.setAudio({ pttReleaseDelayMs: releaseDelayMs });
  }

  /** The push-to-talk release delay in ms. */
  getPTTReleaseDelay(): number {
    return this.#b.audio().pttReleaseDelayMs;
  }

  /**
   * Voice activity detection: `automatic` lets the SDK choose; otherwise `threshold` (dBFS, -100..0) is the
   * level at which the microphone counts as speech.
   */
  setVADThreshold(automatic: boolean, threshold: number): void {
    if (typeof threshold !== 'number' || !(threshold >= -100 && threshold <= 0))
      throw new ValidationError('setVADThreshold: the threshold is in dBFS, -100..0');
    this.#b.setAudio({ vad: { automatic: automatic, vadThreshold: threshold } });
  }

  /** The voice activity settings. */
  getVADThreshold(): VADThresholdSettings {
    return { ...this.#b.audio().vad };
  }

  /** A participant's playback volume for the player only, 0–200 (100 is unchanged). */
  setParticipantVolume(userId: string, volume: number): void {
    requireUserId(userId, 'setParticipantVolume');
    if (typeof volume !== 'number' || !(volume >= 0 && volume <= 200))
      throw new ValidationError('setParticipantVolume: the volume is 0..200');
    this.#b.setUserPlayback(userId, { volume });
  }

  /** A participant's playback volume (100 by default). */
  getParticipantVolume(userId: string): number {
    return this.#b.userPlayback(userId).volume;
  }

  /** Mutes a participant for the player only (the others still hear them). */
  setLocalMute(userId: string, mute: boolean): void {
    requireUserId(userId, 'setLocalMute');
    this.#b.setUserPlayback(userId, { localMute: mute });
  }

  /** Whether the player muted this participant locally. */
  getLocalMute(userId: string): boolean {
    return this.#b.userPlayback(userId).localMute;
  }

  /**
   * The call's 30-digit privacy code: the same for everyone in the call in the same end-to-end encryption
   * epoch; it changes when someone joins or leaves. Empty while the call is not end-to-end encrypted.
   */
  getPrivacyCode(): string {
    return this.#b.privacyCode();
  }

  /**
   * The voice transport's counters while the call is connected (undefined before and after): packets sent
   * and received, what was dropped and why, late ticks, and when the latest transmission's first packet
   * left (`lastSpurtStartUs`). For a diagnostics overlay or a support log; an sdkpp addition.
   */
  getTransportStats(): VoiceTransportStats | undefined {
    return this.#b.transportStats();
  }

  /**
   * The 45-digit code that lets the player and `userId` verify each other out of band: both see the same
   * digits unless someone is in the middle. Rejects while the call is not end-to-end encrypted.
   */
  getVerificationCode(userId: string): Promise<string> {
    requireUserId(userId, 'getVerificationCode');
    return this.#b.verificationCode(userId);
  }

  /** C++-style setter: one status callback (replaces the previous one set this way). */
  setStatusChangedCallback(
    cb: ((status: CallStatus, error: CallError, errorDetail: number) => void) | undefined,
  ): void {
    this.#replace('statusChanged', cb);
  }

  /** C++-style setter: one participant callback. */
  setParticipantChangedCallback(cb: ((userId: string, added: boolean) => void) | undefined): void {
    this.#replace('participantChanged', cb);
  }

  /** C++-style setter: one speaking callback. */
  setSpeakingStatusChangedCallback(
    cb: ((userId: string, isPlayingSound: boolean) => void) | undefined,
  ): void {
    this.#replace('speakingStatusChanged', cb);
  }

  /** C++-style setter: one voice state callback. */
  setOnVoiceStateChangedCallback(cb: ((userId: string) => void) | undefined): void {
    this.#replace('voiceStateChanged', cb);
  }

  /** @internal The SDK reports the call's events through this. */
  _dispatch<E extends keyof CallEvents>(event: E, ...args: CallEvents[E]): void {
    this.emit(event, ...args);
  }

  readonly #set = new Map<string, (...args: never[]) => void>();

  #replace<E extends keyof CallEvents>(event: E, cb: ((...args: CallEvents[E]) => void) | undefined): void {
    const previous = this.#set.get(event) as ((...args: CallEvents[E]) => void) | undefined;
    if (previous) this.off(event, previous);
    this.#set.delete(event);
    if (cb) {
      this.on(event, cb);
      this.#set.set(event, cb as unknown as (...args: never[]) => void);
    }
  }

  /** A plain snapshot. */
  toJSON(): {
    /** The lobby the call belongs to. */
    lobbyId: string;
    /** The status's name, as {@link callStatusToString} gives it (e.g. `'Connected'`). */
    status: string;
    /** The user ids of everyone in the call, the player included once joined. */
    participants: string[];
    /** Whether the player is muted in this call. */
    selfMute: boolean;
    /** Whether the player is deafened in this call. */
    selfDeaf: boolean;
  } {
    return {
      lobbyId: this.#b.lobbyId,
      status: callStatusToString(this.getStatus()),
      participants: this.getParticipants(),
      selfMute: this.getSelfMute(),
      selfDeaf: this.getSelfDeaf(),
    };
  }
}

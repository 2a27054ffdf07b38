import {
  AudioModeType,
  type AudioDevice as CoreAudioDevice,
  type Call as CoreCall,
  type CallInfoHandle as CoreCallInfoHandle,
  type VoiceStateHandle as CoreVoiceStateHandle,
} from '../src/index.js';
import { enqueueCallback } from './callbacks.js';
import {
  CallError,
  CallStatus,
  callErrorName,
  callErrorOf,
  callStatusName,
  callStatusOf,
} from './statusEnums.js';
import { idToBigInt, idToString, type Uint64Like } from './ids.js';

export { AudioModeType };

/** One participant's voice state, as the C++ SDK's `VoiceStateHandle`; a live view. */
export class VoiceStateHandle {
  readonly #core: CoreVoiceStateHandle;

  /** @internal Created by the SDK. */
  constructor(core: CoreVoiceStateHandle) {
    this.#core = core;
  }
  /** True when the participant deafened themselves. */
  SelfDeaf(): boolean {
    return this.#core.selfDeaf;
  }
  /** True when the participant muted themselves. */
  SelfMute(): boolean {
    return this.#core.selfMute;
  }
}

/** A lobby's call as members see it, as the C++ SDK's `CallInfoHandle`; a live view. */
export class CallInfoHandle {
  readonly #core: CoreCallInfoHandle;

  /** @internal Created by the SDK. */
  constructor(core: CoreCallInfoHandle) {
    this.#core = core;
  }
  /** The lobby id. */
  ChannelId(): bigint {
    return idToBigInt(this.#core.channelId);
  }
  /** The lobby id. */
  GuildId(): bigint {
    return idToBigInt(this.#core.guildId);
  }
  /** The participants' user ids. */
  GetParticipants(): bigint[] {
    return this.#core.getParticipants().map((id) => idToBigInt(id));
  }
  /** A participant's voice state, if they are in the call. */
  GetVoiceStateHandle(userId: Uint64Like): VoiceStateHandle | undefined {
    const state = this.#core.getVoiceStateHandle(idToString(userId));
    return state ? new VoiceStateHandle(state) : undefined;
  }
}

/** Voice activity detection settings, as the C++ SDK's `VADThresholdSettings`. */
export class VADThresholdSettings {
  #vadThreshold: number;
  #automatic: boolean;

  /** @internal Created by the SDK (or by the game, to pass around). */
  constructor(vadThreshold = -60, automatic = true) {
    this.#vadThreshold = vadThreshold;
    this.#automatic = automatic;
  }
  /** The threshold in dBFS (-100..0). */
  VadThreshold(): number {
    return this.#vadThreshold;
  }
  /** Sets the threshold. */
  SetVadThreshold(value: number): void {
    this.#vadThreshold = value;
  }
  /** Whether the SDK chooses the threshold. */
  Automatic(): boolean {
    return this.#automatic;
  }
  /** Sets whether the SDK chooses the threshold. */
  SetAutomatic(value: boolean): void {
    this.#automatic = value;
  }
}

/** One audio device, as the C++ SDK's `AudioDevice`. */
export class AudioDevice {
  #id: string;
  #name: string;
  #isDefault: boolean;

  /** A device; the SDK's lists are made of these. */
  constructor(core: CoreAudioDevice = { id: '', name: '', isDefault: false }) {
    this.#id = core.id;
    this.#name = core.name;
    this.#isDefault = core.isDefault;
  }
  /** Compares the ids of two devices. */
  Equals(rhs: AudioDevice): boolean {
    return this.#id === rhs.Id();
  }
  /** The device id (`null`, `wav-in:<path>`, `wav-out:<path>`). */
  Id(): string {
    return this.#id;
  }
  /** Sets the id. */
  SetId(value: string): void {
    this.#id = value;
  }
  /** The display name. */
  Name(): string {
    return this.#name;
  }
  /** Sets the display name. */
  SetName(value: string): void {
    this.#name = value;
  }
  /** Whether it is the default device. */
  IsDefault(): boolean {
    return this.#isDefault;
  }
  /** Sets whether it is the default device. */
  SetIsDefault(value: boolean): void {
    this.#isDefault = value;
  }
}

/** `Call::OnStatusChanged(status, error, errorDetail)`. */
export type CallOnStatusChanged = (status: CallStatus, error: CallError, errorDetail: number) => void;
/** `Call::OnParticipantChanged(userId, added)`. */
export type CallOnParticipantChanged = (userId: bigint, added: boolean) => void;
/** `Call::OnSpeakingStatusChanged(userId, isPlayingSound)`. */
export type CallOnSpeakingStatusChanged = (userId: bigint, isPlayingSound: boolean) => void;
/** `Call::OnVoiceStateChanged(userId)`. */
export type CallOnVoiceStateChanged = (userId: bigint) => void;

/**
 * A lobby voice call, as the C++ SDK's `Call`. `Client.StartCall` returns an invalid one (`IsValid()` false)
 * when the call could not be started; its getters then read as empty and its setters do nothing.
 */
export class Call {
  readonly #core: CoreCall | undefined;

  /** The C++ `Call::Status` enum. */
  static readonly Status = CallStatus;
  /** The C++ `Call::Error` enum. */
  static readonly Error = CallError;

  /** @internal Created by the client. */
  constructor(core: CoreCall | undefined) {
    this.#core = core;
  }

  /** `Call::StatusToString`. */
  static StatusToString(status: CallStatus): string {
    return callStatusName(status);
  }
  /** `Call::ErrorToString`. */
  static ErrorToString(error: CallError): string {
    return callErrorName(error);
  }

  /** False for a call that could not be started, or that ended (the C++ `operator bool`). */
  IsValid(): boolean {
    return this.#core?.isValid ?? false;
  }
  /** The lobby id. */
  GetChannelId(): bigint {
    return idToBigInt(this.#core?.getChannelId());
  }
  /** The lobby id. */
  GetGuildId(): bigint {
    return idToBigInt(this.#core?.getGuildId());
  }
  /** The call status. */
  GetStatus(): CallStatus {
    return this.#core ? callStatusOf(this.#core.getStatus()) : CallStatus.Disconnected;
  }
  /** The participants' user ids. */
  GetParticipants(): bigint[] {
    return (this.#core?.getParticipants() ?? []).map((id) => idToBigInt(id));
  }
  /** A participant's voice state. */
  GetVoiceStateHandle(userId: Uint64Like): VoiceStateHandle | undefined {
    const state = this.#core?.getVoiceStateHandle(idToString(userId));
    return state ? new VoiceStateHandle(state) : undefined;
  }
  /** The audio mode. */
  GetAudioMode(): AudioModeType {
    return this.#core?.getAudioMode() ?? AudioModeType.MODE_UNINIT;
  }
  /** Voice activity or push-to-talk. */
  SetAudioMode(audioMode: AudioModeType): void {
    this.#core?.setAudioMode(audioMode);
  }
  /** Whether the player muted this user locally. */
  GetLocalMute(userId: Uint64Like): boolean {
    return this.#core?.getLocalMute(idToString(userId)) ?? false;
  }
  /** Mutes a user for the player only. */
  SetLocalMute(userId: Uint64Like, mute: boolean): void {
    this.#core?.setLocalMute(idToString(userId), mute);
  }
  /** A user's playback volume (0–200). */
  GetParticipantVolume(userId: Uint64Like): number {
    return this.#core?.getParticipantVolume(idToString(userId)) ?? 100;
  }
  /** Sets a user's playback volume (0–200). */
  SetParticipantVolume(userId: Uint64Like, volume: number): void {
    this.#core?.setParticipantVolume(idToString(userId), volume);
  }
  /** Whether the push-to-talk key is held. */
  GetPTTActive(): boolean {
    return this.#core?.getPTTActive() ?? false;
  }
  /** The push-to-talk key went down or up. */
  SetPTTActive(active: boolean): void {
    this.#core?.setPTTActive(active);
  }
  /** The push-to-talk release delay in ms. */
  GetPTTReleaseDelay(): number {
    return this.#core?.getPTTReleaseDelay() ?? 0;
  }
  /** Sets the push-to-talk release delay in ms. */
  SetPTTReleaseDelay(releaseDelayMs: number): void {
    this.#core?.setPTTReleaseDelay(releaseDelayMs);
  }
  /** Whether the player is deafened in this call. */
  GetSelfDeaf(): boolean {
    return this.#core?.getSelfDeaf() ?? false;
  }
  /** Deafens the player in this call. */
  SetSelfDeaf(deaf: boolean): void {
    this.#core?.setSelfDeaf(deaf);
  }
  /** Whether the player is muted in this call. */
  GetSelfMute(): boolean {
    return this.#core?.getSelfMute() ?? false;
  }
  /** Mutes the player in this call. */
  SetSelfMute(mute: boolean): void {
    this.#core?.setSelfMute(mute);
  }
  /** The voice activity settings. */
  GetVADThreshold(): VADThresholdSettings {
    const vad = this.#core?.getVADThreshold() ?? { vadThreshold: -60, automatic: true };
    return new VADThresholdSettings(vad.vadThreshold, vad.automatic);
  }
  /** Sets the voice activity settings. */
  SetVADThreshold(automatic: boolean, threshold: number): void {
    this.#core?.setVADThreshold(automatic, threshold);
  }
  /** The 30-digit privacy code (empty while not end-to-end encrypted). Beyond the C++ SDK's surface. */
  GetPrivacyCode(): string {
    return this.#core?.getPrivacyCode() ?? '';
  }
  /** The 45-digit verification code with `userId`, to the callback (empty on failure). Beyond the C++ SDK. */
  GetVerificationCode(userId: Uint64Like, callback: (code: string) => void): void {
    const core = this.#core;
    const promise = core ? core.getVerificationCode(idToString(userId)) : Promise.resolve('');
    promise.then(
      (code) => {
        enqueueCallback(() => {
          callback(code);
        });
      },
      () => {
        enqueueCallback(() => {
          callback('');
        });
      },
    );
  }
  /** Sets the status callback. */
  SetStatusChangedCallback(cb: CallOnStatusChanged): void {
    this.#core?.setStatusChangedCallback((status, error, detail) => {
      enqueueCallback(() => {
        cb(callStatusOf(status), callErrorOf(error), detail);
      });
    });
  }
  /** Sets the participant callback. */
  SetParticipantChangedCallback(cb: CallOnParticipantChanged): void {
    this.#core?.setParticipantChangedCallback((userId, added) => {
      enqueueCallback(() => {
        cb(BigInt(userId), added);
      });
    });
  }
  /** Sets the speaking callback. */
  SetSpeakingStatusChangedCallback(cb: CallOnSpeakingStatusChanged): void {
    this.#core?.setSpeakingStatusChangedCallback((userId, speaking) => {
      enqueueCallback(() => {
        cb(BigInt(userId), speaking);
      });
    });
  }
  /** Sets the voice state callback. */
  SetOnVoiceStateChangedCallback(cb: CallOnVoiceStateChanged): void {
    this.#core?.setOnVoiceStateChangedCallback((userId) => {
      enqueueCallback(() => {
        cb(BigInt(userId));
      });
    });
  }
}

import { NULL_AUDIO_DEVICE_ID, type AudioDevice } from '../voice/devices/audioDevices.js';
import type { Call } from '../voice/call/Call.js';
import type { UserAudioCapturedCallback, UserAudioReceivedCallback } from '../voice/call/CallManager.js';
import type { LoggingSeverity } from '../logging/index.js';
import { withSignal } from '@sdkpp/protocol';
import type { Session } from './createSession.js';
import { guardAfterDestroy } from './destroyGuard.js';
import { LobbyClient } from './LobbyClient.js';
import { isDestroyed, sessionOf } from './sessionOf.js';

export type { ClientEvents } from './ClientEvents.js';
export type { ClientOptions } from './ClientOptions.js';

/**
 * The SDK's entry point: account linking, tokens and the connection, presence, friends, messages, lobbies
 * and voice calls. One instance per signed-in player; several clients can live in one process.
 *
 * Its methods are grouped by area over {@link ClientCore} (configuration, account linking, connection,
 * desktop client, lifetime), {@link SocialClient} (presence, messages, invites, friends), {@link LobbyClient}
 * (lobbies and linked channels) and this class (voice calls).
 *
 * @example
 * ```ts
 * const client = new Client({ applicationId: APP_ID });
 * const pkce = client.createAuthorizationCodeVerifier();
 * const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
 * const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
 * await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
 * await client.connect();
 * console.log(client.getCurrentUser()?.displayName);
 * ```
 */
export class Client extends LobbyClient {
  /** This client's session. */
  get #s(): Session {
    return sessionOf(this);
  }

  // ── Voice calls ──────────────────────────────────────────────────────────────────────────────────

  /**
   * Starts or joins the voice call of a lobby the player is in and returns it at once, in status Joining;
   * follow it with `call.on('statusChanged', …)` until Connected. A `ValidationError` (before any I/O) for a
   * lobby the player is not in or a call the player is already in; `ClientNotReadyError` unless Ready.
   */
  startCall(lobbyId: string): Call {
    return this.#s.calls.start(lobbyId);
  }

  /**
   * {@link Client.startCall} with raw audio: `received` sees each other user's 20 ms of PCM before mixing
   * (it may change the samples, or return true to leave that user out of the SDK's playout and play them
   * through the game's own engine); `captured` sees the microphone's audio before it is sent.
   */
  startCallWithAudioCallbacks(
    lobbyId: string,
    received: UserAudioReceivedCallback,
    captured: UserAudioCapturedCallback,
  ): Call {
    return this.#s.calls.start(lobbyId, received, captured);
  }

  /** The player's call in a lobby, or undefined. */
  getCall(lobbyId: string): Call | undefined {
    return this.#s.calls.get(lobbyId);
  }

  /** Every call the player is in. */
  getCalls(): Call[] {
    return this.#s.calls.all();
  }

  /** Leaves the call of a lobby (nothing happens when the player is not in it); resolves once it ended. */
  async endCall(lobbyId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'endCall()', async () => this.#s.calls.end(lobbyId));
  }

  /** Leaves every call. */
  async endCalls(options: { signal?: AbortSignal } = {}): Promise<void> {
    return withSignal(options.signal, 'endCalls()', async () => this.#s.calls.endAll());
  }

  /**
   * One callback for {@link ClientEvents.voiceParticipantChanged} (C++ `SetVoiceParticipantChangedCallback`);
   * replaces the previous one, `undefined` removes it.
   */
  setVoiceParticipantChangedCallback(
    callback: ((lobbyId: string, memberId: string, added: boolean) => void) | undefined,
  ): void {
    this.#s.voiceParticipantCallback = callback;
  }

  /** Mutes the player's microphone in every call, and in calls started later. */
  setSelfMuteAll(mute: boolean): void {
    this.#s.calls.setSelfMuteAll(mute);
  }

  /** Whether the player is muted in all calls. */
  getSelfMuteAll(): boolean {
    return this.#s.calls.getSelfMuteAll();
  }

  /** Deafens the player in every call, and in calls started later. */
  setSelfDeafAll(deaf: boolean): void {
    this.#s.calls.setSelfDeafAll(deaf);
  }

  /** Whether the player is deafened in all calls. */
  getSelfDeafAll(): boolean {
    return this.#s.calls.getSelfDeafAll();
  }

  /** The microphone volume, 0–100 (default 100); a `ValidationError` outside that range. */
  setInputVolume(inputVolume: number): void {
    this.#s.calls.setInputVolume(inputVolume);
  }

  /** The microphone volume. */
  getInputVolume(): number {
    return this.#s.calls.getInputVolume();
  }

  /**
   * Watches the microphone during calls: `audioInputDetected` says when its level (RMS, dBFS) reaches
   * `dBFS` and when it has stayed below for a second, so the game can say "we can't hear your microphone".
   * −100 (the default) turns it off; a `ValidationError` outside −100..0.
   */
  setNoAudioInputThreshold(dBFS: number): void {
    this.#s.calls.setNoAudioInputThreshold(dBFS);
  }

  /** The threshold of {@link Client.setNoAudioInputThreshold}; −100 when off. */
  getNoAudioInputThreshold(): number {
    return this.#s.calls.getNoAudioInputThreshold();
  }

  /** The playback volume, 0–200 (default 100); a `ValidationError` outside that range. */
  setOutputVolume(outputVolume: number): void {
    this.#s.calls.setOutputVolume(outputVolume);
  }

  /** The playback volume. */
  getOutputVolume(): number {
    return this.#s.calls.getOutputVolume();
  }

  /**
   * Echo cancellation (WebRTC's AEC3) on the microphone's audio: what the speakers play is removed from what
   * the microphone hears, so players on laptop speakers do not echo. Resolves once it runs (the library is
   * WebAssembly, compiled on first use); can change during a call. Until the game sets it, it is on for a
   * system microphone (as in the C++ SDK) and off for the virtual devices (files, `null`, `room:`), whose
   * audio needs none; the game's own audio from `pushAudioInput` is processed only when pushed with
   * `{ microphone: true }`. With a system microphone the processing runs on a worker thread between the
   * devices and the call's transport thread, off the game's event loop.
   */
  async setEchoCancellation(on: boolean): Promise<void> {
    return this.#s.calls.setVoiceProcessing({ echoCancellation: on });
  }

  /** Whether echo cancellation is on. */
  getEchoCancellation(): boolean {
    return this.#s.calls.voiceProcessing().echoCancellation;
  }

  /**
   * Noise suppression (RNNoise) on the microphone's audio: steady background noise (fans, hum, keyboards) is
   * removed, speech kept. Resolves once it runs; can change during a call. Until the game sets it, on for a
   * system microphone and off for the virtual devices, as {@link Client.setEchoCancellation} says.
   */
  async setNoiseSuppression(on: boolean): Promise<void> {
    return this.#s.calls.setVoiceProcessing({ noiseSuppression: on });
  }

  /** Whether noise suppression is on. */
  getNoiseSuppression(): boolean {
    return this.#s.calls.voiceProcessing().noiseSuppression;
  }

  /**
   * Automatic gain control on the microphone's audio: speech is levelled towards −20 dBFS (lifted up to
   * +24 dB, lowered up to −12 dB), pauses are not pumped up, peaks stay under full scale. Applied before the
   * input volume. Resolves at once; can change during a call. Until the game sets it, on for a system
   * microphone and off for the virtual devices, as {@link Client.setEchoCancellation} says.
   */
  async setAutomaticGainControl(on: boolean): Promise<void> {
    return this.#s.calls.setVoiceProcessing({ automaticGainControl: on });
  }

  /** Whether automatic gain control is on. */
  getAutomaticGainControl(): boolean {
    return this.#s.calls.voiceProcessing().automaticGainControl;
  }

  /**
   * Sends the game's own audio into every connected call, as if it came from the microphone: its own voice
   * chain, text-to-speech, or an Electron renderer's `getUserMedia` stream. `samples` are interleaved, Int16
   * (−32768..32767) or Float32 (−1..1), at any `sampleRate` (8000–192000 Hz, resampled to 48 kHz) with any
   * number of `channels` (1–8; mono goes to both sides, beyond two the first two are kept). It adds to the
   * input device's audio (on the default `null` device it is the only input), passes the captured-audio
   * callback, mute, push-to-talk and voice activity like the microphone, and is paced by the call: push in
   * real time. At most one second waits; pushing faster drops the oldest, with a warning. Audio pushed while
   * no call is connected is dropped. A `ValidationError` for anything else. An sdkpp addition.
   */
  pushAudioInput(
    samples: Int16Array | Float32Array,
    sampleRate: number,
    channels: number,
    options: {
      /**
       * The samples are a raw microphone the game captures itself (its engine's own audio input): voice
       * processing (echo cancellation against what the SDK plays, noise suppression, gain control) applies
       * to them as to the input device's audio. Without it, the audio is taken as it is.
       */
      microphone?: boolean;
    } = {},
  ): void {
    this.#s.calls.pushAudioInput(samples, sampleRate, channels, options);
  }

  /**
   * The audio input devices. Virtual devices are always there: `null` (silence, the default) and
   * `wav-in:<path>` (a 16-bit PCM WAV file as the microphone, resampled to 48 kHz when needed).
   */
  async getInputDevices(): Promise<AudioDevice[]> {
    return Promise.resolve(this.#s.calls.inputDevices());
  }

  /**
   * The audio output devices: `null` (discard, the default) and `wav-out:<path>` (what the player hears,
   * written to a 48 kHz stereo WAV file whose header is complete whenever no call runs).
   */
  async getOutputDevices(): Promise<AudioDevice[]> {
    return Promise.resolve(this.#s.calls.outputDevices());
  }

  /** The input device in use. */
  async getCurrentInputDevice(): Promise<AudioDevice> {
    return Promise.resolve(this.#s.calls.currentInputDevice());
  }

  /** The output device in use. */
  async getCurrentOutputDevice(): Promise<AudioDevice> {
    return Promise.resolve(this.#s.calls.currentOutputDevice());
  }

  /** Switches the input device; rejects with a `ValidationError` for an unknown id or an unusable WAV file. */
  async setInputDevice(deviceId: string): Promise<void> {
    await Promise.resolve();
    this.#s.calls.setInputDevice(deviceId);
  }

  /** Switches the output device; rejects with a `ValidationError` for an unknown id or a path it cannot write. */
  async setOutputDevice(deviceId: string): Promise<void> {
    await Promise.resolve();
    this.#s.calls.setOutputDevice(deviceId);
  }

  /** The default audio device's id (`null`: the SDK has no system devices of its own). */
  static getDefaultAudioDeviceId(): string {
    return NULL_AUDIO_DEVICE_ID;
  }

  /** Mobile only in the platform SDK: kept, with no effect on desktop. */
  setEngineManagedAudioSession(isEngineManaged: boolean): void {
    this.#s.calls.setEngineManagedAudioSession(isEngineManaged);
  }

  /**
   * AEC diagnostic recording: while on, with a voice log dir set, the microphone and playout are recorded as
   * WAV files in that directory.
   */
  setAecDump(on: boolean): void {
    this.#s.calls.setAecDump(on);
  }

  /**
   * Writes the voice connections' log lines (redacted like every log line) at or above `minimumSeverity`
   * (default: every line, whatever the client's own log severity) to `voice.log` in `path`, from the next
   * line on; creates the directory. `undefined` stops it.
   */
  setVoiceLogDir(path: string | undefined, minimumSeverity?: LoggingSeverity): void {
    this.#s.calls.setVoiceLogDir(path, minimumSeverity);
  }

  static {
    guardAfterDestroy(Client.prototype, isDestroyed, new Set());
  }
}

import type { SessionContext, SessionFeature } from '../session/SessionContext.js';
import type { VoiceEvents } from './VoiceEvents.js';
import { ValidationError } from '../errors/index.js';
import type { GatewayConnection } from '../gateway/GatewayConnection.js';
import type { LoggingSeverity, LogWriter } from '../logging/index.js';
import type { MediaEngine } from '../media/MediaEngine.js';
import { isSnowflake } from '../util/snowflake.js';
import type { DaveSessionFactory } from '../voice/daveSession.js';
import { VoiceConnection, type VoiceConnectionState } from '../voice/VoiceConnection.js';
import type { VoiceSocketFactory } from '../voice/VoiceGatewayClient.js';
import type { AudioDevice } from './audioDevices.js';
import { NO_AUDIO_INPUT_OFF_DBFS, NoAudioInputDetector } from './NoAudioInputDetector.js';
import { AudioPump } from './AudioPump.js';
import { applySelf, createCallState } from './callBackend.js';
import type { Call } from './Call.js';
import { CallInfoHandle } from './CallInfoHandle.js';
import type { CallState, UserAudioCapturedCallback, UserAudioReceivedCallback } from './CallState.js';
import { callErrorOfEnd, callStatusOf } from './connectionStatus.js';
import { CallError, CallStatus, callStatusToString } from './enums.js';
import { VoiceLogFile } from './VoiceLogFile.js';
import { VoiceStateSender } from './VoiceStateSender.js';
import { VoiceStateStore, type VoiceStateChange } from './VoiceStateStore.js';

/** How long a join may wait for the voice server update. */
const JOIN_TIMEOUT_MS = 15_000;
/** How long after our voice state left the call we wait for the voice socket's own close. */
const REMOVED_GRACE_MS = 2000;

export type { UserAudioCapturedCallback, UserAudioReceivedCallback } from './CallState.js';

/** What the call manager needs from the client. */
export interface CallManagerDeps {
  session: SessionContext<VoiceEvents>;
  /** The main gateway while Ready. */
  gateway: () => GatewayConnection | undefined;
  engine: () => MediaEngine;
  isLobbyMember: (lobbyId: string) => boolean;
  /** The voice log writer (lines also go to the voice log dir when one is set). */
  log: LogWriter;
  /** Redacts secrets from a line before it is written to the voice log file. */
  redact: (line: string) => string;
  /** `ws://` for an `http:` API base, else `wss://`. */
  secureVoice: boolean;
  /** How long a join waits for the voice server before `CallError.JoinTimeout`. @defaultValue 15 000 */
  joinTimeoutMs?: number;
  dave?: DaveSessionFactory;
  socketFactory?: VoiceSocketFactory;
  /** The client-level participant callback (`setVoiceParticipantChangedCallback`), after the event. */
  participantChanged?: (lobbyId: string, userId: string, added: boolean) => void;
}

/**
 * Lobby calls: joining through main gateway op 17 ({@link VoiceStateSender}), one {@link VoiceConnection}
 * per call, the statuses and errors of each {@link Call}, the client-wide settings (mute, deafen, volumes)
 * and voice states from the main gateway. Each call's own settings are {@link createCallState}'s, the audio
 * is the {@link AudioPump}'s.
 */
export class CallManager implements SessionFeature {
  readonly #d: CallManagerDeps;
  readonly #log: LogWriter;
  readonly #calls = new Map<string, CallState>();
  readonly #states: VoiceStateStore;
  #selfMuteAll = false;
  #selfDeafAll = false;
  #inputVolume = 100;
  #engineManagedAudioSession = false;
  readonly #voiceLog: VoiceLogFile;
  readonly #voiceStates: VoiceStateSender;
  readonly #pump: AudioPump;
  readonly #noAudioInput = new NoAudioInputDetector((detected) => {
    this.#log.info(`microphone input ${detected ? 'detected' : 'not detected'}`);
    this.#d.session.emit('audioInputDetected', detected);
  });

  constructor(deps: CallManagerDeps) {
    this.#d = deps;
    this.#voiceLog = new VoiceLogFile((line) => this.#d.redact(line));
    this.#log = this.#voiceLog.tee(deps.log);
    this.#states = new VoiceStateStore(this.#log, (lobbyId, userId, change) => {
      this.#onVoiceState(lobbyId, userId, change);
    });
    this.#voiceStates = new VoiceStateSender({
      gateway: () => this.#d.gateway(),
      calls: this.#calls,
      log: this.#log,
    });
    this.#pump = new AudioPump({
      calls: this.#calls,
      log: this.#log,
      voiceLogDir: () => this.#voiceLog.dir,
      onTick: () => {
        this.#voiceStates.retry();
      },
      inputObserver: (frame, nowMs) => {
        this.#noAudioInput.observe(frame, nowMs);
      },
    });
  }

  // --- SessionFeature -------------------------------------------------------------------------------

  /** READY: the calls of the player's lobbies. */
  onReady(data: Record<string, unknown>): void {
    this.#states.onReady(data);
    // A new session (no resume) is not in any voice channel: calls must join again.
    for (const state of [...this.#calls.values()]) {
      if (state.connection) this.#finish(state, CallError.SignalingUnexpectedClose, 0);
    }
    if (this.#calls.size > 0) this.#voiceStates.send();
  }

  /** Voice dispatches. */
  onDispatch(event: string, data: unknown): void {
    this.#states.onDispatch(event, data);
    if (event === 'LOBBY_VOICE_SERVER_UPDATE' || event === 'VOICE_SERVER_UPDATE') this.#onServerUpdate(data);
  }

  /** The client is disconnected: every call ends. */
  onDisconnected(): void {
    for (const state of [...this.#calls.values()]) this.#finish(state, CallError.None, 0);
    this.#states.onDisconnected();
  }

  // --- calls ---------------------------------------------------------------------------------------

  /** Starts or joins the call of a lobby the player is in; see `Client.startCall`. */
  start(lobbyId: string, received?: UserAudioReceivedCallback, captured?: UserAudioCapturedCallback): Call {
    this.#d.session.requireReady();
    if (!isSnowflake(lobbyId)) throw new ValidationError('startCall: not a lobby id');
    if (!this.#d.isLobbyMember(lobbyId))
      throw new ValidationError(`startCall: not a member of lobby ${lobbyId}`);
    if (this.#calls.has(lobbyId))
      throw new ValidationError(`startCall: already in the call of lobby ${lobbyId}`);
    if (received !== undefined && typeof received !== 'function')
      throw new ValidationError('startCallWithAudioCallbacks: the received callback must be a function');
    if (captured !== undefined && typeof captured !== 'function')
      throw new ValidationError('startCallWithAudioCallbacks: the captured callback must be a function');
    const state = createCallState({
      lobbyId,
      selfMute: this.#selfMuteAll,
      selfDeaf: this.#selfDeafAll,
      captureGain: this.#inputVolume / 100,
      received,
      captured,
      states: this.#states,
      setSelf: (target, flags) => {
        this.#setSelf(target, flags);
      },
      end: async (target) => {
        // A call that already ended (or was replaced by a new call in the lobby) is not this one to end.
        if (this.#calls.get(target.lobbyId) === target) await this.end(target.lobbyId);
      },
    });
    this.#calls.set(lobbyId, state);
    this.#log.info(`call ${lobbyId}: joining`);
    const joinTimeoutMs = this.#d.joinTimeoutMs ?? JOIN_TIMEOUT_MS;
    state.joinTimer = setTimeout(() => {
      if (state.status === CallStatus.Joining) {
        this.#log.warn(`call ${lobbyId}: no voice server after ${joinTimeoutMs} ms`);
        this.#finish(state, CallError.JoinTimeout, 0);
      }
    }, joinTimeoutMs);
    this.#voiceStates.send();
    this.#pump.ensure();
    return state.call;
  }

  /** The call of a lobby, if the player is in it. */
  get(lobbyId: string): Call | undefined {
    return this.#calls.get(lobbyId)?.call;
  }

  /** Every active call. */
  all(): Call[] {
    return [...this.#calls.values()].map((s) => s.call);
  }

  /** Ends the call of a lobby (nothing when there is none); resolves once it is Disconnected. */
  async end(lobbyId: string): Promise<void> {
    const state = this.#calls.get(lobbyId);
    if (!state) return;
    this.#setStatus(state, CallStatus.Disconnecting, CallError.None, 0);
    const connection = state.connection;
    state.connection = undefined;
    this.#calls.delete(lobbyId);
    this.#voiceStates.send();
    await connection?.close();
    this.#finish(state, CallError.None, 0);
  }

  /** Ends every call. */
  async endAll(): Promise<void> {
    await Promise.all([...this.#calls.keys()].map((id) => this.end(id)));
  }

  /** The lobby's call as members see it (`LobbyHandle.getCallInfoHandle`), or undefined when nobody is in it. */
  callInfo(lobbyId: string): CallInfoHandle | undefined {
    return this.#states.participants(lobbyId).length > 0
      ? new CallInfoHandle(this.#states, lobbyId)
      : undefined;
  }

  // --- client-wide settings ------------------------------------------------------------------------

  /** Mutes the player in every call (and in calls started later). */
  setSelfMuteAll(mute: boolean): void {
    this.#selfMuteAll = mute;
    for (const state of this.#calls.values()) this.#setSelf(state, { selfMute: this.#selfMuteAll });
  }
  /** See {@link CallManager.setSelfMuteAll}. */
  getSelfMuteAll(): boolean {
    return this.#selfMuteAll;
  }
  /** Deafens the player in every call (and in calls started later). */
  setSelfDeafAll(deaf: boolean): void {
    this.#selfDeafAll = deaf;
    for (const state of this.#calls.values()) this.#setSelf(state, { selfDeaf: this.#selfDeafAll });
  }
  /** See {@link CallManager.setSelfDeafAll}. */
  getSelfDeafAll(): boolean {
    return this.#selfDeafAll;
  }

  /** Microphone volume, 0–100 (default 100). */
  setInputVolume(volume: number): void {
    if (typeof volume !== 'number' || !(volume >= 0 && volume <= 100))
      throw new ValidationError('setInputVolume: the volume is 0..100');
    this.#inputVolume = volume;
    for (const state of this.#calls.values()) {
      state.settings.captureGain = volume / 100;
      state.connection?.applySettings();
    }
  }
  /** See {@link CallManager.setInputVolume}. */
  getInputVolume(): number {
    return this.#inputVolume;
  }
  /**
   * Reports microphone input above `dBFS` (−100 to 0; −100, the default, turns it off) through
   * `audioInputDetected`: sound at once, silence after a second below the level.
   */
  setNoAudioInputThreshold(dBFS: number): void {
    if (typeof dBFS !== 'number' || !(dBFS >= NO_AUDIO_INPUT_OFF_DBFS && dBFS <= 0))
      throw new ValidationError('setNoAudioInputThreshold: the threshold is -100..0 dBFS');
    this.#noAudioInput.thresholdDbfs = dBFS;
  }
  /** See {@link CallManager.setNoAudioInputThreshold}. */
  getNoAudioInputThreshold(): number {
    return this.#noAudioInput.thresholdDbfs;
  }
  /** Playback volume, 0–200 (default 100). */
  setOutputVolume(volume: number): void {
    if (typeof volume !== 'number' || !(volume >= 0 && volume <= 200))
      throw new ValidationError('setOutputVolume: the volume is 0..200');
    this.#pump.outputVolume = volume;
  }
  /** See {@link CallManager.setOutputVolume}. */
  getOutputVolume(): number {
    return this.#pump.outputVolume;
  }

  /** The input devices: the null device, and the current WAV file when one is in use. */
  inputDevices(): AudioDevice[] {
    return this.#pump.inputDevices();
  }
  /** The output devices: the null device, and the current WAV file when one is in use. */
  outputDevices(): AudioDevice[] {
    return this.#pump.outputDevices();
  }
  /** The current input device. */
  currentInputDevice(): AudioDevice {
    return this.#pump.currentInputDevice();
  }
  /** The current output device. */
  currentOutputDevice(): AudioDevice {
    return this.#pump.currentOutputDevice();
  }
  /** Switches the input device; a ValidationError for an unknown id or an unreadable or unsupported file. */
  setInputDevice(id: string): void {
    this.#pump.setInputDevice(id);
  }
  /** Switches the output device (the previous WAV file is finalised); a ValidationError for a bad id or path. */
  setOutputDevice(id: string): void {
    this.#pump.setOutputDevice(id);
  }

  /** Mobile audio sessions: kept (desktop has nothing to hand over). */
  setEngineManagedAudioSession(isEngineManaged: boolean): void {
    this.#engineManagedAudioSession = isEngineManaged;
    this.#log.info(
      `engine-managed audio session ${this.#engineManagedAudioSession ? 'on' : 'off'} (no effect on desktop)`,
    );
  }
  /** See {@link CallManager.setEngineManagedAudioSession}. */
  getEngineManagedAudioSession(): boolean {
    return this.#engineManagedAudioSession;
  }
  /**
   * AEC diagnostics: while on and a voice log dir is set, the microphone and the playout of the calls are
   * recorded to `aec-input-<time>.wav` and `aec-output-<time>.wav` there.
   */
  setAecDump(on: boolean): void {
    this.#pump.setAecDump(on);
  }
  /** See {@link CallManager.setAecDump}. */
  getAecDump(): boolean {
    return this.#pump.getAecDump();
  }
  /**
   * Where the voice connection's log lines at or above `minimum` are also written (`voice.log`); undefined
   * stops it.
   */
  setVoiceLogDir(dir: string | undefined, minimum?: LoggingSeverity): void {
    this.#voiceLog.setDir(dir, minimum);
  }
  /** See {@link CallManager.setVoiceLogDir}. */
  getVoiceLogDir(): string | undefined {
    return this.#voiceLog.dir;
  }

  /** Ends every call and closes the devices. */
  async destroy(): Promise<void> {
    await this.endAll();
    this.#pump.destroy();
  }

  // --- internals -----------------------------------------------------------------------------------

  #setSelf(state: CallState, flags: { selfMute?: boolean; selfDeaf?: boolean }): void {
    if (applySelf(state, flags)) this.#voiceStates.send();
  }

  #onServerUpdate(data: unknown): void {
    const r = data as { token?: unknown; lobby_id?: unknown; guild_id?: unknown; endpoint?: unknown } | null;
    const lobbyId = [r?.lobby_id, r?.guild_id].find(isSnowflake);
    const state = lobbyId ? this.#calls.get(lobbyId) : undefined;
    if (!state || !r) return;
    if (typeof r.token !== 'string' || typeof r.endpoint !== 'string' || r.endpoint.length === 0) {
      this.#log.info(`call ${state.lobbyId}: voice server update without an endpoint; waiting for another`);
      return;
    }
    const gateway = this.#d.gateway();
    const userId = this.#d.session.currentUserId();
    const sessionId = gateway?.sessionId;
    if (!userId || !sessionId) {
      this.#log.warn(`call ${state.lobbyId}: a voice server update without a session; ignored`);
      return;
    }
    this.#log.secret(r.token);
    clearTimeout(state.joinTimer);
    const previous = state.connection;
    if (previous) void previous.close();
    const speakerOutput = state.received !== undefined;
    const connection = new VoiceConnection({
      serverId: state.lobbyId,
      userId,
      sessionId,
      token: r.token,
      endpoint: r.endpoint,
      secure: this.#d.secureVoice,
      engine: this.#d.engine(),
      log: this.#log.child(`call ${state.lobbyId}`),
      settings: state.settings,
      speakerOutput,
      ...(this.#d.dave ? { dave: this.#d.dave } : {}),
      ...(this.#d.socketFactory ? { socketFactory: this.#d.socketFactory } : {}),
    });
    if (speakerOutput) state.mixer = this.#d.engine().createAudioProcessor();
    state.connection = connection;
    connection.on('state', (voiceState) => {
      if (state.connection === connection) this.#onConnectionState(state, voiceState);
    });
    connection.on('speaking', (userId, speaking) => {
      if (state.connection === connection) state.call._dispatch('speakingStatusChanged', userId, speaking);
    });
    connection.on('privacyCode', (code) => {
      if (state.connection === connection) state.call._dispatch('privacyCodeChanged', code);
    });
    connection.on('inboundAudio', (inbound, stalledMs) => {
      if (state.connection === connection) state.call._dispatch('inboundAudioChanged', inbound, stalledMs);
    });
    connection.on('closed', (end, code) => {
      if (state.connection !== connection) return;
      state.connection = undefined;
      const error = callErrorOfEnd(end, code, state.everConnected);
      this.#log.warn(`call ${state.lobbyId}: the voice connection ended (${end}, code ${code})`);
      this.#calls.delete(state.lobbyId);
      this.#voiceStates.send();
      this.#finish(state, error, code);
    });
    for (const [user, playback] of state.playback)
      connection.setUserGain(user, playback.localMute ? 0 : playback.volume / 100);
    this.#setStatus(state, CallStatus.Connecting, CallError.None, 0);
    connection.open();
  }

  #onConnectionState(state: CallState, voiceState: VoiceConnectionState): void {
    const status = callStatusOf(voiceState);
    if (status === undefined) return;
    if (status === CallStatus.Connected) state.everConnected = true;
    this.#setStatus(state, status, CallError.None, 0);
  }

  #onVoiceState(lobbyId: string, userId: string, change: VoiceStateChange): void {
    const call = this.#calls.get(lobbyId);
    const self = userId === this.#d.session.currentUserId();
    if (change === 'added' || change === 'removed') {
      this.#d.session.emit('voiceParticipantChanged', lobbyId, userId, change === 'added');
      this.#d.participantChanged?.(lobbyId, userId, change === 'added');
      call?.call._dispatch('participantChanged', userId, change === 'added');
    } else {
      call?.call._dispatch('voiceStateChanged', userId);
    }
    // Our own state left the call while the call still runs (kicked, or the lobby went away).
    if (call && self && change === 'removed' && call.status !== CallStatus.Disconnecting && call.connection) {
      // The voice server normally closes our voice socket too (4014), which ends the call with that code;
      // if it does not within a moment, the call ends here.
      this.#log.warn(`call ${lobbyId}: removed from the call by the platform`);
      setTimeout(() => {
        if (call.active && this.#calls.get(lobbyId) === call)
          this.#finish(call, CallError.SignalingUnexpectedClose, 0);
      }, REMOVED_GRACE_MS);
    }
  }

  #setStatus(state: CallState, status: CallStatus, error: CallError, detail: number): void {
    if (state.status === status && error === CallError.None) return;
    const previous = state.status;
    state.status = status;
    this.#log.info(
      `call ${state.lobbyId}: ${callStatusToString(previous)} → ${callStatusToString(status)}${error !== CallError.None ? ` (${error} ${detail})` : ''}`,
    );
    state.call._dispatch('statusChanged', status, error, detail);
  }

  #finish(state: CallState, error: CallError, detail: number): void {
    clearTimeout(state.joinTimer);
    const connection = state.connection;
    state.connection = undefined;
    if (connection) void connection.close();
    if (this.#calls.get(state.lobbyId) === state) {
      this.#calls.delete(state.lobbyId);
      this.#voiceStates.send();
    }
    if (state.active) {
      this.#setStatus(state, CallStatus.Disconnected, error, detail);
      state.active = false;
    }
    if (this.#calls.size === 0) this.#pump.stop();
  }
}

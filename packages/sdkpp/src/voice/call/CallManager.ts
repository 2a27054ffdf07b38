import type { SessionContext, SessionFeature } from '../../session/SessionContext.js';
import type { VoiceEvents } from './VoiceEvents.js';
import { ValidationError } from '@sdkpp/protocol';
import type { GatewayConnection } from '../../gateway/GatewayConnection.js';
import type { LoggingSeverity, LogWriter } from '../../logging/index.js';
import type { MediaEngine } from '../../media/index.js';
import { isSnowflake } from '../../util/snowflake.js';
import type { DaveSessionFactory } from '../../media/index.js';
import { VoiceConnection, type VoiceAudioSettings } from '../connection/VoiceConnection.js';
import type { VoiceSocketFactory } from '../gateway/VoiceGatewayClient.js';
import type { AudioDevice } from '../devices/audioDevices.js';
import { NO_AUDIO_INPUT_OFF_DBFS, NoAudioInputDetector } from '../devices/NoAudioInputDetector.js';
import { SystemDevices } from '../devices/SystemDevices.js';
import type { VoiceProcessingSettings } from '../processing/VoiceProcessor.js';
import { AudioPump } from './AudioPump.js';
import { ActiveCall, type VoiceServerInfo } from './ActiveCall.js';
import type { Call } from './Call.js';
import { CallInfoHandle } from './CallInfoHandle.js';
import type { UserAudioCapturedCallback, UserAudioReceivedCallback } from './audioCallbacks.js';
import { CallError, CallStatus } from './enums.js';
import { VoiceLogFile } from './VoiceLogFile.js';
import { VoiceStateSender } from './VoiceStateSender.js';
import { VoiceStateStore, type VoiceStateChange } from './VoiceStateStore.js';

/** How long a join may wait for the voice server update. */
const JOIN_TIMEOUT_MS = 15_000;
/** How long after our voice state left the call we wait for the voice socket's own close. */
const REMOVED_GRACE_MS = 2000;

export type { UserAudioCapturedCallback, UserAudioReceivedCallback } from './audioCallbacks.js';

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
 * per call, the client-wide settings (mute, deafen, volumes) and voice states from the main gateway. Each
 * call is owned by its {@link ActiveCall} (status, settings, voice connection); the devices and the 20 ms
 * beat are the {@link AudioPump}'s.
 */
export class CallManager implements SessionFeature {
  readonly #d: CallManagerDeps;
  readonly #log: LogWriter;
  readonly #calls = new Map<string, ActiveCall>();
  readonly #states: VoiceStateStore;
  #selfMuteAll = false;
  #selfDeafAll = false;
  #inputVolume = 100;
  #engineManagedAudioSession = false;
  readonly #voiceLog: VoiceLogFile;
  readonly #voiceStates: VoiceStateSender;
  readonly #pump: AudioPump;
  readonly #system: SystemDevices;
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
    this.#system = new SystemDevices({
      open: () => this.#d.engine().openSystemAudio(),
      log: this.#log,
      onDevicesChanged: () => {
        this.#d.session.emit('devicesChanged', this.inputDevices(), this.outputDevices());
      },
      onDeviceLost: (loss) => {
        this.#pump.deviceLost(loss.direction);
        this.#d.session.emit('audioDeviceLost', loss);
        this.#d.session.emit('devicesChanged', this.inputDevices(), this.outputDevices());
      },
    });
    this.#pump = new AudioPump({
      calls: this.#calls,
      system: this.#system,
      log: this.#log,
      voiceLogDir: () => this.#voiceLog.dir,
      onTick: () => {
        this.#voiceStates.retry();
      },
      addonPath: () => this.#d.engine().info.addon?.path,
      createVirtualAudio: () => this.#d.engine().createVirtualAudio(),
      inputObserver: (frame, nowMs) => {
        this.#noAudioInput.observe(frame, nowMs);
      },
      // The detector judges the microphone's frames on this thread: while it is on, they come here.
      observesInput: () => this.#noAudioInput.thresholdDbfs > NO_AUDIO_INPUT_OFF_DBFS,
    });
  }

  // --- SessionFeature -------------------------------------------------------------------------------

  /** READY: the calls of the player's lobbies. */
  onReady(data: Record<string, unknown>): void {
    this.#states.onReady(data);
    // A new session (no resume) is not in any voice channel: calls must join again.
    for (const call of [...this.#calls.values()]) {
      if (call.hasVoiceConnection) call.fail(CallError.SignalingUnexpectedClose, 0);
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
    for (const call of [...this.#calls.values()]) call.fail(CallError.None, 0);
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
    const joinTimeoutMs = this.#d.joinTimeoutMs ?? JOIN_TIMEOUT_MS;
    const call = new ActiveCall({
      lobbyId,
      selfMute: this.#selfMuteAll,
      selfDeaf: this.#selfDeafAll,
      captureGain: this.#inputVolume / 100,
      received,
      captured,
      states: this.#states,
      log: this.#log,
      joinTimeoutMs,
      connect: (server, settings, speakerOutput) => this.#connect(lobbyId, server, settings, speakerOutput),
      createMixer: () => this.#d.engine().createAudioProcessor(),
      selfChanged: () => {
        this.#voiceStates.send();
      },
      released: (released) => {
        // A call that was replaced by a new call in the lobby is no longer this manager's to forget.
        if (this.#calls.get(released.lobbyId) !== released) return;
        this.#calls.delete(released.lobbyId);
        this.#voiceStates.send();
      },
      ended: () => {
        if (this.#calls.size === 0) this.#pump.stop();
      },
    });
    this.#calls.set(lobbyId, call);
    this.#log.info(`call ${lobbyId}: joining`);
    this.#voiceStates.send();
    this.#pump.ensure();
    return call.call;
  }

  /** The call of a lobby, if the player is in it. */
  get(lobbyId: string): Call | undefined {
    return this.#calls.get(lobbyId)?.call;
  }

  /** Every active call. */
  all(): Call[] {
    return [...this.#calls.values()].map((c) => c.call);
  }

  /** Ends the call of a lobby (nothing when there is none); resolves once it is Disconnected. */
  async end(lobbyId: string): Promise<void> {
    await this.#calls.get(lobbyId)?.leave();
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
    for (const call of this.#calls.values()) call.setSelf({ selfMute: this.#selfMuteAll });
  }
  /** See {@link CallManager.setSelfMuteAll}. */
  getSelfMuteAll(): boolean {
    return this.#selfMuteAll;
  }
  /** Deafens the player in every call (and in calls started later). */
  setSelfDeafAll(deaf: boolean): void {
    this.#selfDeafAll = deaf;
    for (const call of this.#calls.values()) call.setSelf({ selfDeaf: this.#selfDeafAll });
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
    for (const call of this.#calls.values()) call.setCaptureGain(volume / 100);
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
    if (this.#calls.size > 0) this.#pump.ensure(); // a sleeping pump links the microphone afresh
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

  /** Turns echo cancellation, noise suppression or gain control on or off; resolves once it runs. */
  async setVoiceProcessing(change: Partial<VoiceProcessingSettings>): Promise<void> {
    for (const value of Object.values(change))
      if (typeof value !== 'boolean') throw new ValidationError('voice processing switches are booleans');
    await this.#pump.setVoiceProcessing(change);
  }
  /** See {@link CallManager.setVoiceProcessing}. */
  voiceProcessing(): VoiceProcessingSettings {
    return this.#pump.voiceProcessing();
  }

  /** Queues the game's own PCM for every connected call's capture path; see `Client.pushAudioInput`. */
  pushAudioInput(
    samples: Int16Array | Float32Array,
    sampleRate: number,
    channels: number,
    options: { microphone?: boolean } = {},
  ): void {
    this.#pump.pushGameAudio(samples, sampleRate, channels, options.microphone === true);
  }

  /** The input devices: the null device, the current virtual one, then the system's. */
  inputDevices(): AudioDevice[] {
    return this.#pump.inputDevices();
  }
  /** The output devices: the null device, the current WAV file, then the system's. */
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
  /** Switches the input device; see {@link AudioPump.setInputDevice}. */
  setInputDevice(id: string): void {
    this.#pump.setInputDevice(id);
  }
  /** Switches the output device; see {@link AudioPump.setOutputDevice}. */
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
    this.#system.dispose();
  }

  // --- internals -----------------------------------------------------------------------------------

  #onServerUpdate(data: unknown): void {
    const r = data as { token?: unknown; lobby_id?: unknown; guild_id?: unknown; endpoint?: unknown } | null;
    const lobbyId = [r?.lobby_id, r?.guild_id].find(isSnowflake);
    const call = lobbyId ? this.#calls.get(lobbyId) : undefined;
    if (!call || !r) return;
    if (typeof r.token !== 'string' || typeof r.endpoint !== 'string' || r.endpoint.length === 0) {
      this.#log.info(`call ${call.lobbyId}: voice server update without an endpoint; waiting for another`);
      return;
    }
    const gateway = this.#d.gateway();
    const userId = this.#d.session.currentUserId();
    const sessionId = gateway?.sessionId;
    if (!userId || !sessionId) {
      this.#log.warn(`call ${call.lobbyId}: a voice server update without a session; ignored`);
      return;
    }
    this.#log.secret(r.token);
    call.joinVoiceServer({ token: r.token, endpoint: r.endpoint, userId, sessionId });
  }

  /** A voice connection (not yet opened) for one call, with the client's engine, DAVE and sockets. */
  #connect(
    lobbyId: string,
    server: VoiceServerInfo,
    settings: VoiceAudioSettings,
    speakerOutput: boolean,
  ): VoiceConnection {
    return new VoiceConnection({
      serverId: lobbyId,
      userId: server.userId,
      sessionId: server.sessionId,
      token: server.token,
      endpoint: server.endpoint,
      secure: this.#d.secureVoice,
      engine: this.#d.engine(),
      log: this.#log.child(`call ${lobbyId}`),
      settings,
      speakerOutput,
      ...(this.#d.dave ? { dave: this.#d.dave } : {}),
      ...(this.#d.socketFactory ? { socketFactory: this.#d.socketFactory } : {}),
    });
  }

  #onVoiceState(lobbyId: string, userId: string, change: VoiceStateChange): void {
    const call = this.#calls.get(lobbyId);
    const self = userId === this.#d.session.currentUserId();
    if (change === 'added' || change === 'removed') {
      this.#d.session.emit('voiceParticipantChanged', lobbyId, userId, change === 'added');
      this.#d.participantChanged?.(lobbyId, userId, change === 'added');
      call?.notify('participantChanged', userId, change === 'added');
    } else {
      call?.notify('voiceStateChanged', userId);
    }
    // Our own state left the call while the call still runs (kicked, or the lobby went away).
    if (
      call &&
      self &&
      change === 'removed' &&
      call.status() !== CallStatus.Disconnecting &&
      call.hasVoiceConnection
    ) {
      // The voice server normally closes our voice socket too (4014), which ends the call with that code;
      // if it does not within a moment, the call ends here.
      this.#log.warn(`call ${lobbyId}: removed from the call by the platform`);
      setTimeout(() => {
        if (call.isActive() && this.#calls.get(lobbyId) === call)
          call.fail(CallError.SignalingUnexpectedClose, 0);
      }, REMOVED_GRACE_MS);
    }
  }
}

import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import type { SessionContext, SessionFeature } from '../client/SessionContext.js';
import { ValidationError } from '../errors/index.js';
import type { GatewayConnection } from '../gateway/GatewayConnection.js';
import type { GatewayOpcode } from '../gateway/protocol.js';
import type { LogWriter } from '../logging/index.js';
import type { MediaEngine } from '../media/MediaEngine.js';
import type { AudioProcessor } from '../media/audio/types.js';
import { VOICE_FRAME_SAMPLES, type VoiceTransport } from '../media/transport/types.js';
import { isSnowflake } from '../util/snowflake.js';
import type { DaveSessionFactory } from '../voice/daveSession.js';
import {
  VoiceConnection,
  type VoiceAudioSettings,
  type VoiceConnectionState,
} from '../voice/VoiceConnection.js';
import type { VoiceSocketFactory } from '../voice/VoiceGatewayClient.js';
import {
  describeDevice,
  NULL_AUDIO_DEVICE,
  NULL_AUDIO_DEVICE_ID,
  nullInput,
  nullOutput,
  openInput,
  openOutput,
  WavFileOutput,
  type AudioDevice,
  type AudioInput,
  type AudioOutput,
} from './audioDevices.js';
import { Call, type CallBackend, type VADThresholdSettings } from './Call.js';
import { CallInfoHandle } from './CallInfoHandle.js';
import { AudioModeType, CallError, CallStatus, callStatusToString } from './enums.js';
import { VoiceStateStore, type VoiceStateChange } from './VoiceStateStore.js';

/** The main gateway's lobby voice opcode (contract: `d` is every lobby call the session wants). */
const OP_LOBBY_VOICE_STATES: GatewayOpcode = 17 as unknown as GatewayOpcode;
/** How long a join may wait for the voice server update. */
const JOIN_TIMEOUT_MS = 15_000;
const TICK_MS = 20;
/** Frames a late pump catches up at most (then it restarts its clock). */
const MAX_CATCH_UP = 10;
/** Output frames held per call before the oldest is dropped (200 ms). */
const MAX_OUTPUT_QUEUE = 10;
/** What a transport tick that mixed nothing plays. */
const SILENT_FRAME = new Int16Array(VOICE_FRAME_SAMPLES);
/** Capture frames kept waiting in each transport's send ring. */
const CAPTURE_BACKLOG = 2;
/** How long after our voice state left the call we wait for the voice socket's own close. */
const REMOVED_GRACE_MS = 2000;
/** The VAD threshold an automatic setting uses (the engine's energy VAD default). */
const AUTOMATIC_VAD_DB = -50;

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

/** What the call manager needs from the client. */
export interface CallManagerDeps {
  session: SessionContext;
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
  /** The client-level participant callback (`setVoiceParticipantChangedCallback`). */
  participantChanged: (lobbyId: string, userId: string, added: boolean) => void;
}

interface CallState {
  readonly lobbyId: string;
  readonly call: Call;
  status: CallStatus;
  active: boolean;
  everConnected: boolean;
  settings: VoiceAudioSettings;
  audioMode: AudioModeType;
  vad: VADThresholdSettings;
  playback: Map<string, { volume: number; localMute: boolean }>;
  connection: VoiceConnection | undefined;
  joinTimer: ReturnType<typeof setTimeout> | undefined;
  received: UserAudioReceivedCallback | undefined;
  captured: UserAudioCapturedCallback | undefined;
  outQueue: Int16Array[];
  /** Playout pacing: the transport's tick count at the last pull, and the silent frames still owed. */
  playout: { transport: VoiceTransport | undefined; ticks: number; balance: number };
  /** Capture pacing: frames pushed to `transport` since its tick count was `base`. */
  capture: { transport: VoiceTransport | undefined; pushed: number; base: number };
  mixer: AudioProcessor | undefined;
}

/**
 * Lobby calls: joining through main gateway op 17, one {@link VoiceConnection} per call, the statuses and
 * errors of each {@link Call}, the player's settings (mute, deafen, push-to-talk, voice activity, volumes,
 * local mutes), voice states from the main gateway, and the audio pump that moves 20 ms frames from the input
 * device to every call and from every call to the output device.
 */
export class CallManager implements SessionFeature {
  readonly #d: CallManagerDeps;
  readonly #log: LogWriter;
  readonly #calls = new Map<string, CallState>();
  readonly #states: VoiceStateStore;
  #selfMuteAll = false;
  #selfDeafAll = false;
  #inputVolume = 100;
  #outputVolume = 100;
  #inputId = NULL_AUDIO_DEVICE_ID;
  #outputId = NULL_AUDIO_DEVICE_ID;
  #input: AudioInput = nullInput;
  #output: AudioOutput = nullOutput;
  #engineManagedAudioSession = false;
  #aecDump = false;
  #aecFiles: { input: WavFileOutput; output: WavFileOutput } | undefined;
  #voiceLogDir: string | undefined;
  #pumpTimer: ReturnType<typeof setTimeout> | undefined;
  /** The lobby voice states (op 17) changed while the main gateway was not Ready. */
  #voiceStatesPending = false;
  #pumpDeadline = 0;
  readonly #frame = new Int16Array(VOICE_FRAME_SAMPLES);
  readonly #mixed = new Int16Array(VOICE_FRAME_SAMPLES);
  readonly #pulled = new Int16Array(8 * VOICE_FRAME_SAMPLES);
  readonly #pulledSsrcs = new Uint32Array(64);
  readonly #pulledTicks = new Uint32Array(64);
  readonly #speakerFrames = new Int16Array(64 * VOICE_FRAME_SAMPLES);

  constructor(deps: CallManagerDeps) {
    this.#d = deps;
    this.#log = this.#teeLog(deps.log);
    this.#states = new VoiceStateStore(this.#log, (lobbyId, userId, change) => {
      this.#onVoiceState(lobbyId, userId, change);
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
    if (this.#calls.size > 0) this.#sendVoiceStates();
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
    const state: CallState = {
      lobbyId,
      call: undefined as unknown as Call,
      status: CallStatus.Joining,
      active: true,
      everConnected: false,
      settings: {
        selfMute: this.#selfMuteAll,
        selfDeaf: this.#selfDeafAll,
        pushToTalk: false,
        pushToTalkActive: false,
        pushToTalkReleaseDelayMs: 20,
        vadThresholdDb: AUTOMATIC_VAD_DB,
        captureGain: this.#inputVolume / 100,
      },
      audioMode: AudioModeType.MODE_VAD,
      vad: { automatic: true, vadThreshold: -60 },
      playback: new Map(),
      connection: undefined,
      joinTimer: undefined,
      received,
      captured,
      outQueue: [],
      playout: { transport: undefined, ticks: 0, balance: 0 },
      capture: { transport: undefined, pushed: 0, base: 0 },
      mixer: undefined,
    };
    (state as { call: Call }).call = new Call(this.#backend(state));
    this.#calls.set(lobbyId, state);
    this.#log.info(`call ${lobbyId}: joining`);
    const joinTimeoutMs = this.#d.joinTimeoutMs ?? JOIN_TIMEOUT_MS;
    state.joinTimer = setTimeout(() => {
      if (state.status === CallStatus.Joining) {
        this.#log.warn(`call ${lobbyId}: no voice server after ${joinTimeoutMs} ms`);
        this.#finish(state, CallError.JoinTimeout, 0);
      }
    }, joinTimeoutMs);
    this.#sendVoiceStates();
    this.#ensurePump();
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
    this.#sendVoiceStates();
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
  /** Playback volume, 0–200 (default 100). */
  setOutputVolume(volume: number): void {
    if (typeof volume !== 'number' || !(volume >= 0 && volume <= 200))
      throw new ValidationError('setOutputVolume: the volume is 0..200');
    this.#outputVolume = volume;
  }
  /** See {@link CallManager.setOutputVolume}. */
  getOutputVolume(): number {
    return this.#outputVolume;
  }

  /** The input devices: the null device, and the current WAV file when one is in use. */
  inputDevices(): AudioDevice[] {
    const current = describeDevice(this.#inputId, 'input');
    return current && current.id !== NULL_AUDIO_DEVICE_ID
      ? [NULL_AUDIO_DEVICE, current]
      : [NULL_AUDIO_DEVICE];
  }
  /** The output devices: the null device, and the current WAV file when one is in use. */
  outputDevices(): AudioDevice[] {
    const current = describeDevice(this.#outputId, 'output');
    return current && current.id !== NULL_AUDIO_DEVICE_ID
      ? [NULL_AUDIO_DEVICE, current]
      : [NULL_AUDIO_DEVICE];
  }
  /** The current input device. */
  currentInputDevice(): AudioDevice {
    return describeDevice(this.#inputId, 'input') ?? NULL_AUDIO_DEVICE;
  }
  /** The current output device. */
  currentOutputDevice(): AudioDevice {
    return describeDevice(this.#outputId, 'output') ?? NULL_AUDIO_DEVICE;
  }
  /** Switches the input device; a ValidationError for an unknown id or an unreadable or unsupported file. */
  setInputDevice(id: string): void {
    if (typeof id !== 'string' || !describeDevice(id, 'input'))
      throw new ValidationError(`setInputDevice: unknown device "${id}" (null or wav-in:<path>)`);
    const input = openInput(id);
    this.#input.close();
    this.#input = input;
    this.#inputId = id;
    this.#log.info(`input device: ${id}`);
  }
  /** Switches the output device (the previous WAV file is finalised); a ValidationError for a bad id or path. */
  setOutputDevice(id: string): void {
    if (typeof id !== 'string' || !describeDevice(id, 'output'))
      throw new ValidationError(`setOutputDevice: unknown device "${id}" (null or wav-out:<path>)`);
    const output = openOutput(id);
    this.#output.close();
    this.#output = output;
    this.#outputId = id;
    this.#log.info(`output device: ${id}`);
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
    this.#aecDump = on;
    if (!this.#aecDump) this.#closeAec();
  }
  /** See {@link CallManager.setAecDump}. */
  getAecDump(): boolean {
    return this.#aecDump;
  }
  /** Where the voice connection's log lines are also written (`voice.log`); undefined stops it. */
  setVoiceLogDir(dir: string | undefined): void {
    if (dir !== undefined) {
      if (typeof dir !== 'string' || dir.length === 0)
        throw new ValidationError('setVoiceLogDir: a directory path');
      try {
        mkdirSync(dir, { recursive: true });
      } catch (error) {
        throw new ValidationError(`setVoiceLogDir: cannot create ${dir}: ${(error as Error).message}`);
      }
    }
    this.#voiceLogDir = dir;
  }
  /** See {@link CallManager.setVoiceLogDir}. */
  getVoiceLogDir(): string | undefined {
    return this.#voiceLogDir;
  }

  /** Ends every call and closes the devices. */
  async destroy(): Promise<void> {
    await this.endAll();
    this.#stopPump();
    this.#input.close();
    this.#output.close();
    this.#closeAec();
  }

  // --- internals -----------------------------------------------------------------------------------

  #teeLog(base: LogWriter): LogWriter {
    const write = (severity: string, message: string): void => {
      const dir = this.#voiceLogDir;
      if (!dir) return;
      try {
        appendFileSync(
          path.join(dir, 'voice.log'),
          `${new Date().toISOString()} ${severity} ${this.#d.redact(message)}\n`,
        );
      } catch {
        // A log file that cannot be written must not break the call.
      }
    };
    return {
      verbose: (m) => {
        base.verbose(m);
        write('verbose', m);
      },
      info: (m) => {
        base.info(m);
        write('info', m);
      },
      warn: (m) => {
        base.warn(m);
        write('warn', m);
      },
      error: (m) => {
        base.error(m);
        write('error', m);
      },
      secret: (v) => {
        base.secret(v);
      },
      child: (tag) => this.#teeLog(base.child(tag)),
    };
  }

  #backend(state: CallState): CallBackend {
    return {
      lobbyId: state.lobbyId,
      status: () => state.status,
      isActive: () => state.active,
      participants: () => this.#states.participants(state.lobbyId),
      voiceState: (userId) => this.#states.handle(state.lobbyId, userId),
      setSelf: (flags) => {
        this.#setSelf(state, flags);
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
      privacyCode: () => state.connection?.privacyCode ?? '',
      verificationCode: async (userId) => {
        const code = await state.connection?.verificationCode(userId);
        if (!code) throw new ValidationError('getVerificationCode: the call is not end-to-end encrypted');
        return code;
      },
    };
  }

  #setSelf(state: CallState, flags: { selfMute?: boolean; selfDeaf?: boolean }): void {
    if (!state.active) return;
    const before = { mute: state.settings.selfMute, deaf: state.settings.selfDeaf };
    if (flags.selfMute !== undefined) state.settings.selfMute = flags.selfMute;
    if (flags.selfDeaf !== undefined) state.settings.selfDeaf = flags.selfDeaf;
    if (before.mute === state.settings.selfMute && before.deaf === state.settings.selfDeaf) return;
    state.connection?.applySettings();
    this.#sendVoiceStates();
  }

  #sendVoiceStates(): void {
    const gateway = this.#d.gateway();
    // Not Ready (the main gateway is reconnecting): the pump sends them once it is back.
    this.#voiceStatesPending = !gateway;
    if (!gateway) return;
    const d = [...this.#calls.values()].map((s) => ({
      lobby_id: s.lobbyId,
      self_mute: s.settings.selfMute,
      self_deaf: s.settings.selfDeaf,
    }));
    try {
      gateway.send(OP_LOBBY_VOICE_STATES, d);
    } catch (error) {
      this.#log.warn(`could not send the lobby voice states: ${(error as Error).message}`);
    }
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
    connection.on('closed', (end, code) => {
      if (state.connection !== connection) return;
      state.connection = undefined;
      const error =
        end === 'transport'
          ? CallError.VoiceConnectionFailed
          : end === 'local'
            ? CallError.None
            : state.everConnected
              ? CallError.SignalingUnexpectedClose
              : code === 4004 || code === 4017
                ? CallError.Forbidden
                : CallError.SignalingConnectionFailed;
      this.#log.warn(`call ${state.lobbyId}: the voice connection ended (${end}, code ${code})`);
      this.#calls.delete(state.lobbyId);
      this.#sendVoiceStates();
      this.#finish(state, error, code);
    });
    for (const [user, playback] of state.playback)
      connection.setUserGain(user, playback.localMute ? 0 : playback.volume / 100);
    this.#setStatus(state, CallStatus.Connecting, CallError.None, 0);
    connection.open();
  }

  #onConnectionState(state: CallState, voiceState: VoiceConnectionState): void {
    switch (voiceState) {
      case 'connecting':
        this.#setStatus(state, CallStatus.Connecting, CallError.None, 0);
        break;
      case 'signaling':
        this.#setStatus(state, CallStatus.SignalingConnected, CallError.None, 0);
        break;
      case 'connected':
        state.everConnected = true;
        this.#setStatus(state, CallStatus.Connected, CallError.None, 0);
        break;
      case 'reconnecting':
        this.#setStatus(state, CallStatus.Reconnecting, CallError.None, 0);
        break;
      case 'closed':
        break;
    }
  }

  #onVoiceState(lobbyId: string, userId: string, change: VoiceStateChange): void {
    const call = this.#calls.get(lobbyId);
    const self = userId === this.#d.session.currentUserId();
    if (change === 'added' || change === 'removed') {
      this.#d.participantChanged(lobbyId, userId, change === 'added');
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
      `call ${state.lobbyId}: ${callStatusToString(previous)} → ${callStatusToString(status)}${error ? ` (${CallError[error]} ${detail})` : ''}`,
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
      this.#sendVoiceStates();
    }
    if (state.active) {
      this.#setStatus(state, CallStatus.Disconnected, error, detail);
      state.active = false;
    }
    if (this.#calls.size === 0) this.#stopPump();
  }

  // --- the audio pump ------------------------------------------------------------------------------

  #ensurePump(): void {
    if (this.#pumpTimer) return;
    this.#pumpDeadline = performance.now() + TICK_MS;
    this.#schedulePump();
  }

  #schedulePump(): void {
    this.#pumpTimer = setTimeout(
      () => {
        this.#pump();
      },
      Math.max(0, this.#pumpDeadline - performance.now()),
    );
  }

  #stopPump(): void {
    clearTimeout(this.#pumpTimer);
    this.#pumpTimer = undefined;
    this.#output.flush(); // a WAV output is a complete file whenever no call runs
    this.#aecFiles?.input.flush();
    this.#aecFiles?.output.flush();
  }

  #pump(): void {
    this.#pumpTimer = undefined;
    if (this.#calls.size === 0) return;
    if (this.#voiceStatesPending && this.#d.gateway()) this.#sendVoiceStates();
    this.#capture();
    // Playout follows the transport's clock too: every tick of a call's transport yields one frame of its
    // audio (what it mixed, or silence when nobody spoke), and the first connected call's ticks set how many
    // frames are played. The output then holds neither gaps nor a growing queue, whatever the pump's timing.
    let lead: number | undefined;
    for (const state of this.#calls.values()) {
      if (!state.connection?.transport || state.status !== CallStatus.Connected) continue;
      const ticks = this.#collect(state);
      lead ??= ticks;
      state.connection.poll();
    }
    for (let i = 0; i < Math.min(lead ?? 0, MAX_CATCH_UP * 5); i++) this.#playOne();
    this.#pumpDeadline += TICK_MS;
    const now = performance.now();
    if (this.#pumpDeadline < now - TICK_MS * MAX_CATCH_UP) this.#pumpDeadline = now + TICK_MS;
    this.#schedulePump();
  }

  /**
   * Capture, paced by the transport's own clock rather than the pump's: each call's transport takes one
   * frame per 20 ms tick, so the frames it still holds are those pushed minus its ticks since the first push.
   * The input device is read only to keep that backlog at {@link CAPTURE_BACKLOG} frames, so a late pump
   * (the event loop was busy) never leaves a standing queue of microphone audio, which would be latency for
   * the rest of the call. The input device waits while no call is connected.
   */
  #capture(): void {
    const connected = [...this.#calls.values()].filter(
      (state) => state.status === CallStatus.Connected && state.connection?.transport !== undefined,
    );
    if (connected.length === 0) return;
    let wanted = 0;
    const ticks = new Map<CallState, number>();
    for (const state of connected) {
      const transportTicks = state.connection?.transport?.stats().ticks ?? 0;
      ticks.set(state, transportTicks);
      if (state.capture.transport !== state.connection?.transport) {
        // A new transport (first connect, or a reconnect from scratch) starts with an empty ring.
        state.capture = { transport: state.connection?.transport, pushed: 0, base: transportTicks };
      }
      const consumed = transportTicks - state.capture.base;
      if (consumed > state.capture.pushed) {
        // The ring ran dry (nothing to send for a while): count from now.
        state.capture.base = transportTicks - state.capture.pushed;
      }
      const backlog = state.capture.pushed - (transportTicks - state.capture.base);
      wanted = Math.max(wanted, CAPTURE_BACKLOG - backlog);
    }
    const frame = this.#frame;
    for (let i = 0; i < Math.min(wanted, MAX_CATCH_UP); i++) {
      if (!this.#input.read(frame)) {
        // Silence: nothing to send, and the transport's backlog base follows its clock.
        for (const state of connected) state.capture.base = (ticks.get(state) ?? 0) - state.capture.pushed;
        return;
      }
      if (this.#aecDump) this.#aec()?.input.write(frame);
      for (const state of connected) {
        if (state.captured) {
          try {
            state.captured(frame, VOICE_FRAME_SAMPLES / 2, 48_000, 2);
          } catch (error) {
            this.#log.error(`the audio captured callback threw: ${(error as Error).message}`);
          }
        }
        state.capture.pushed += state.connection?.transport?.pushPcm(frame) ?? 0;
      }
    }
  }

  /** Plays one 20 ms frame: every connected call's next frame summed, at the output volume. */
  #playOne(): void {
    const mixed = this.#mixed;
    mixed.fill(0);
    let any = false;
    for (const state of this.#calls.values()) {
      const next = state.outQueue.shift();
      if (!next) continue;
      any = true;
      for (let i = 0; i < VOICE_FRAME_SAMPLES; i++) mixed[i] = clamp((mixed[i] ?? 0) + (next[i] ?? 0));
    }
    if (any && this.#outputVolume !== 100) {
      const gain = this.#outputVolume / 100;
      for (let i = 0; i < VOICE_FRAME_SAMPLES; i++) mixed[i] = clamp(Math.round((mixed[i] ?? 0) * gain));
    }
    this.#output.write(mixed);
    if (this.#aecDump) this.#aec()?.output.write(mixed);
  }

  /**
   * Pulls what a call's transport produced into its output queue, with a silent frame for each of its ticks
   * that produced nothing; returns how many ticks the transport made since the last time.
   */
  #collect(state: CallState): number {
    const transport = state.connection?.transport;
    if (!transport) return 0;
    // Read before pulling: a frame mixed in between is pulled now and its tick counted next time.
    const ticks = transport.stats().ticks;
    if (state.playout.transport !== transport) state.playout = { transport, ticks, balance: 0 };
    const elapsed = ticks - state.playout.ticks;
    state.playout.ticks = ticks;
    const queue = state.outQueue;
    let frames = 0;
    if (!state.received) {
      for (let n = transport.pullPcm(this.#pulled); n > 0; n = transport.pullPcm(this.#pulled)) {
        for (let i = 0; i < n; i++) {
          queue.push(this.#pulled.slice(i * VOICE_FRAME_SAMPLES, (i + 1) * VOICE_FRAME_SAMPLES));
        }
        frames += n;
      }
    } else {
      const n = transport.pullSpeakerPcm(this.#speakerFrames, this.#pulledSsrcs, this.#pulledTicks);
      let start = 0;
      while (start < n) {
        let end = start + 1;
        while (end < n && this.#pulledTicks[end] === this.#pulledTicks[start]) end++;
        queue.push(this.#mixGroup(state, start, end));
        frames++;
        start = end;
      }
    }
    state.playout.balance += elapsed - frames;
    for (; state.playout.balance > 0; state.playout.balance--) queue.push(SILENT_FRAME);
    while (queue.length > MAX_OUTPUT_QUEUE) queue.shift();
    return elapsed;
  }

  /** Speaker-output mode: hands each user's frame of one tick to the callback, then mixes what it kept. */
  #mixGroup(state: CallState, start: number, end: number): Int16Array {
    const connection = state.connection;
    const frames = this.#speakerFrames;
    const keep = new Uint32Array(end - start);
    const kept = new Int16Array((end - start) * VOICE_FRAME_SAMPLES);
    let count = 0;
    for (let i = start; i < end; i++) {
      const ssrc = this.#pulledSsrcs[i] ?? 0;
      const userId = connection?.userForSsrc(ssrc) ?? '0';
      const samples = frames.subarray(i * VOICE_FRAME_SAMPLES, (i + 1) * VOICE_FRAME_SAMPLES);
      let mute = false;
      try {
        mute = state.received?.(userId, samples, VOICE_FRAME_SAMPLES / 2, 48_000, 2) === true;
      } catch (error) {
        this.#log.error(`the audio received callback threw: ${(error as Error).message}`);
      }
      const playback = state.playback.get(userId);
      if (mute || playback?.localMute) continue;
      state.mixer?.setUserGain(ssrc, (playback?.volume ?? 100) / 100);
      kept.set(samples, count * VOICE_FRAME_SAMPLES);
      keep[count] = ssrc;
      count++;
    }
    const out = new Int16Array(VOICE_FRAME_SAMPLES);
    if (count > 0 && state.mixer)
      state.mixer.mix(kept.subarray(0, count * VOICE_FRAME_SAMPLES), keep, count, out);
    return out;
  }

  #aec(): { input: WavFileOutput; output: WavFileOutput } | undefined {
    if (!this.#aecFiles && this.#voiceLogDir) {
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      try {
        this.#aecFiles = {
          input: new WavFileOutput(path.join(this.#voiceLogDir, `aec-input-${stamp}.wav`)),
          output: new WavFileOutput(path.join(this.#voiceLogDir, `aec-output-${stamp}.wav`)),
        };
      } catch (error) {
        this.#log.warn(`AEC dump: ${(error as Error).message}`);
        this.#aecDump = false;
      }
    }
    return this.#aecFiles;
  }

  #closeAec(): void {
    this.#aecFiles?.input.close();
    this.#aecFiles?.output.close();
    this.#aecFiles = undefined;
  }
}

function clamp(value: number): number {
  return value > 32767 ? 32767 : value < -32768 ? -32768 : value;
}

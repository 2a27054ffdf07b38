import { ValidationError } from '@sdkpp/protocol';
import type { LogWriter } from '../../logging/index.js';
import {
  type AudioProcessor,
  type SystemAudio,
  type VirtualAudio,
  type VoiceProcessingLink,
  VOICE_FRAME_SAMPLES,
  type VoiceTransportStats,
} from '../../media/index.js';
import type {
  VoiceAudioSettings,
  VoiceConnection,
  VoiceConnectionState,
} from '../connection/VoiceConnection.js';
import type { PlayoutSink } from '../connection/TransportAudio.js';
import type { UserAudioCapturedCallback, UserAudioReceivedCallback, UserPlayback } from './audioCallbacks.js';
import { Call, type CallBackend, type CallEvents, type VADThresholdSettings } from './Call.js';
import { callErrorOfEnd, callStatusOf } from './connectionStatus.js';
import { AudioModeType, CallError, CallStatus, callStatusToString } from './enums.js';
import type { VoiceStateStore } from './VoiceStateStore.js';

/** The VAD threshold an automatic setting uses (the engine's energy VAD default). */
const AUTOMATIC_VAD_DB = -50;
/** Output frames held per call before the oldest is dropped (200 ms). */
const MAX_OUTPUT_QUEUE = 10;

/** The voice server a call was sent to (the main gateway's voice server update), and who we are there. */
export interface VoiceServerInfo {
  token: string;
  endpoint: string;
  userId: string;
  sessionId: string;
}

/** What an active call needs from the call manager. */
export interface ActiveCallDeps {
  lobbyId: string;
  /** The client-wide settings the call starts with. */
  selfMute: boolean;
  selfDeaf: boolean;
  /** Linear, from the input volume. */
  captureGain: number;
  received: UserAudioReceivedCallback | undefined;
  captured: UserAudioCapturedCallback | undefined;
  /** The voice states its participants are read from. */
  states: VoiceStateStore;
  /** The voice log. */
  log: LogWriter;
  /** How long the call waits for a voice server before `CallError.JoinTimeout`. */
  joinTimeoutMs: number;
  /** Opens a voice connection (not yet opened) to a voice server. */
  connect: (server: VoiceServerInfo, settings: VoiceAudioSettings, speakerOutput: boolean) => VoiceConnection;
  /** A mixer for speaker-output mode. */
  createMixer: () => AudioProcessor;
  /** The player's mute or deafen in this call changed: the lobby voice states have news. */
  selfChanged: () => void;
  /** The call no longer wants its voice channel (ending or ended): the manager forgets it. */
  released: (call: ActiveCall) => void;
  /** The call reported Disconnected. */
  ended: (call: ActiveCall) => void;
}

/**
 * Where a call is. Each phase holds its own resources, and {@link ActiveCall} leaves a phase only through
 * one transition, which releases them: the join timer, or the voice connection (the mixer goes with it).
 */
type CallPhase =
  /** Waiting for the main gateway's voice server update. */
  | { readonly kind: 'joining'; readonly timer: ReturnType<typeof setTimeout> }
  /** On a voice server, through one voice connection. */
  | {
      readonly kind: 'in-voice';
      readonly connection: VoiceConnection;
      readonly mixer: AudioProcessor | undefined;
    }
  /** Over; nothing is held. */
  | { readonly kind: 'ended' };

/**
 * The one owner of a lobby call: its status, its settings, its voice connection and its audio. The public
 * {@link Call} is its face (it reads and changes the call through {@link CallBackend}); the call manager
 * routes the main gateway's news to it, and the audio pump moves its frames.
 */
export class ActiveCall implements CallBackend {
  readonly lobbyId: string;
  /** The call as the game sees it. */
  readonly call: Call;
  readonly #d: ActiveCallDeps;
  #phase: CallPhase;
  #status: CallStatus = CallStatus.Joining;
  /** False once the call has reported Disconnected; nothing may change it after. */
  #active = true;
  /** The manager forgot the call (it is ending or ended). */
  #released = false;
  #everConnected = false;
  readonly #settings: VoiceAudioSettings;
  #audioMode: AudioModeType = AudioModeType.MODE_VAD;
  #vad: VADThresholdSettings = { automatic: true, vadThreshold: -60 };
  readonly #playback = new Map<string, UserPlayback>();
  /** Frames waiting for the output device. */
  readonly #outQueue: Int16Array[] = [];
  readonly #sink: PlayoutSink;
  /** The frame a captured callback fills while the microphone is silent. */
  #silence: Int16Array | undefined;

  constructor(deps: ActiveCallDeps) {
    this.#d = deps;
    this.lobbyId = deps.lobbyId;
    this.#settings = {
      selfMute: deps.selfMute,
      selfDeaf: deps.selfDeaf,
      pushToTalk: false,
      pushToTalkActive: false,
      pushToTalkReleaseDelayMs: 20,
      vadThresholdDb: AUTOMATIC_VAD_DB,
      captureGain: deps.captureGain,
    };
    this.#sink = {
      push: (frame) => this.#outQueue.push(frame),
      ...(deps.received
        ? {
            mixSpeakers: (frames: Int16Array, ssrcs: Uint32Array, count: number) =>
              this.#mixSpeakers(frames, ssrcs, count),
          }
        : {}),
    };
    const timer = setTimeout(() => {
      if (this.#status === CallStatus.Joining) {
        this.#d.log.warn(`call ${this.lobbyId}: no voice server after ${deps.joinTimeoutMs} ms`);
        this.fail(CallError.JoinTimeout, 0);
      }
    }, deps.joinTimeoutMs);
    this.#phase = { kind: 'joining', timer };
    this.call = new Call(this);
  }

  // --- what the manager asks ------------------------------------------------------------------------

  /** The player's voice state in this call, for the lobby voice states (op 17). */
  get selfVoiceState(): { lobbyId: string; selfMute: boolean; selfDeaf: boolean } {
    return { lobbyId: this.lobbyId, selfMute: this.#settings.selfMute, selfDeaf: this.#settings.selfDeaf };
  }

  /** True while the call is on a voice server. */
  get hasVoiceConnection(): boolean {
    return this.#phase.kind === 'in-voice';
  }

  /** The main gateway sent the call to a voice server: a new voice connection replaces any earlier one. */
  joinVoiceServer(server: VoiceServerInfo): void {
    if (this.#phase.kind === 'ended') return;
    const speakerOutput = this.#d.received !== undefined;
    const connection = this.#d.connect(server, this.#settings, speakerOutput);
    void this.#enter({
      kind: 'in-voice',
      connection,
      mixer: speakerOutput ? this.#d.createMixer() : undefined,
    });
    const current = (): boolean => this.#phase.kind === 'in-voice' && this.#phase.connection === connection;
    connection.on('state', (state) => {
      if (current()) this.#onConnectionState(state);
    });
    connection.on('speaking', (userId, speaking) => {
      if (current()) this.call._dispatch('speakingStatusChanged', userId, speaking);
    });
    connection.on('privacyCode', (code) => {
      if (current()) this.call._dispatch('privacyCodeChanged', code);
    });
    connection.on('inboundAudio', (inbound, stalledMs) => {
      if (current()) this.call._dispatch('inboundAudioChanged', inbound, stalledMs);
    });
    connection.on('closed', (end, code) => {
      if (!current()) return;
      // The connection closed itself: nothing is left to close.
      this.#phase = { kind: 'ended' };
      this.#d.log.warn(`call ${this.lobbyId}: the voice connection ended (${end}, code ${code})`);
      this.fail(callErrorOfEnd(end, code, this.#everConnected), code);
    });
    for (const [user, playback] of this.#playback) connection.setUserGain(user, gainOf(playback));
    this.#setStatus(CallStatus.Connecting, CallError.None, 0);
    connection.open();
  }

  /** Sets the player's mute or deafen (client-wide settings reach each call through this). */
  setSelf(flags: { selfMute?: boolean; selfDeaf?: boolean }): void {
    if (!this.#active) return;
    const before = { mute: this.#settings.selfMute, deaf: this.#settings.selfDeaf };
    if (flags.selfMute !== undefined) this.#settings.selfMute = flags.selfMute;
    if (flags.selfDeaf !== undefined) this.#settings.selfDeaf = flags.selfDeaf;
    if (before.mute === this.#settings.selfMute && before.deaf === this.#settings.selfDeaf) return;
    this.#applySettings();
    this.#d.selfChanged();
  }

  /** The microphone volume changed (linear gain). */
  setCaptureGain(gain: number): void {
    this.#settings.captureGain = gain;
    this.#applySettings();
  }

  /** Reports an event of the call's participants to the game. */
  notify<E extends 'participantChanged' | 'voiceStateChanged'>(event: E, ...args: CallEvents[E]): void {
    this.call._dispatch(event, ...args);
  }

  /** Leaves the call; resolves once it is Disconnected. */
  async leave(): Promise<void> {
    if (this.#released) return;
    this.#setStatus(CallStatus.Disconnecting, CallError.None, 0);
    const closing = this.#enter({ kind: 'ended' });
    this.#release();
    await closing;
    this.fail(CallError.None, 0);
  }

  /** Ends the call with an error (or None): releases what it holds and reports Disconnected once. */
  fail(error: CallError, detail: number): void {
    void this.#enter({ kind: 'ended' });
    this.#release();
    if (this.#active) {
      this.#setStatus(CallStatus.Disconnected, error, detail);
      this.#active = false;
      this.#d.ended(this);
    }
  }

  // --- audio, driven by the pump every 20 ms ---------------------------------------------------------

  /** True while audio flows: Connected, with a running transport. */
  get carriesAudio(): boolean {
    return (
      this.#status === CallStatus.Connected &&
      this.#phase.kind === 'in-voice' &&
      this.#phase.connection.carriesAudio
    );
  }

  /**
   * Whether the devices may be linked to the call's transport thread: not while the game's audio callbacks
   * must see each frame on the JavaScript thread.
   */
  get canLinkDevices(): boolean {
    return !this.#d.captured && !this.#d.received;
  }

  /** See {@link VoiceConnection.linkSystemAudio}. */
  linkSystemAudio(
    system: SystemAudio | VoiceProcessingLink | VirtualAudio | null,
    link: { capture: boolean; playback: boolean; playbackGain: number; mirrorPlayout?: boolean },
  ): boolean {
    return this.#phase.kind === 'in-voice' && this.#phase.connection.linkSystemAudio(system, link);
  }

  /** See {@link VoiceConnection.devicesLinked}. */
  devicesLinked(): number {
    return this.#phase.kind === 'in-voice' ? this.#phase.connection.devicesLinked() : 0;
  }

  /** See {@link VoiceConnection.nextTickAt}. */
  nextTickAt(): number | undefined {
    return this.#phase.kind === 'in-voice' ? this.#phase.connection.nextTickAt() : undefined;
  }

  /** Microphone frames the call's transport still holds. */
  captureBacklog(): number {
    return this.#phase.kind === 'in-voice' ? this.#phase.connection.captureBacklog() : 0;
  }

  /** One microphone frame: the game's captured callback sees it, then it is sent. */
  capture(frame: Int16Array): void {
    if (this.#phase.kind !== 'in-voice') return;
    this.#runCaptured(frame);
    this.#phase.connection.pushCapture(frame);
  }

  #runCaptured(frame: Int16Array): void {
    if (!this.#d.captured) return;
    try {
      this.#d.captured(frame, VOICE_FRAME_SAMPLES / 2, 48_000, 2);
    } catch (error) {
      this.#d.log.error(`the audio captured callback threw: ${(error as Error).message}`);
    }
  }

  /**
   * The microphone gave nothing this tick. A call with a captured callback still runs it, on a silent frame:
   * what the game writes into it is sent (true), a frame left silent is not.
   */
  captureSilence(): boolean {
    if (this.#phase.kind !== 'in-voice') return false;
    if (this.#d.captured) {
      const frame = (this.#silence ??= new Int16Array(VOICE_FRAME_SAMPLES));
      frame.fill(0);
      this.#runCaptured(frame);
      if (frame.some((sample) => sample !== 0)) {
        this.#phase.connection.pushCapture(frame);
        return true;
      }
    }
    this.#phase.connection.captureIdle();
    return false;
  }

  /**
   * Queues what the call's transport produced for playout (200 ms at most: the oldest go first); returns
   * how many transport ticks passed since the last time.
   */
  collectPlayout(): number {
    if (this.#phase.kind !== 'in-voice') return 0;
    const elapsed = this.#phase.connection.drainPlayout(this.#sink);
    while (this.#outQueue.length > MAX_OUTPUT_QUEUE) this.#outQueue.shift();
    return elapsed;
  }

  /**
   * The audio pump slept while the transport's thread served the devices: the playout queued here is
   * stale, and capture and playout pacing start afresh.
   */
  resyncAudio(): void {
    this.#outQueue.length = 0;
    if (this.#phase.kind === 'in-voice') this.#phase.connection.resyncAudio();
  }

  /** The voice connection's own tick (speaking, DAVE failures, the inbound audio watch). */
  tick(): void {
    if (this.#phase.kind === 'in-voice') this.#phase.connection.tick();
  }

  /** The next frame to play, if any. */
  nextPlayoutFrame(): Int16Array | undefined {
    return this.#outQueue.shift();
  }

  // --- CallBackend: what the public Call reads and changes ----------------------------------------------

  status(): CallStatus {
    return this.#status;
  }
  isActive(): boolean {
    return this.#active;
  }
  participants(): string[] {
    return this.#d.states.participants(this.lobbyId);
  }
  voiceState(userId: string): ReturnType<CallBackend['voiceState']> {
    return this.#d.states.handle(this.lobbyId, userId);
  }
  selfMute(): boolean {
    return this.#settings.selfMute;
  }
  selfDeaf(): boolean {
    return this.#settings.selfDeaf;
  }
  setAudio(change: Parameters<CallBackend['setAudio']>[0]): void {
    if (!this.#active) return;
    if (change.audioMode !== undefined) {
      this.#audioMode = change.audioMode;
      this.#settings.pushToTalk = change.audioMode === AudioModeType.MODE_PTT;
    }
    if (change.pttActive !== undefined) this.#settings.pushToTalkActive = change.pttActive;
    if (change.pttReleaseDelayMs !== undefined)
      this.#settings.pushToTalkReleaseDelayMs = change.pttReleaseDelayMs;
    if (change.vad) {
      this.#vad = change.vad;
      this.#settings.vadThresholdDb = change.vad.automatic ? AUTOMATIC_VAD_DB : change.vad.vadThreshold;
    }
    this.#applySettings();
  }
  audio(): ReturnType<CallBackend['audio']> {
    return {
      audioMode: this.#audioMode,
      pttActive: this.#settings.pushToTalkActive,
      pttReleaseDelayMs: this.#settings.pushToTalkReleaseDelayMs,
      vad: this.#vad,
    };
  }
  setUserPlayback(userId: string, change: { volume?: number; localMute?: boolean }): void {
    if (!this.#active) return;
    const current = { ...this.userPlayback(userId), ...change };
    this.#playback.set(userId, current);
    if (this.#phase.kind === 'in-voice') this.#phase.connection.setUserGain(userId, gainOf(current));
  }
  userPlayback(userId: string): UserPlayback {
    return { ...(this.#playback.get(userId) ?? { volume: 100, localMute: false }) };
  }
  transportStats(): VoiceTransportStats | undefined {
    return this.#phase.kind === 'in-voice' ? this.#phase.connection.transportStats() : undefined;
  }
  privacyCode(): string {
    return this.#phase.kind === 'in-voice' ? (this.#phase.connection.privacyCode ?? '') : '';
  }
  async verificationCode(userId: string): Promise<string> {
    if (this.#phase.kind !== 'in-voice')
      throw new ValidationError('getVerificationCode: the call is not connected yet (or has ended)');
    let code: string | null;
    try {
      code = await this.#phase.connection.verificationCode(userId);
    } catch (error) {
      // The DAVE session knows the pair only once both are members of the same MLS epoch.
      throw new ValidationError(
        `getVerificationCode: ${userId} and the player are not in the same end-to-end encrypted group yet; ask again once privacyCodeChanged gives a code`,
        { cause: error },
      );
    }
    if (!code) throw new ValidationError('getVerificationCode: the call is not end-to-end encrypted');
    return code;
  }
  async end(): Promise<void> {
    await this.leave();
  }

  // --- internals -------------------------------------------------------------------------------------

  /** The one transition: leaves the current phase, releasing what it held, and enters `next`. */
  async #enter(next: CallPhase): Promise<void> {
    const previous = this.#phase;
    this.#phase = next;
    if (previous.kind === 'joining') clearTimeout(previous.timer);
    if (previous.kind === 'in-voice') {
      await previous.connection.close();
    }
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#d.released(this);
  }

  #applySettings(): void {
    if (this.#phase.kind === 'in-voice') this.#phase.connection.applySettings(this.#settings);
  }

  #onConnectionState(state: VoiceConnectionState): void {
    const status = callStatusOf(state);
    if (status === undefined) return;
    if (status === CallStatus.Connected) this.#everConnected = true;
    this.#setStatus(status, CallError.None, 0);
  }

  #setStatus(status: CallStatus, error: CallError, detail: number): void {
    if (this.#status === status && error === CallError.None) return;
    const previous = this.#status;
    this.#status = status;
    this.#d.log.info(
      `call ${this.lobbyId}: ${callStatusToString(previous)} → ${callStatusToString(status)}${error !== CallError.None ? ` (${error} ${detail})` : ''}`,
    );
    this.call._dispatch('statusChanged', status, error, detail);
  }

  /** Speaker-output mode: hands each user's frame of one tick to the callback, then mixes what it kept. */
  #mixSpeakers(frames: Int16Array, ssrcs: Uint32Array, count: number): Int16Array {
    const out = new Int16Array(VOICE_FRAME_SAMPLES);
    if (this.#phase.kind !== 'in-voice') return out;
    const { connection, mixer } = this.#phase;
    const keep = new Uint32Array(count);
    const kept = new Int16Array(count * VOICE_FRAME_SAMPLES);
    let n = 0;
    for (let i = 0; i < count; i++) {
      const ssrc = ssrcs[i] ?? 0;
      const userId = connection.userForSsrc(ssrc) ?? '0';
      const samples = frames.subarray(i * VOICE_FRAME_SAMPLES, (i + 1) * VOICE_FRAME_SAMPLES);
      let mute = false;
      try {
        mute = this.#d.received?.(userId, samples, VOICE_FRAME_SAMPLES / 2, 48_000, 2) === true;
      } catch (error) {
        this.#d.log.error(`the audio received callback threw: ${(error as Error).message}`);
      }
      const playback = this.#playback.get(userId);
      if (mute || playback?.localMute) continue;
      mixer?.setUserGain(ssrc, (playback?.volume ?? 100) / 100);
      kept.set(samples, n * VOICE_FRAME_SAMPLES);
      keep[n] = ssrc;
      n++;
    }
    if (n > 0 && mixer) mixer.mix(kept.subarray(0, n * VOICE_FRAME_SAMPLES), keep, n, out);
    return out;
  }
}

function gainOf(playback: UserPlayback): number {
  return playback.localMute ? 0 : playback.volume / 100;
}

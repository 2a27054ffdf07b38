import type { LogWriter } from '../../logging/index.js';
import type {
  MediaEngine,
  SystemAudio,
  VirtualAudio,
  VoiceProcessingLink,
  VoiceTransport,
  VoiceTransportStats,
} from '../../media/index.js';
import { systemClock, type Clock, type TimerHandle } from '@sdkpp/protocol';
import { TypedEmitter } from '@sdkpp/protocol';
import { DaveLink } from './DaveLink.js';
import {
  InboundAudioWatchdog,
  MAX_INBOUND_RECOVERIES,
  type InboundAudioState,
} from './InboundAudioWatchdog.js';
import type { DaveSessionFactory } from '../../media/index.js';
import {
  chooseTransportMode,
  parseClientDisconnect,
  parseClientsConnect,
  parseSpeaking,
  SPEAKING_MICROPHONE,
  voiceGatewayUrl,
  VoiceOpcode,
  type SessionDescription,
  type VoiceReady,
} from '@sdkpp/protocol';
import { SPEAKING_HOLD_MS, SpeakingTracker } from './SpeakingTracker.js';
import { SsrcRouter } from './SsrcRouter.js';
import { TransportAudio, type PlayoutSink } from './TransportAudio.js';
import {
  VoiceGatewayClient,
  type VoiceGatewayEnd,
  type VoiceGatewayState,
  type VoiceIdentity,
  type VoiceSocketFactory,
} from '../gateway/VoiceGatewayClient.js';

/** How long one read of the transport's counters serves the audio pump's tick (see `#tickStats`). */
const STATS_REUSE_MS = 2;

/** Where a voice connection is, as the Call statuses need it. */
export type VoiceConnectionState =
  /** The voice socket is opening (or identifying). */
  | 'connecting'
  /** Ready arrived: UDP discovery and the session description are under way. */
  | 'signaling'
  /** The transport has its key: audio flows. */
  | 'connected'
  /** The socket dropped; resuming or reconnecting. */
  | 'reconnecting'
  /** Ended for good. */
  | 'closed';

/** The local audio settings a voice connection keeps and applies to every transport it creates. */
export interface VoiceAudioSettings {
  selfMute: boolean;
  selfDeaf: boolean;
  pushToTalk: boolean;
  pushToTalkActive: boolean;
  pushToTalkReleaseDelayMs: number;
  /** dBFS, -100..0. */
  vadThresholdDb: number;
  /** Linear, 0..10. */
  captureGain: number;
}

/** Options of a {@link VoiceConnection}. */
export interface VoiceConnectionOptions extends VoiceIdentity {
  /** The voice server's `host:port` from the server update. */
  endpoint: string;
  /**
   * The call's channel: its id is the DAVE group's. A lobby's id is both its call's channel and the voice
   * `server_id`; a guild voice channel's call names the guild as the server.
   * @defaultValue `serverId`
   */
  channelId?: string;
  /** `wss` (true) or `ws` (false). */
  secure: boolean;
  engine: MediaEngine;
  log: LogWriter;
  clock?: Clock;
  socketFactory?: VoiceSocketFactory;
  /** Creates the DAVE session; without one the connection offers DAVE version 0 (no E2EE). */
  dave?: DaveSessionFactory;
  /** The local audio settings to start with; {@link VoiceConnection.applySettings} changes them. */
  settings: VoiceAudioSettings;
  /** Speaker-output mode (audio callbacks see each user before mixing). */
  speakerOutput?: boolean;
  /** Reconnect attempts of the voice gateway. */
  maxReconnectAttempts?: number;
  /** Ms others may speak with no audio arriving before the connection is recovered. @defaultValue 2500 */
  inboundStallMs?: number;
}

/** Events of a {@link VoiceConnection}. */
export interface VoiceConnectionEvents {
  state: [state: VoiceConnectionState];
  /** A user is in the call on the voice server (op 11), or left it (op 13). */
  clientConnected: [userId: string];
  clientDisconnected: [userId: string];
  /** A user started or stopped speaking (op 5 from the server; our own from what the transport sends). */
  speaking: [userId: string, speaking: boolean];
  /** The privacy code changed: a new DAVE epoch's, or `''` once there is no group. */
  privacyCode: [privacyCode: string];
  /** Inbound audio stalled while others spoke, or came back; `stalledMs` is how long it has been missing. */
  inboundAudio: [state: InboundAudioState, stalledMs: number];
  /** Ended for good: `end` and the last close code. */
  closed: [end: VoiceGatewayEnd | 'transport', code: number, reason: string];
}

/**
 * One voice connection: the voice gateway session and the UDP transport it sets up (IP discovery, Select
 * Protocol, the transport key), with the DAVE session (`DaveLink`), the per-SSRC routing of keys and
 * gains (`SsrcRouter`) and speaking in both directions (`SpeakingTracker`) each in its own file.
 * The owner drives {@link VoiceConnection.tick} and the audio ({@link VoiceConnection.pushCapture},
 * {@link VoiceConnection.drainPlayout}) from its 20 ms audio pump; nothing outside reaches the transport.
 */
export class VoiceConnection extends TypedEmitter<VoiceConnectionEvents> {
  readonly #o: VoiceConnectionOptions;
  readonly #clock: Clock;
  readonly #log: LogWriter;
  readonly #gateway: VoiceGatewayClient;
  #transport: VoiceTransport | undefined;
  #statsCache: { transport: VoiceTransport; at: number; stats: VoiceTransportStats } | undefined;
  /** The running transport's audio pacing. */
  #audio: TransportAudio | undefined;
  #settings: VoiceAudioSettings;
  readonly #dave: DaveLink;
  #state: VoiceConnectionState = 'connecting';
  #ready: VoiceReady | undefined;
  #mode: string | undefined;
  #discoveryTimer: TimerHandle | undefined;
  /** The look after a transmission ended (see `#onTransportEvent`). */
  #holdTimer: TimerHandle | undefined;
  readonly #router: SsrcRouter;
  readonly #connected = new Set<string>();
  readonly #speaking: SpeakingTracker;
  readonly #watchdog: InboundAudioWatchdog;

  constructor(options: VoiceConnectionOptions) {
    super();
    this.#o = options;
    this.#settings = { ...options.settings };
    this.#clock = options.clock ?? systemClock;
    this.#watchdog = new InboundAudioWatchdog(options.inboundStallMs);
    this.#log = options.log;
    this.#router = new SsrcRouter(options.userId, () => this.#transport);
    this.#speaking = new SpeakingTracker({
      selfUserId: options.userId,
      clock: this.#clock,
      sendSelf: (speaking) => this.#sendSelfSpeaking(speaking),
      emit: (userId, speaking) => {
        this.emit('speaking', userId, speaking);
      },
    });
    const url = voiceGatewayUrl(options.endpoint, options.secure);
    this.#gateway = new VoiceGatewayClient({
      url,
      serverId: options.serverId,
      userId: options.userId,
      sessionId: options.sessionId,
      token: options.token,
      log: options.log,
      clock: this.#clock,
      ...(options.socketFactory ? { socketFactory: options.socketFactory } : {}),
      maxDaveProtocolVersion: options.dave ? 1 : 0,
      ...(options.maxReconnectAttempts === undefined
        ? {}
        : { maxReconnectAttempts: options.maxReconnectAttempts }),
    });
    this.#dave = new DaveLink({
      factory: options.dave,
      selfUserId: options.userId,
      channelId: options.channelId ?? options.serverId,
      log: this.#log,
      gateway: this.#gateway,
      router: this.#router,
      onPrivacyCode: (privacyCode) => {
        this.emit('privacyCode', privacyCode);
      },
    });
    this.#gateway.on('state', (state) => {
      this.#onGatewayState(state);
    });
    this.#gateway.on('ready', (ready) => {
      void this.#onReady(ready);
    });
    this.#gateway.on('sessionDescription', (description) => {
      void this.#onSessionDescription(description);
    });
    this.#gateway.on('resumed', () => {
      this.#dave.onResumed();
      if (this.#transport && this.#mode) this.#setState('connected');
    });
    this.#gateway.on('json', (op, d) => {
      this.#onJson(op, d);
    });
    this.#gateway.on('binary', (op, payload) => {
      this.#dave.onBinary(op, payload);
    });
    this.#gateway.on('closed', (end, code, reason) => {
      void this.#shutdown().then(() => {
        this.#setState('closed');
        this.emit('closed', end, code, reason);
      });
    });
  }

  /** The connection state. */
  /** The transport's counters while it runs (diagnostics; see {@link VoiceTransportStats}). */
  transportStats(): VoiceTransportStats | undefined {
    return this.#transport?.stats();
  }

  /**
   * The transport's counters for the audio pump's tick: one read serves every question the tick asks
   * (backlog, playout, speaking, links), instead of one crossing into the addon each. Reused for
   * {@link STATS_REUSE_MS}, far less than the 20 ms between ticks, so each tick reads afresh.
   */
  #tickStats(transport: VoiceTransport): VoiceTransportStats {
    return this.#tickRead(transport).stats;
  }

  /** {@link VoiceConnection.#tickStats} with when they were read (`performance.now()`). */
  #tickRead(transport: VoiceTransport): { at: number; stats: VoiceTransportStats } {
    const now = performance.now();
    const cached = this.#statsCache;
    if (cached && cached.transport === transport && now - cached.at < STATS_REUSE_MS) return cached;
    this.#statsCache = { transport, at: now, stats: transport.stats() };
    return this.#statsCache;
  }

  get state(): VoiceConnectionState {
    return this.#state;
  }

  /** True while a transport runs: audio can be captured and played. */
  get carriesAudio(): boolean {
    return this.#audio !== undefined;
  }

  /**
   * When the transport's next 20 ms tick is due, on `performance.now()`'s clock (now when one is overdue);
   * undefined while no transport carries audio or before it ticks.
   */
  nextTickAt(): number | undefined {
    const transport = this.#transport;
    if (!transport || !this.#audio) return undefined;
    const { at, stats } = this.#tickRead(transport);
    if (stats.ticks === 0 && stats.nextTickInUs === 0) return undefined;
    return at + stats.nextTickInUs / 1000;
  }

  /** Microphone frames the transport still holds (0 while none runs); see `TransportAudio`. */
  captureBacklog(): number {
    return this.#audio?.captureBacklog() ?? 0;
  }

  /** See {@link VoiceTransport.linkSystemAudio}; false while no transport runs or where it cannot. */
  linkSystemAudio(
    system: SystemAudio | VoiceProcessingLink | VirtualAudio | null,
    link: { capture: boolean; playback: boolean; playbackGain: number; mirrorPlayout?: boolean },
  ): boolean {
    return this.#transport?.linkSystemAudio(system, link) ?? false;
  }

  /** The sides of the system audio the transport's thread serves now (bit 0 microphone, bit 1 speaker). */
  devicesLinked(): number {
    return this.#transport ? this.#tickStats(this.#transport).devicesLinked : 0;
  }

  /** Sends one 20 ms microphone frame (48 kHz interleaved stereo); nothing while no transport runs. */
  pushCapture(frame: Int16Array): void {
    this.#audio?.pushCapture(frame);
  }

  /** The microphone gave nothing this tick. */
  captureIdle(): void {
    this.#audio?.captureIdle();
  }

  /** Capture and playout pacing start afresh (see `TransportAudio.resync`). */
  resyncAudio(): void {
    this.#audio?.resync();
  }

  /** Hands the playout the transport produced to `sink`; returns the transport's ticks since the last time. */
  drainPlayout(sink: PlayoutSink): number {
    return this.#audio?.drainPlayout(sink) ?? 0;
  }

  /** Our SSRC, once Ready arrived. */
  get ssrc(): number | undefined {
    return this.#ready?.ssrc;
  }

  /** The user behind an SSRC (op 5), if known. */
  userForSsrc(ssrc: number): string | undefined {
    return this.#router.userForSsrc(ssrc);
  }

  /** The users the voice server says are in the call besides us. */
  get connectedUsers(): string[] {
    return [...this.#connected];
  }

  /** The DAVE protocol version in use (0 = transport encryption only). */
  get daveProtocolVersion(): number {
    return this.#dave.protocolVersion;
  }

  /**
   * The current 30-digit privacy code, or null: read from the DAVE session each time, because a reset
   * (the sole member left, a recovery, a downgrade) clears it without a new epoch.
   */
  get privacyCode(): string | null {
    return this.#dave.privacyCode;
  }

  /** The 45-digit verification code of `userId`, or null without DAVE. */
  async verificationCode(userId: string): Promise<string | null> {
    return this.#dave.verificationCode(userId);
  }

  /** Opens the voice gateway. */
  open(): void {
    this.#gateway.open();
  }

  /** Closes the connection for good (voice socket, transport, DAVE). */
  async close(): Promise<void> {
    await this.#gateway.close(1000, 'call ended');
    await this.#shutdown();
  }

  /** Takes new local audio settings (a copy is kept) and applies them to the running transport. */
  applySettings(settings: VoiceAudioSettings = this.#settings): void {
    this.#settings = { ...settings };
    const transport = this.#transport;
    if (!transport) return;
    const s = this.#settings;
    transport.setSelfMute(s.selfMute);
    transport.setSelfDeaf(s.selfDeaf);
    transport.setPushToTalkMode(s.pushToTalk);
    transport.setPushToTalk(s.pushToTalkActive);
    transport.setPushToTalkReleaseDelayMs(s.pushToTalkReleaseDelayMs);
    transport.setVadThresholdDb(s.vadThresholdDb);
    transport.setCaptureGain(s.captureGain);
  }

  /** Sets one user's playback gain (linear, 0..10); kept until their SSRC is known. */
  setUserGain(userId: string, gain: number): void {
    this.#router.setUserGain(userId, gain);
  }

  /**
   * The connection's own 20 ms tick, run by the owner's audio pump: tells the server when we start or stop
   * speaking (from the voice frames the transport sent), reports new DAVE decrypt failures to the DAVE
   * session and watches that audio still arrives.
   */
  tick(): void {
    const transport = this.#transport;
    if (!transport || this.#state !== 'connected') return;
    const stats = this.#tickStats(transport);
    this.#speaking.onVoiceFramesSent(stats.voiceFramesSent);
    this.#dave.onDecryptFailures(stats.droppedDaveFailed);
    this.#watchInbound(stats);
  }

  /**
   * Both engines count the datagrams they read; what came from the voice server and was not discovery or
   * junk is media. No media while the server says others speak means the path to us broke (the voice socket
   * stays up, so nothing else notices): the connection identifies afresh, which gets a new session, a new
   * UDP socket and a new IP discovery.
   */
  #watchInbound(stats: ReturnType<VoiceTransport['stats']>): void {
    const verdict = this.#watchdog.observe({
      nowMs: this.#clock.now(),
      received: stats.packetsReceived - stats.droppedForeignSource - stats.droppedNotRtp,
      othersSpeaking: this.#speaking.othersSpeaking,
    });
    switch (verdict.kind) {
      case 'ok':
        return;
      case 'stalled':
        this.#log.warn(
          `voice: no audio received for ${verdict.stalledMs} ms while others speak; reconnecting the voice connection (attempt ${verdict.attempt} of ${MAX_INBOUND_RECOVERIES})`,
        );
        this.emit('inboundAudio', 'stalled', verdict.stalledMs);
        this.#setState('reconnecting');
        void this.#stopTransport();
        this.#gateway.reidentify('inbound audio stalled');
        return;
      case 'gave-up':
        this.#log.warn(
          `voice: still no audio after ${MAX_INBOUND_RECOVERIES} reconnects (${verdict.stalledMs} ms); waiting for it`,
        );
        this.emit('inboundAudio', 'lost', verdict.stalledMs);
        return;
      case 'recovered':
        this.#log.info(`voice: audio received again after ${verdict.stalledMs} ms without`);
        this.emit('inboundAudio', 'flowing', verdict.stalledMs);
        return;
    }
  }

  #sendSelfSpeaking(speaking: boolean): boolean {
    const ssrc = this.#ready?.ssrc;
    if (ssrc === undefined) return false;
    this.#gateway.sendJson(VoiceOpcode.Speaking, {
      speaking: speaking ? SPEAKING_MICROPHONE : 0,
      delay: 0,
      ssrc,
    });
    return true;
  }

  #setState(state: VoiceConnectionState): void {
    if (this.#state === state || this.#state === 'closed') return;
    this.#state = state;
    this.emit('state', state);
  }

  #onGatewayState(state: VoiceGatewayState): void {
    if (state === 'backoff') this.#setState('reconnecting');
  }

  async #onReady(ready: VoiceReady): Promise<void> {
    this.#ready = ready;
    this.#mode = undefined;
    this.#setState('signaling');
    const mode = chooseTransportMode(ready.modes);
    if (!mode) {
      this.#log.error(`voice: the server offered no supported transport mode (${ready.modes.join(', ')})`);
      await this.#gateway.close(1000, 'no usable mode');
      return;
    }
    await this.#stopTransport();
    // A fresh Identify is a new voice session: a new DAVE group too.
    this.#dave.close();
    this.#router.dropHeldKeys();
    const transport = this.#o.engine.createVoiceTransport({
      serverHost: ready.ip,
      serverPort: ready.port,
      ssrc: ready.ssrc,
      discoveryTimeoutMs: 1000,
      discoveryAttempts: 5,
      onEvent: () => {
        this.#onTransportEvent(transport);
      },
    });
    this.#transport = transport;
    this.#audio = new TransportAudio(transport, () => this.#tickStats(transport));
    this.#speaking.resetFrameCount();
    this.#watchdog.resetCount(this.#clock.now());
    this.#dave.resetFailureCount();
    this.applySettings();
    if (this.#o.speakerOutput) transport.setSpeakerOutput(true);
    this.#router.applyGains(transport);
    await transport.start();
    // Discovery over a nearby server takes a millisecond or two: look often at first, then every 10 ms.
    let polls = 0;
    const waitDiscovery = (): void => {
      if (this.#transport !== transport) return;
      const state = transport.state();
      if (state === 'running') {
        const found = transport.discovered();
        if (!found) return;
        this.#log.info(`voice: IP discovery found ${found.address}:${found.port}; selecting ${mode}`);
        this.#gateway.selectProtocol(found.address, found.port, mode);
      } else if (state === 'discovery-failed') {
        this.#log.error('voice: UDP IP discovery got no answer');
        void this.#gateway.close(1000, 'ip discovery failed').then(() => undefined);
        this.emit('closed', 'transport', 0, 'ip discovery failed');
      } else {
        this.#discoveryTimer = this.#clock.setTimeout(waitDiscovery, polls++ < 20 ? 1 : 10);
      }
    };
    waitDiscovery();
  }

  async #onSessionDescription(description: SessionDescription): Promise<void> {
    const transport = this.#transport;
    if (!transport) {
      this.#log.warn('voice: a session description before the transport; ignored');
      return;
    }
    try {
      transport.setTransportKey(description.mode, description.secretKey);
    } catch (error) {
      this.#log.error(`voice: the session description's mode was refused: ${(error as Error).message}`);
      await this.#gateway.close(1000, 'bad mode');
      return;
    }
    this.#mode = description.mode;
    if (description.daveProtocolVersion > 0 && this.#dave.available) {
      // An end-to-end encrypted call: nothing leaves or is accepted in the clear until the keys arrive.
      transport.setDavePassthrough(false);
      this.#dave.start([...this.#connected]);
      await this.#dave.onSessionDescription(description.daveProtocolVersion);
    } else {
      this.#log.info('voice: this call is not end-to-end encrypted (DAVE version 0)');
      transport.setDavePassthrough(true);
    }
    this.#setState('connected');
  }

  #onJson(op: number, d: unknown): void {
    switch (op) {
      case VoiceOpcode.Speaking: {
        const speaking = parseSpeaking(d);
        if (!speaking) {
          this.#log.warn('voice: a malformed speaking message was ignored');
          return;
        }
        this.#router.map(speaking.userId, speaking.ssrc);
        this.#speaking.onRemote(speaking.userId, speaking.speaking !== 0);
        return;
      }
      case VoiceOpcode.ClientsConnect: {
        const ids = parseClientsConnect(d).filter((id) => id !== this.#o.userId);
        const fresh = ids.filter((id) => !this.#connected.has(id));
        for (const id of fresh) this.#connected.add(id);
        this.#dave.onClientsConnect(ids);
        for (const id of fresh) this.emit('clientConnected', id);
        return;
      }
      case VoiceOpcode.ClientDisconnect: {
        const userId = parseClientDisconnect(d);
        if (!userId) return;
        this.#connected.delete(userId);
        this.#router.remove(userId);
        this.#dave.onClientDisconnect(userId);
        this.#speaking.onRemoteLeft(userId);
        this.emit('clientDisconnected', userId);
        return;
      }
      case VoiceOpcode.DavePrepareTransition:
      case VoiceOpcode.DaveExecuteTransition:
      case VoiceOpcode.DavePrepareEpoch:
        this.#dave.onJson(op, d);
        return;
      default:
        this.#log.verbose(`voice: op ${op} ignored`);
    }
  }

  /**
   * A transmission of ours began or ended: the speaking state follows at once (op 5 goes out as the first
   * packet does), not at the owner's next poll. After an end, one more look once the hold has passed says
   * we stopped (a pause between words is held, as {@link SpeakingTracker} does).
   */
  #onTransportEvent(transport: VoiceTransport): void {
    if (this.#transport !== transport) return;
    this.tick();
    this.#clock.clearTimeout(this.#holdTimer);
    this.#holdTimer = undefined;
    if (this.#speaking.selfSpeaking)
      this.#holdTimer = this.#clock.setTimeout(() => {
        this.#holdTimer = undefined;
        if (this.#transport === transport) this.tick();
      }, SPEAKING_HOLD_MS + 20);
  }

  async #stopTransport(): Promise<void> {
    this.#clock.clearTimeout(this.#discoveryTimer);
    this.#clock.clearTimeout(this.#holdTimer);
    const transport = this.#transport;
    this.#transport = undefined;
    this.#audio = undefined;
    if (transport) await transport.stop();
  }

  async #shutdown(): Promise<void> {
    this.#speaking.clear();
    this.#dave.close();
    await this.#stopTransport();
  }

  protected override onListenerError(error: unknown, event: string): void {
    this.#log.error(
      `a voice ${event} listener threw: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

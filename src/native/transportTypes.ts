/**
 * The JS shape of the addon's `VoiceTransport` (native/napi/voice_transport_wrap.h): the native transport
 * thread of issue 5. Kept beside {@link NativeAddon} in its own file so the transport's shape has one home.
 */

/** Options of `new VoiceTransport(options)`. */
export interface NativeVoiceTransportOptions {
  /** The voice server's dotted IPv4 address. */
  readonly serverHost: string;
  /** The voice server's UDP port, 1–65535. */
  readonly serverPort: number;
  /** Our SSRC, sent in IP discovery and in every RTP header. */
  readonly ssrc: number;
  /** The local address to bind; `0.0.0.0` when absent. */
  readonly bindHost?: string;
  /** The local port to bind; 0 (any) when absent. */
  readonly bindPort?: number;
  /** Whether to run IP discovery before ticking (default true). */
  readonly discover?: boolean;
  /** How long one discovery attempt waits for the answer (default 1000 ms). */
  readonly discoveryTimeoutMs?: number;
  /** Discovery attempts before giving up (default 3). */
  readonly discoveryAttempts?: number;
  /** The Opus bitrate in bits per second (default 64000). */
  readonly bitrate?: number;
  /**
   * Native only: ask for a real-time (SCHED_FIFO) or higher-nice thread, best effort (default true);
   * `stats().priority` says what was granted.
   */
  readonly raisePriority?: boolean;
}

/** Where the transport thread is. */
export type NativeVoiceTransportState = 'idle' | 'discovering' | 'running' | 'discovery-failed' | 'stopped';

/** Every counter of the transport thread; each `dropped*` says why something went nowhere. */
export interface NativeVoiceTransportStats {
  readonly ticks: number;
  readonly packetsSent: number;
  readonly voiceFramesSent: number;
  readonly silenceFramesSent: number;
  readonly packetsReceived: number;
  readonly framesMixed: number;
  readonly droppedInputOverrun: number;
  readonly droppedInputPartial: number;
  readonly droppedOutputOverrun: number;
  readonly droppedForeignSource: number;
  readonly droppedNotRtp: number;
  readonly droppedNoKey: number;
  readonly droppedOpenFailed: number;
  readonly droppedDaveFailed: number;
  readonly droppedJitterRefused: number;
  readonly droppedTooManySsrcs: number;
  readonly droppedDecodeFailed: number;
  readonly droppedEncodeFailed: number;
  readonly droppedSendFailed: number;
  /** Ticks that began more than 2 ms after their deadline. */
  readonly lateTicks: number;
  readonly maxLatenessUs: number;
  /** Heap allocations inside ticks after the first two: 0 unless the hot path regressed. */
  readonly allocationsInTicks: number;
  readonly discoveryAttempts: number;
  /** Native only: 0 normal, 1 raised nice, 2 real-time (SCHED_FIFO); always 0 in the JS engine. */
  readonly priority: number;
}

/** The native transport thread: every call returns at once; PCM is whole 20 ms frames (1920 samples). */
export interface NativeVoiceTransport {
  /** Binds the socket and starts the thread; returns the local port. */
  start(): number;
  /** Stops and joins the thread. */
  stop(): void;
  state(): NativeVoiceTransportState;
  /** The address and port the server saw, once discovery succeeded. */
  discovered(): { address: string; port: number } | null;
  setTransportKey(mode: string, key: Uint8Array): void;
  setDaveSendKey(baseSecret: Uint8Array): void;
  setDaveReceiveKey(ssrc: number, baseSecret: Uint8Array): void;
  setDavePassthrough(enabled: boolean): void;
  setSelfMute(muted: boolean): void;
  setSelfDeaf(deafened: boolean): void;
  setPushToTalkMode(pushToTalk: boolean): void;
  setPushToTalk(pressed: boolean): void;
  setVadThresholdDb(thresholdDb: number): void;
  setCaptureGain(gain: number): void;
  setUserGain(ssrc: number, gain: number): void;
  removeSpeaker(ssrc: number): void;
  /** Copies whole frames into the send ring; returns the frames accepted. */
  pushPcm(pcm: Int16Array): number;
  /** Copies waiting mixed frames into `out`; returns the frames written. */
  pullPcm(out: Int16Array): number;
  pcmAvailable(): number;
  stats(): NativeVoiceTransportStats;
}

import type { SystemAudio, VirtualAudio, VoiceProcessingLink } from '../devices/types.js';
import { MediaEngineError } from '../MediaEngineError.js';

/**
 * The voice transport of issue 5: one voice connection's UDP socket, IP discovery, 20 ms send pacing,
 * receiving and per-SSRC state, with PCM in and out in whole 20 ms frames. The native engine runs it on
 * its own thread (native/core/transport), so a blocked JS event loop does not delay a packet; the JS
 * engine runs the same interface over node:dgram and timers, which a blocked event loop does delay.
 */

/** Options of {@link MediaEngine.createVoiceTransport}. */
export interface VoiceTransportOptions {
  /** The voice server's dotted IPv4 address. */
  readonly serverHost: string;
  /** The voice server's UDP port, 1–65535. */
  readonly serverPort: number;
  /** Our SSRC, sent in IP discovery and in every RTP header. */
  readonly ssrc: number;
  /** The local address to bind; `0.0.0.0` when absent. */
  readonly bindHost?: string;
  /** Whether to run IP discovery before sending (default true). */
  readonly discover?: boolean;
  /** How long one discovery attempt waits for the answer (default 1000 ms). */
  readonly discoveryTimeoutMs?: number;
  /** Discovery attempts before giving up (default 3). */
  readonly discoveryAttempts?: number;
  /** The Opus bitrate in bits per second (default 64000). */
  readonly bitrate?: number;
  /**
   * Native only: ask for a real-time (SCHED_FIFO) or higher-nice thread, best effort (default true); on
   * Windows MMCSS's "Pro Audio" task, else the time-critical priority, and the 1 ms timer resolution while
   * the thread runs (without it, Windows' 15.6 ms timer can make a tick leave up to 15 ms late).
   * `stats().priority` says what was granted.
   */
  readonly raisePriority?: boolean;
  /**
   * Called on the JavaScript thread after a transmission (talk spurt) began or ended, so the owner can say
   * who speaks without polling `stats()` (which it then reads). Several events between two calls make one
   * call; the native engine's thread wakes the event loop for it and does not keep it alive.
   */
  readonly onEvent?: () => void;
}

/** Where the transport is: discovery, ticking, or ended. */
export type VoiceTransportState = 'idle' | 'discovering' | 'running' | 'discovery-failed' | 'stopped';

/** The transport's counters; each `dropped*` counts one reason a frame or datagram went nowhere. */
export interface VoiceTransportStats {
  /** 20 ms ticks run since the transport started. */
  readonly ticks: number;
  /** RTP packets sent (voice and silence frames). */
  readonly packetsSent: number;
  /** Opus voice frames sent. */
  readonly voiceFramesSent: number;
  /** Opus silence frames sent (five after each transmission ends). */
  readonly silenceFramesSent: number;
  /** Datagrams read from the socket. */
  readonly packetsReceived: number;
  /** 20 ms mixed frames handed to the receive ring (per-speaker frames in speaker-output mode). */
  readonly framesMixed: number;
  /** Capture frames dropped because the input ring was full (the capture side ran ahead). */
  readonly droppedInputOverrun: number;
  /** Pushed samples that did not make a whole 20 ms frame. */
  readonly droppedInputPartial: number;
  /** Mixed frames dropped because nobody pulled them in time (the output ring was full). */
  readonly droppedOutputOverrun: number;
  /** Datagrams from an address other than the voice server's. */
  readonly droppedForeignSource: number;
  /** Datagrams that were not Opus RTP (RTCP, keep-alives, junk). */
  readonly droppedNotRtp: number;
  /** Packets received or to be sent before the transport key was set. */
  readonly droppedNoKey: number;
  /** Packets whose transport decryption failed (wrong key, altered bytes, malformed). */
  readonly droppedOpenFailed: number;
  /** Frames whose DAVE decryption or encryption failed (missing key, replay, bad frame). */
  readonly droppedDaveFailed: number;
  /** Packets the jitter buffer refused (late, duplicate, oversized). */
  readonly droppedJitterRefused: number;
  /** Packets from a new speaker while all 32 speaker slots were taken. */
  readonly droppedTooManySsrcs: number;
  /** Frames the Opus decoder refused. */
  readonly droppedDecodeFailed: number;
  /** Capture frames the Opus encoder refused. */
  readonly droppedEncodeFailed: number;
  /** Packets the socket refused to send. */
  readonly droppedSendFailed: number;
  /** Ticks that began more than 2 ms after their deadline. */
  readonly lateTicks: number;
  /** The latest any tick started after its deadline, in microseconds. */
  readonly maxLatenessUs: number;
  /**
   * The median of how late ticks started after their deadlines since the start, in microseconds (10 µs steps):
   * the send loop's own wake-up error. A packet leaves this long after its slot, plus the encoding.
   */
  readonly tickLatenessP50Us: number;
  /** The 99th percentile of the same (10 µs steps; 10000 means 10 ms or later). */
  readonly tickLatenessP99Us: number;
  /** Native only: heap allocations inside ticks (0 unless the hot path regressed); 0 in the JS engine. */
  readonly allocationsInTicks: number;
  /** IP discovery requests sent. */
  readonly discoveryAttempts: number;
  /**
   * Native only: what the transport thread got when it asked to run ahead of ordinary threads: 0 nothing,
   * 1 raised nice (-10), 2 real-time (SCHED_FIFO), 3 a short time slice (Linux 6.12 and later, which any
   * process may ask for; see docs/voice.md); on Windows 4 MMCSS's "Pro Audio" task (the real-time band
   * audio engines run in) or 5 the time-critical priority (the top of the normal class, where MMCSS is
   * missing). Always 0 in the JS engine.
   */
  readonly priority: number;
  /**
   * When the first voice packet of the latest transmission (talk spurt) left the socket, in microseconds on
   * the monotonic clock `process.hrtime.bigint()` reads (0 before any): where capture-to-wire latency ends.
   */
  readonly lastSpurtStartUs: number;
  /**
   * How long until the next 20 ms tick is due, in microseconds, when these stats were read (0 before the
   * ticks start, or when one is overdue): the audio pump hands the transport its microphone frame just
   * before a tick and takes what the tick mixed just after, so that neither waits most of a tick.
   */
  readonly nextTickInUs: number;
  /**
   * Which system devices the thread serves ({@link VoiceTransport.linkSystemAudio}): bit 0 the microphone,
   * bit 1 the speaker, bit 2 set when the microphone's audio passes a processing thread on the way (a
   * {@link VoiceProcessingLink}: the SDK's voice processing worker).
   */
  readonly devicesLinked: number;
}

/** The interleaved stereo samples of one 20 ms frame: what pushPcm and pullPcm move in whole units. */
export const VOICE_FRAME_SAMPLES = 1920;

/**
 * One voice connection's transport. Every call returns at once; PCM crosses in whole 20 ms frames of
 * `VOICE_FRAME_SAMPLES` (1920) interleaved 48 kHz stereo samples.
 */
export interface VoiceTransport {
  /** Binds the socket and starts discovery then ticking; resolves with the local port. */
  start(): Promise<number>;
  /** Stops ticking and closes the socket. */
  stop(): Promise<void>;
  /** See {@link VoiceTransportState}. */
  state(): VoiceTransportState;
  /** The address and port the server saw, once discovery succeeded; null before. */
  discovered(): {
    /** Our address as the server saw it. */
    address: string;
    /** Our UDP port as the server saw it. */
    port: number;
  } | null;
  /** The transport encryption mode and its 32-byte key (from the session description). */
  setTransportKey(mode: string, key: Uint8Array): void;
  /** The local user's 16-byte DAVE sender key; turns DAVE passthrough off for sending. */
  setDaveSendKey(baseSecret: Uint8Array): void;
  /** A remote sender's 16-byte DAVE key, by its SSRC. */
  setDaveReceiveKey(ssrc: number, baseSecret: Uint8Array): void;
  /** Passthrough on: frames are sent and accepted without DAVE (a call that is not end-to-end encrypted). */
  setDavePassthrough(enabled: boolean): void;
  /** Muted, nothing is sent (after the five silence frames). */
  setSelfMute(muted: boolean): void;
  /** Deafened, nothing is mixed for you and, as on the platform, nothing is sent either. */
  setSelfDeaf(deafened: boolean): void;
  /** Push-to-talk instead of voice activity: frames are sent only while the key is held (and briefly after). */
  setPushToTalkMode(pushToTalk: boolean): void;
  /** The push-to-talk key went down or up. */
  setPushToTalk(pressed: boolean): void;
  /**
   * How long sending goes on after the push-to-talk key is released, 0..60000 ms (default 20).
   * @throws MediaEngineError `ERR_TRANSPORT_BAD_ARGUMENT` outside that range.
   */
  setPushToTalkReleaseDelayMs(delayMs: number): void;
  /**
   * The voice-activity threshold in dBFS, -100..0 (default -50).
   * @throws MediaEngineError `ERR_TRANSPORT_BAD_ARGUMENT` outside that range.
   */
  setVadThresholdDb(thresholdDb: number): void;
  /**
   * Capture gain, 0..10 (linear).
   * @throws MediaEngineError `ERR_TRANSPORT_BAD_ARGUMENT` outside that range.
   */
  setCaptureGain(gain: number): void;
  /**
   * One speaker's gain in the mix, 0..10 (linear), by SSRC.
   * @throws MediaEngineError `ERR_TRANSPORT_BAD_ARGUMENT` outside that range.
   */
  setUserGain(ssrc: number, gain: number): void;
  /**
   * A speaker left (the voice gateway's client-disconnect): its receive state (jitter buffer, decoder,
   * DAVE keys) is dropped and its slot freed for another SSRC. The transport holds 32 speakers at once.
   */
  removeSpeaker(ssrc: number): void;
  /** Queues whole frames to send; returns the frames accepted (the rest is counted dropped). */
  pushPcm(pcm: Int16Array): number;
  /** Copies waiting mixed frames into `out`; returns how many whole frames it wrote. */
  pullPcm(out: Int16Array): number;
  /** Mixed frames waiting. */
  pcmAvailable(): number;
  /**
   * Speaker-output mode, for audio callbacks that see each user before mixing: while on, every tick hands
   * each speaker's decoded 20 ms frame (no gain applied, nothing mixed) to a per-speaker queue read with
   * {@link VoiceTransport.pullSpeakerPcm}, and the mixed queue gets nothing; deafened, nothing at all.
   * Off by default.
   */
  setSpeakerOutput(enabled: boolean): void;
  /**
   * Copies waiting per-speaker frames (speaker-output mode): frame i into
   * `out[i × VOICE_FRAME_SAMPLES …]`, its SSRC into `ssrcs[i]` and the number of the tick that produced it
   * into `ticks[i]` (the frames of one tick share a number and arrive together, so they mix together).
   * Writes at most as many frames as the smallest of the three buffers holds; returns that count.
   */
  pullSpeakerPcm(out: Int16Array, ssrcs: Uint32Array, ticks: Uint32Array): number;
  /** See {@link VoiceTransportStats}. */
  stats(): VoiceTransportStats;
  /**
   * Links system devices to the transport's own thread: each tick takes its capture frame from the
   * microphone (after any frames pushed before) and writes its mix, or silence, to the speaker at
   * `playbackGain` (0–2), so audio flows between the devices and the wire without the JavaScript thread.
   * `null` (or neither side) unlinks. While `stats().devicesLinked` says a side is linked, the caller must
   * not read that microphone or write that speaker itself. A {@link VoiceProcessingLink} in place of the
   * devices puts its processing thread between them and the transport. Returns false where the transport
   * cannot (the JS engine's, which runs on this thread anyway). A {@link VirtualAudio} links the SDK's
   * virtual devices (a file as the microphone, the null speaker) the same way.
   */
  linkSystemAudio(
    system: SystemAudio | VoiceProcessingLink | VirtualAudio | null,
    link: {
      capture: boolean;
      playback: boolean;
      playbackGain: number;
      /**
       * Whether the mix also comes to {@link VoiceTransport.pullPcm} while the speaker is linked (default
       * true). False when nothing on this thread reads it: the playout queue then stays empty.
       */
      mirrorPlayout?: boolean;
    },
  ): boolean;
}

/**
 * The check both engines make before a setting reaches the transport: a finite number in [min, max],
 * else a {@link MediaEngineError} `ERR_TRANSPORT_BAD_ARGUMENT` (the code the native addon throws too).
 */
export function checkTransportNumber(value: number, min: number, max: number, name: string): number {
  if (typeof value !== 'number' || !(value >= min && value <= max)) {
    throw new MediaEngineError(
      'ERR_TRANSPORT_BAD_ARGUMENT',
      `The "${name}" argument must be a number in ${min}..${max}`,
    );
  }
  return value;
}

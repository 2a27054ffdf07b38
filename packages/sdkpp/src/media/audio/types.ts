/** Opus's sample rate on the platform (wire-protocols.md §2). */
export const OPUS_SAMPLE_RATE = 48000;

/** Channels: stereo, interleaved (L R L R …). */
export const OPUS_CHANNELS = 2;

/** Samples per channel in one 20 ms frame. */
export const OPUS_FRAME_SAMPLES_PER_CHANNEL = 960;

/** Interleaved samples in one 20 ms frame: the length of every PCM `Int16Array` the audio calls take. */
export const OPUS_FRAME_SAMPLES = OPUS_FRAME_SAMPLES_PER_CHANNEL * OPUS_CHANNELS;

/** The largest packet one 20 ms frame encodes to; a packet buffer of this size always suffices. */
export const OPUS_MAX_PACKET_SIZE = 1275;

/** The longest Opus packet (120 ms) decodes to this many samples per channel. */
export const OPUS_MAX_PACKET_SAMPLES_PER_CHANNEL = 5760;

/**
 * The Opus silence frame sent five times after speech ends (wire-protocols.md §2.7). Shared by every
 * caller, so never write to it (a typed array cannot be frozen).
 */
export const OPUS_SILENCE_FRAME: Uint8Array = Uint8Array.of(0xf8, 0xff, 0xfe);

/** How many {@link OPUS_SILENCE_FRAME}s follow the end of transmission. */
export const SILENCE_FRAMES_ON_STOP = 5;

/**
 * Every outcome of a per-frame audio call, indexed by the native `audio::AudioResult` value (a test keeps
 * the two lists equal). Per-frame calls return the negated index, so `AUDIO_RESULTS[-n]` names it.
 */
export const AUDIO_RESULTS = [
  'OK',
  'ERR_OPUS_INVALID_PACKET',
  'ERR_AUDIO_BUFFER_TOO_SMALL',
  'ERR_AUDIO_BAD_FRAME_SIZE',
  'ERR_AUDIO_BAD_ARGUMENT',
  'ERR_OPUS_UNAVAILABLE',
  'ERR_OPUS_INTERNAL',
  'ERR_JITTER_LATE_PACKET',
  'ERR_JITTER_DUPLICATE_PACKET',
  'ERR_JITTER_PACKET_TOO_LARGE',
  'ERR_AUDIO_TOO_MANY_USERS',
] as const;

/** A name from {@link AUDIO_RESULTS}. */
export type AudioResultName = (typeof AUDIO_RESULTS)[number];

/** The result codes as numbers, for comparing a per-frame call's return value (`-AudioResult.X`). */
export const AudioResult = Object.freeze({
  /** Success (per-frame calls return 0 or a positive count). */
  Ok: 0,
  /** The Opus packet could not be decoded, or was empty. */
  InvalidPacket: 1,
  /** The output buffer is too small for the result. */
  BufferTooSmall: 2,
  /** The PCM frame is not one 20 ms frame of the expected length. */
  BadFrameSize: 3,
  /** An argument is out of range. */
  BadArgument: 4,
  /** The Opus codec is not available in this media engine. */
  CodecUnavailable: 5,
  /** Opus reported an internal error. */
  CodecError: 6,
  /** The jitter buffer dropped a packet whose playout time has already passed. */
  LatePacket: 7,
  /** The jitter buffer dropped a packet it already holds. */
  DuplicatePacket: 8,
  /** The jitter buffer dropped a packet larger than its slots. */
  PacketTooLarge: 9,
  /** `setUserGain` was refused: the processor already holds gains for as many users as it can. */
  TooManyUsers: 10,
});

/** The name of a per-frame call's return value: `'OK'` for 0 and above, else the negated code's name. */
export function audioResultName(value: number): AudioResultName | 'ERR_AUDIO_UNKNOWN' {
  if (value >= 0) return 'OK';
  return AUDIO_RESULTS[-value] ?? 'ERR_AUDIO_UNKNOWN';
}

/** Options of `MediaEngine.createOpusEncoder`. */
export interface OpusEncoderOptions {
  /** Bits per second, 500–512000. @defaultValue 64000 */
  readonly bitrate?: number;
  /** In-band FEC: each packet carries a low-bitrate copy of the previous frame. @defaultValue true */
  readonly inbandFec?: boolean;
  /** The loss rate (0–100) the encoder plans its FEC for. @defaultValue 10 */
  readonly packetLossPercent?: number;
  /** `'voip'` favours speech (and FEC), `'audio'` music. @defaultValue 'voip' */
  readonly application?: 'voip' | 'audio';
}

/** One sender's Opus encoder: 48 kHz stereo, 20 ms frames. */
export interface OpusEncoder {
  /**
   * Encodes one frame.
   *
   * @param pcm - Exactly {@link OPUS_FRAME_SAMPLES} interleaved samples, else `-AudioResult.BadFrameSize`.
   * @param out - Receives the packet; {@link OPUS_MAX_PACKET_SIZE} bytes always suffice.
   * @returns The packet's size, or a negated {@link AudioResult} code.
   */
  encode(pcm: Int16Array, out: Uint8Array): number;
  /** @throws MediaEngineError `ERR_AUDIO_BAD_ARGUMENT` outside 500–512000. */
  setBitrate(bitrate: number): void;
  /** @throws MediaEngineError `ERR_AUDIO_BAD_ARGUMENT` outside 0–100. */
  setPacketLossPercent(percent: number): void;
  /** How many calls ended with each result, indexed like {@link AUDIO_RESULTS}. */
  results(): number[];
  /** Frees the codec state now rather than at garbage collection; the encoder is unusable after. */
  close(): void;
}

/** One speaker's Opus decoder. */
export interface OpusDecoder {
  /**
   * Decodes `packet` into `out`.
   *
   * @param fec - Decode instead the previous (lost) frame from the redundancy `packet` carries: one
   *   20 ms frame, concealed when the packet has none. Pass the packet that followed the loss.
   * @returns Samples per channel written, or a negated code: `-AudioResult.InvalidPacket` for a malformed
   *   or empty packet, `-AudioResult.BufferTooSmall` when `out` cannot hold the packet's duration.
   */
  decode(packet: Uint8Array, out: Int16Array, fec?: boolean): number;
  /** Packet-loss concealment: writes one 20 ms frame extrapolated from the decoder's state. */
  conceal(out: Int16Array): number;
  /** How many calls ended with each result, indexed like {@link AUDIO_RESULTS}. */
  results(): number[];
  /** Frees the codec state now; the decoder is unusable after. */
  close(): void;
}

/** What the jitter buffer says to play for one 20 ms tick. */
export const JitterFrameKind = Object.freeze({
  /** Nothing: not started, or the stream stopped. Play silence. */
  Empty: 0,
  /** The frame's own packet: decode it. */
  Packet: 1,
  /** Lost, but the next packet is here: decode that packet with `fec = true`. */
  Fec: 2,
  /** Lost, and so is the next: conceal. */
  Conceal: 3,
});

/** A value of {@link JitterFrameKind}. */
export type JitterFrameKindValue = (typeof JitterFrameKind)[keyof typeof JitterFrameKind];

/** The jitter buffer's answer for one tick; one object per buffer, overwritten by every `pop`. */
export interface JitterFrame {
  /** What to do this tick. */
  kind: JitterFrameKindValue;
  /** Bytes of payload written to `pop`'s `out` (Packet, Fec), else 0. */
  size: number;
  /** The RTP sequence number of the frame this tick plays. */
  sequence: number;
  /** Its RTP timestamp (Packet, Fec). */
  timestamp: number;
}

/** Options of `MediaEngine.createJitterBuffer`. */
export interface JitterBufferOptions {
  /** The adaptive target delay's lower bound, in 20 ms frames (1–32). @defaultValue 1 */
  readonly minDelayFrames?: number;
  /** Its upper bound (1–32). @defaultValue 10 */
  readonly maxDelayFrames?: number;
}

/** Counters and the adaptive state of a jitter buffer. */
export interface JitterBufferStatus {
  /**
   * Frames buffered before playout starts; adapts to the measured jitter, and for 10 s after a packet that
   * came late (a stall) holds at least the frames it was late plus one.
   */
  readonly targetDelayFrames: number;
  /** RFC 3550 interarrival jitter estimate, in milliseconds. */
  readonly jitterMs: number;
  /** Packets waiting. */
  readonly buffered: number;
  /** Packets accepted. */
  readonly pushed: number;
  /** Refused: already played or skipped. */
  readonly late: number;
  /** Refused: already buffered. */
  readonly duplicate: number;
  /** Refused: empty or larger than {@link OPUS_MAX_PACKET_SIZE}. */
  readonly invalid: number;
  /** Ticks that played their own packet. */
  readonly packets: number;
  /** Ticks recovered through the next packet's FEC. */
  readonly fec: number;
  /** Ticks concealed. */
  readonly concealed: number;
  /** Ticks with nothing to play. */
  readonly empty: number;
  /** Frames skipped to bring the delay back to the target. */
  readonly dropped: number;
  /** Sequence jumps beyond the buffer's reach that restarted it. */
  readonly resets: number;
  /** Talk spurts that ended: after the sender's silence frames, or after 5 concealed ticks of nothing. */
  readonly pauses: number;
  /** Concealed ticks that kept their sequence number waiting because nothing was buffered (a late packet). */
  readonly stretched: number;
}

/**
 * One speaker's adaptive jitter buffer, keyed by RTP sequence number (with wrap-around): reorders, refuses
 * late and duplicate packets, turns a gap into FEC or concealment, and adapts its delay to the measured
 * jitter (target = 1 + ⌈2·J / 20 ms⌉ frames, clamped to the options; one frame is dropped per tick while
 * more than target + 2 have waited for 8 ticks in a row). A gap is a loss only when a later packet is already here; with nothing
 * buffered the tick is concealed but its packet keeps waiting (it is probably late, not lost). A pause
 * between talk spurts is not a loss either: after the sender's silence frames (or 5 concealed ticks of
 * nothing) it stops without moving its playout point and rebuffers from the next packet.
 */
export interface JitterBuffer {
  /**
   * Stores a received packet.
   *
   * @param nowMs - Its arrival time on the caller's clock (milliseconds), for the jitter estimate.
   * @returns 0, or a negated code: LatePacket, DuplicatePacket, PacketTooLarge, InvalidPacket (empty).
   */
  push(sequence: number, timestamp: number, payload: Uint8Array, nowMs: number): number;
  /**
   * What to play this tick (call once per 20 ms); the payload goes to `out`.
   *
   * @returns The buffer's {@link JitterFrame}, valid until the next call.
   */
  pop(out: Uint8Array): JitterFrame;
  /** Counters and the current target delay. */
  status(): JitterBufferStatus;
}

/** What to send for one captured frame. */
export const SendAction = Object.freeze({
  /** Not transmitting. */
  Nothing: 0,
  /** Encode the (gain-adjusted) frame and send it. */
  Voice: 1,
  /** Send {@link OPUS_SILENCE_FRAME}: one of the five after transmission ends. */
  Silence: 2,
});

/** A value of {@link SendAction}. */
export type SendActionValue = (typeof SendAction)[keyof typeof SendAction];

/** How transmission is triggered. */
export type TransmitMode = 'voice-activity' | 'push-to-talk';

/** Options of `MediaEngine.createAudioProcessor`. */
export interface AudioProcessorOptions {
  /** The clock for push-to-talk timing, in milliseconds. @defaultValue `performance.now` */
  readonly now?: () => number;
}

/**
 * The local user's voice state for one call: capture gain, voice activity detection, push-to-talk with a
 * release delay, self mute and deafen for sending; per-user gains and the mix for playback.
 *
 * VAD is energy-based: a frame is voice when its RMS level after capture gain, in dBFS
 * (20·log10(rms / 32768), -100 for digital silence), reaches the threshold. It has no model of speech, so
 * a noisy room wants a higher threshold. When transmission ends (silence, key released past the delay,
 * mute or deafen), the next five frames say `SendAction.Silence`, then `SendAction.Nothing`.
 */
export interface AudioProcessor {
  /** Linear gain applied to captured PCM (0–10, soft-limited); 1 by default. */
  captureGain: number;
  /** The VAD threshold in dBFS (-100–0); -50 by default. */
  vadThresholdDb: number;
  /** `'voice-activity'` by default. */
  mode: TransmitMode;
  /** How long transmission goes on after the push-to-talk key is released (0–60000 ms); 20 by default. */
  pushToTalkReleaseDelayMs: number;
  /** Self mute: nothing is sent (after the five silence frames). */
  selfMute: boolean;
  /** Self deafen: the mix is silent, and nothing is sent either. */
  selfDeaf: boolean;
  /** Presses or releases the push-to-talk key (at the clock's current time). */
  setPushToTalk(pressed: boolean): void;
  /**
   * Applies capture gain to `pcm` in place, measures its level and decides what to send.
   *
   * @param pcm - One 20 ms frame ({@link OPUS_FRAME_SAMPLES} samples).
   */
  processCapture(pcm: Int16Array): SendActionValue;
  /** The level of the last captured frame, in dBFS. */
  readonly lastLevelDb: number;
  /** Sets one user's playback gain (0–10), keyed by a number the caller picks (e.g. the SSRC). */
  setUserGain(key: number, gain: number): void;
  /**
   * Mixes `count` speakers into `out`, each with its user's gain, through a soft limiter (samples above
   * ¾ of full scale are compressed smoothly toward it instead of clipping). Deafened, `out` is silence.
   *
   * @param frames - The speakers' frames one after another (`count × out.length` samples).
   * @param keys - Each speaker's key (see {@link AudioProcessor.setUserGain}).
   * @returns How many samples the limiter touched.
   */
  mix(frames: Int16Array, keys: Uint32Array, count: number, out: Int16Array): number;
}

import { ValidationError } from '@sdkpp/protocol';
import type { LogWriter } from '../../logging/index.js';
import { VOICE_FRAME_SAMPLES } from '../../media/index.js';

/** The voice path's rate: everything the game pushes is resampled to it. */
const VOICE_RATE = 48_000;
/** Game audio held for the calls before the oldest is dropped: one second of 20 ms frames. */
const MAX_QUEUED_FRAMES = 50;
/** The rates a game may push (telephone-band TTS to studio interfaces). */
const MIN_RATE = 8000;
const MAX_RATE = 192_000;
/** Channels a game may push; the first two are kept, mono goes to both sides. */
const MAX_CHANNELS = 8;
/** A live source's frames kept waiting beyond the low point of a window: the latency it may add. */
const LIVE_MAX_BACKLOG = 2;
/** Frames read per window of a live source's backlog (one second). */
const LIVE_WINDOW = 50;

/**
 * The game's own audio as a capture source (`Client.pushAudioInput`): PCM of any rate and channel count,
 * resampled to 48 kHz stereo and cut into 20 ms frames that the audio pump adds to the input device's, so a
 * game can send its own voice chain, text-to-speech or an Electron renderer's `getUserMedia` stream.
 *
 * Bounded: at most one second waits; pushing faster than the call consumes drops the oldest audio, with a
 * warning once per overflow. While no call carries audio, pushed audio is dropped at once (a game may keep
 * pushing between calls).
 */
export class GameAudioInput {
  readonly #log: LogWriter;
  readonly #accepting: () => boolean;
  readonly #queue: Int16Array[] = [];
  /** The frame being filled, and how many of its samples are set. */
  #partial = new Int16Array(VOICE_FRAME_SAMPLES);
  #partialFill = 0;
  /** The resampler's state: the input format, the next output position and the last input sample. */
  #format: { rate: number; channels: number } | undefined;
  #position = 0;
  #previous: [number, number] | undefined;
  #overflowing = false;
  /** A live source (a microphone): the backlog's low point in the current window, and its reads. */
  readonly #live: boolean;
  #windowMin = Infinity;
  #windowReads = 0;

  /**
   * `accepting` says whether a call carries audio now. `live`: the source runs in real time (a microphone
   * the game captures), so what stays queued for a whole second beyond two frames is latency, and is dropped
   * (oldest first) instead of delaying the rest of the call; bursts are kept. Otherwise (a TTS clip pushed
   * at once) everything queued plays.
   */
  constructor(log: LogWriter, accepting: () => boolean, live = false) {
    this.#log = log;
    this.#accepting = accepting;
    this.#live = live;
  }

  /**
   * Queues PCM: `samples` interleaved, Int16 (−32768..32767) or Float32 (−1..1), at `sampleRate` Hz with
   * `channels` channels. A ValidationError for anything else, before anything is queued.
   */
  push(samples: Int16Array | Float32Array, sampleRate: number, channels: number): void {
    if (!(samples instanceof Int16Array) && !(samples instanceof Float32Array))
      throw new ValidationError('pushAudioInput: samples must be an Int16Array or a Float32Array');
    if (!Number.isInteger(sampleRate) || sampleRate < MIN_RATE || sampleRate > MAX_RATE)
      throw new ValidationError(
        `pushAudioInput: the sample rate must be an integer ${MIN_RATE}..${MAX_RATE}`,
      );
    if (!Number.isInteger(channels) || channels < 1 || channels > MAX_CHANNELS)
      throw new ValidationError(`pushAudioInput: channels must be 1..${MAX_CHANNELS}`);
    if (samples.length % channels !== 0)
      throw new ValidationError('pushAudioInput: the sample count must be a multiple of the channel count');
    if (!this.#accepting()) {
      this.clear();
      return;
    }
    if (this.#format?.rate !== sampleRate || this.#format.channels !== channels) {
      // A new format starts a new stream: nothing is interpolated across the change.
      this.#format = { rate: sampleRate, channels };
      this.#position = 0;
      this.#previous = undefined;
    }
    this.#resample(samples, sampleRate, channels);
  }

  /** Adds the next 20 ms of game audio into `frame` (48 kHz stereo); false when none is queued. */
  mixInto(frame: Int16Array): boolean {
    const next = this.#queue.shift();
    if (!next) return false;
    for (let i = 0; i < VOICE_FRAME_SAMPLES; i++) frame[i] = clamp((frame[i] ?? 0) + (next[i] ?? 0));
    if (this.#queue.length === 0) this.#overflowing = false;
    if (this.#live) this.#boundLatency();
    return true;
  }

  #boundLatency(): void {
    this.#windowMin = Math.min(this.#windowMin, this.#queue.length);
    if (++this.#windowReads < LIVE_WINDOW) return;
    const excess = this.#windowMin - LIVE_MAX_BACKLOG;
    if (excess > 0) this.#queue.splice(0, excess);
    this.#windowMin = Infinity;
    this.#windowReads = 0;
  }

  /** Frames waiting. */
  get queuedFrames(): number {
    return this.#queue.length;
  }

  /** Drops everything queued and the stream's state. */
  clear(): void {
    this.#queue.length = 0;
    this.#partialFill = 0;
    this.#format = undefined;
    this.#previous = undefined;
    this.#overflowing = false;
  }

  /**
   * Linear interpolation between input samples, streaming: the position of the next output sample is kept
   * across pushes, measured from the last sample of the previous push, so chunk boundaries leave no seam.
   */
  #resample(samples: Int16Array | Float32Array, rate: number, channels: number): void {
    const scale = samples instanceof Float32Array ? 32767 : 1;
    const frames = samples.length / channels;
    if (frames === 0) return;
    const left = (i: number): number => (samples[i * channels] ?? 0) * scale;
    const right = channels === 1 ? left : (i: number): number => (samples[i * channels + 1] ?? 0) * scale;
    if (rate === VOICE_RATE) {
      // Already the voice path's rate: sample for sample.
      for (let i = 0; i < frames; i++) this.#emit(left(i), right(i));
      return;
    }
    // Input index -1 is the previous push's last sample, 0..frames-1 this push's; a stream's first push has
    // no previous sample, so it starts at index 0.
    const previous = this.#previous ?? [left(0), right(0)];
    const at = (k: number, side: 0 | 1): number => (k < 0 ? previous[side] : side === 0 ? left(k) : right(k));
    const step = rate / VOICE_RATE;
    // t is the next output's position in input samples, counted from index -1.
    let t = this.#previous ? this.#position : 1;
    while (t < frames) {
      const i = Math.floor(t);
      const frac = t - i;
      const l0 = at(i - 1, 0);
      const r0 = at(i - 1, 1);
      this.#emit(l0 + (at(i, 0) - l0) * frac, r0 + (at(i, 1) - r0) * frac);
      t += step;
    }
    this.#position = t - frames;
    this.#previous = [left(frames - 1), right(frames - 1)];
  }

  #emit(l: number, r: number): void {
    this.#partial[this.#partialFill++] = clamp(Math.round(l));
    this.#partial[this.#partialFill++] = clamp(Math.round(r));
    if (this.#partialFill < VOICE_FRAME_SAMPLES) return;
    this.#queue.push(this.#partial);
    this.#partial = new Int16Array(VOICE_FRAME_SAMPLES);
    this.#partialFill = 0;
    if (this.#queue.length > MAX_QUEUED_FRAMES) {
      this.#queue.shift();
      if (!this.#overflowing) {
        this.#overflowing = true;
        this.#log.warn(
          'pushAudioInput: the game pushes audio faster than the call sends it; the oldest is dropped (at most 1 s waits)',
        );
      }
    }
  }
}

function clamp(value: number): number {
  return value > 32767 ? 32767 : value < -32768 ? -32768 : value;
}

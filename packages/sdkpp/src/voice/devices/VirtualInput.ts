import { WavStream } from '@sdkpp/protocol';
import { VOICE_FRAME_SAMPLES, type VirtualAudio } from '../../media/index.js';
import type { AudioInput } from './audioDevices.js';

/** Samples kept queued ahead in the native ring: 2 s of 48 kHz stereo (the ring holds 4 s). */
const AHEAD_SAMPLES = 2 * 96_000;
/** Frames read from the file per refill step: one second. */
const CHUNK_FRAMES = 50;

/**
 * A virtual microphone (`null`, or `wav-in:` a file) on the native engine: its samples wait in a
 * {@link VirtualAudio} ring, which a call's transport thread reads itself when the audio pump links it, and
 * which the pump reads a frame at a time otherwise. The file is read ahead a second at a time, on this
 * thread, whenever the ring holds less than two seconds ({@link VirtualInput.refill}), so a linked call
 * needs this thread about once a second, not every 20 ms.
 */
export class VirtualInput implements AudioInput {
  /** The ring a transport links (its speaker side is the null output). */
  readonly virtualAudio: VirtualAudio;
  readonly #stream: WavStream | undefined;
  #ended: boolean;
  readonly #chunk = new Int16Array(CHUNK_FRAMES * VOICE_FRAME_SAMPLES);

  /**
   * `path`: the WAV file to play (opened at once: a ValidationError for a bad one); none for the null
   * microphone, whose ring stays empty.
   */
  constructor(virtualAudio: VirtualAudio, path?: string) {
    this.#stream = path === undefined ? undefined : new WavStream(path);
    this.virtualAudio = virtualAudio;
    this.#ended = this.#stream === undefined;
  }

  /** Tops the ring up to {@link AHEAD_SAMPLES} from the file, in whole 20 ms frames. */
  refill(): void {
    const stream = this.#stream;
    if (this.#ended || !stream) return;
    let queued = this.virtualAudio.stats().inputQueued;
    while (queued < AHEAD_SAMPLES) {
      const chunk = this.#chunk;
      const samples = stream.read(chunk) * 2;
      if (samples < chunk.length) this.#ended = true;
      // The last frame is padded with silence, as the frame-by-frame WAV input does.
      const whole = Math.ceil(samples / VOICE_FRAME_SAMPLES) * VOICE_FRAME_SAMPLES;
      chunk.fill(0, samples, whole);
      if (whole > 0) queued += this.virtualAudio.pushInput(chunk.subarray(0, whole));
      if (this.#ended) {
        stream.close();
        return;
      }
    }
  }

  /** {@inheritDoc AudioInput.read} */
  read(out: Int16Array): boolean {
    const frame = out.subarray(0, VOICE_FRAME_SAMPLES);
    if (this.virtualAudio.readInput(frame)) return true;
    this.refill();
    return this.virtualAudio.readInput(frame);
  }

  /** {@inheritDoc AudioInput.close} */
  close(): void {
    this.#ended = true;
    this.#stream?.close();
    this.virtualAudio.dispose();
  }
}

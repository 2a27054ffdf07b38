import { VOICE_FRAME_SAMPLES, type VoiceTransport, type VoiceTransportStats } from '../../media/index.js';

/** What a transport tick that mixed nothing plays. */
const SILENT_FRAME = new Int16Array(VOICE_FRAME_SAMPLES);
/** Speakers one pull can hand out (the transport's own bound on speakers per tick times a few ticks). */
const MAX_SPEAKER_FRAMES = 64;

/** Where a voice connection's playout goes, frame by frame. */
export interface PlayoutSink {
  /** The next 20 ms frame to play (48 kHz interleaved stereo); the sink may keep it. */
  push(frame: Int16Array): void;
  /**
   * Speaker-output mode only: the frames of one transport tick, one per speaker (`count` frames of
   * {@link VOICE_FRAME_SAMPLES} in `frames`, each speaker's SSRC in `ssrcs`); returns that tick's frame to
   * play. The views are valid only during the call.
   */
  mixSpeakers?(frames: Int16Array, ssrcs: Uint32Array, count: number): Int16Array;
}

/**
 * The audio side of one running transport, paced by the transport's own 20 ms clock: how many microphone
 * frames it still holds, and the frames it produced for playout with a silent frame for each tick that
 * produced none. A new transport (a reconnect from scratch) gets a new one, so pacing starts afresh.
 */
export class TransportAudio {
  readonly #transport: VoiceTransport;
  /** The transport's counters, as fresh as one pump tick needs them (see `VoiceConnection`). */
  readonly #stats: () => VoiceTransportStats;
  /** Capture pacing: frames pushed since the transport's tick count was `base`. */
  #capture: { pushed: number; base: number; ticks: number } | undefined;
  /** Playout pacing: the tick count at the last drain, and the silent frames still owed. */
  #playout: { ticks: number; balance: number } | undefined;
  readonly #pulled = new Int16Array(8 * VOICE_FRAME_SAMPLES);
  #speakers: { frames: Int16Array; ssrcs: Uint32Array; ticks: Uint32Array } | undefined;

  /** `stats`: the transport's counters, shared with the rest of the pump's tick; fresh ones by default. */
  constructor(transport: VoiceTransport, stats: () => VoiceTransportStats = () => transport.stats()) {
    this.#transport = transport;
    this.#stats = stats;
  }

  /**
   * The microphone frames the transport still holds: it takes one per tick, so the frames it holds are
   * those pushed minus its ticks since the first push. A ring that ran dry counts from now.
   */
  captureBacklog(): number {
    const ticks = this.#stats().ticks;
    const capture = (this.#capture ??= { pushed: 0, base: ticks, ticks });
    capture.ticks = ticks;
    if (ticks - capture.base > capture.pushed) capture.base = ticks - capture.pushed;
    return capture.pushed - (ticks - capture.base);
  }

  /**
   * Forgets the pacing: the owner stopped pushing and draining for a while (its pump slept while the
   * transport's thread served the devices), so the ticks since then owe no silent frames and no backlog.
   */
  resync(): void {
    this.#capture = undefined;
    this.#playout = undefined;
    // What was mixed before the pump fell asleep (the ticks before the transport took the link) is stale
    // by now: played after a mute or a volume change it would be heard as it was. Bounded: the rings are.
    const transport = this.#transport;
    while (transport.pullPcm(this.#pulled) > 0);
    if (this.#speakers) {
      const { frames, ssrcs, ticks } = this.#speakers;
      while (transport.pullSpeakerPcm(frames, ssrcs, ticks) > 0);
    }
  }

  /** Sends one microphone frame. */
  pushCapture(frame: Int16Array): void {
    const capture = (this.#capture ??= { pushed: 0, base: 0, ticks: 0 });
    capture.pushed += this.#transport.pushPcm(frame);
  }

  /** The microphone gave nothing this tick: the backlog's base follows the transport's clock. */
  captureIdle(): void {
    if (this.#capture) this.#capture.base = this.#capture.ticks - this.#capture.pushed;
  }

  /**
   * Hands what the transport produced to `sink`, with a silent frame for each tick that produced nothing;
   * returns how many ticks the transport made since the last drain.
   */
  drainPlayout(sink: PlayoutSink): number {
    const transport = this.#transport;
    // Read before pulling: a frame mixed in between is pulled now and its tick counted next time.
    const ticks = this.#stats().ticks;
    const playout = (this.#playout ??= { ticks, balance: 0 });
    const elapsed = ticks - playout.ticks;
    playout.ticks = ticks;
    let frames = 0;
    if (!sink.mixSpeakers) {
      for (let n = transport.pullPcm(this.#pulled); n > 0; n = transport.pullPcm(this.#pulled)) {
        for (let i = 0; i < n; i++)
          sink.push(this.#pulled.slice(i * VOICE_FRAME_SAMPLES, (i + 1) * VOICE_FRAME_SAMPLES));
        frames += n;
      }
    } else {
      frames = this.#drainSpeakers(sink.mixSpeakers.bind(sink), sink);
    }
    playout.balance += elapsed - frames;
    for (; playout.balance > 0; playout.balance--) sink.push(SILENT_FRAME);
    return elapsed;
  }

  /** Speaker-output mode: groups the pulled frames by tick and has the sink mix each group. */
  #drainSpeakers(mix: NonNullable<PlayoutSink['mixSpeakers']>, sink: PlayoutSink): number {
    const speakers = (this.#speakers ??= {
      frames: new Int16Array(MAX_SPEAKER_FRAMES * VOICE_FRAME_SAMPLES),
      ssrcs: new Uint32Array(MAX_SPEAKER_FRAMES),
      ticks: new Uint32Array(MAX_SPEAKER_FRAMES),
    });
    const n = this.#transport.pullSpeakerPcm(speakers.frames, speakers.ssrcs, speakers.ticks);
    let frames = 0;
    let start = 0;
    while (start < n) {
      let end = start + 1;
      while (end < n && speakers.ticks[end] === speakers.ticks[start]) end++;
      sink.push(
        mix(
          speakers.frames.subarray(start * VOICE_FRAME_SAMPLES, end * VOICE_FRAME_SAMPLES),
          speakers.ssrcs.subarray(start, end),
          end - start,
        ),
      );
      frames++;
      start = end;
    }
    return frames;
  }
}

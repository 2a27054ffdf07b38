import type { JitterBufferCore } from '../../audio/cores.js';
import {
  AudioResult,
  JitterFrameKind,
  OPUS_MAX_PACKET_SIZE,
  type JitterBufferStatus,
} from '../../audio/types.js';
import { isOpusSilenceFrame } from '../../dave/js/frame.js';

// The TS twin of native/core/audio/jitter_buffer.cc, line for line in behaviour: the same slots, the
// same RFC 3550 jitter estimate, the same adaptive target, the same counters. Its comments say why.

const CAPACITY = 64;
const MAX_CONCEAL_RUN = 5;
const EXCESS_TICKS_BEFORE_DROP = 8;
/** How long the delay a stall needed is held after the latest late packet: 10 s of ticks. */
const PEAK_HOLD_TICKS = 500;
const FRAME_MS = 20;
/** Jitter (2·J, ms) that one frame of target delay absorbs before the target grows (see jitter_buffer.h). */
const JITTER_SLACK_MS = 10;
const FRAME_TIMESTAMP_STEP = 960;

/** Signed distance from b to a in 16-bit sequence space. */
function sequenceDelta(a: number, b: number): number {
  return (((a - b) & 0xffff) << 16) >> 16;
}

interface Slot {
  used: boolean;
  sequence: number;
  timestamp: number;
  size: number;
  readonly data: Uint8Array;
}

/** The JS engine's jitter buffer. */
export class JsJitterBuffer implements JitterBufferCore {
  readonly #min: number;
  readonly #max: number;
  readonly #slots: Slot[] = [];
  #buffered = 0;
  #playing = false;
  #next = 0;
  #havePlayed = false;
  #lastPlayed = 0;
  #lastReal = 0;
  #lastWasSilence = false;
  #concealRun = 0;
  #stretchRun = 0;
  #peakTarget = 0;
  #peakTicksLeft = 0;
  #excessTicks = 0;
  #haveArrival = false;
  #lastArrivalMs = 0;
  #lastTimestamp = 0;
  #jitterMs = 0;
  #target: number;
  readonly #stats = {
    pushed: 0,
    late: 0,
    duplicate: 0,
    invalid: 0,
    packets: 0,
    fec: 0,
    concealed: 0,
    empty: 0,
    dropped: 0,
    resets: 0,
    pauses: 0,
    stretched: 0,
  };

  /** Bounds in frames, already checked (audio/args.ts). */
  constructor(minDelayFrames: number, maxDelayFrames: number) {
    this.#min = Math.max(1, minDelayFrames);
    this.#max = Math.max(this.#min, Math.min(CAPACITY / 2, maxDelayFrames));
    this.#target = this.#min;
    for (let i = 0; i < CAPACITY; i++) {
      this.#slots.push({
        used: false,
        sequence: 0,
        timestamp: 0,
        size: 0,
        data: new Uint8Array(OPUS_MAX_PACKET_SIZE),
      });
    }
  }

  #slot(sequence: number): Slot {
    return this.#slots[sequence % CAPACITY] as Slot;
  }

  #find(sequence: number): Slot | undefined {
    const slot = this.#slot(sequence);
    return slot.used && slot.sequence === sequence ? slot : undefined;
  }

  #release(slot: Slot): void {
    slot.used = false;
    this.#buffered--;
  }

  #reset(): void {
    for (const slot of this.#slots) slot.used = false;
    this.#buffered = 0;
    this.#playing = false;
    this.#concealRun = 0;
    this.#stretchRun = 0;
    this.#stats.resets++;
  }

  #updateJitter(timestamp: number, nowMs: number): void {
    if (this.#haveArrival) {
      const elapsedTs = ((timestamp - this.#lastTimestamp) | 0) / 48;
      const transit = nowMs - this.#lastArrivalMs - elapsedTs;
      this.#jitterMs += (Math.abs(transit) - this.#jitterMs) / 16;
    }
    this.#haveArrival = true;
    this.#lastArrivalMs = nowMs;
    this.#lastTimestamp = timestamp;
    const wanted = 1 + Math.ceil(Math.max(0, 2 * this.#jitterMs - JITTER_SLACK_MS) / FRAME_MS);
    this.#target = Math.min(this.#max, Math.max(this.#min, wanted));
  }

  push(sequence: number, timestamp: number, payload: Uint8Array, nowMs: number): number {
    if (payload.length === 0 || payload.length > OPUS_MAX_PACKET_SIZE) {
      this.#stats.invalid++;
      return payload.length === 0 ? -AudioResult.InvalidPacket : -AudioResult.PacketTooLarge;
    }
    const seq = sequence & 0xffff;
    if (this.#havePlayed && sequenceDelta(seq, this.#lastPlayed) <= 0) {
      this.#stats.late++;
      return -AudioResult.LatePacket;
    }
    if (this.#find(seq) !== undefined) {
      this.#stats.duplicate++;
      return -AudioResult.DuplicatePacket;
    }
    const ahead = sequenceDelta(seq, this.#next);
    if (this.#buffered === 0 && !this.#playing) {
      this.#next = seq;
    } else if (ahead >= CAPACITY || ahead <= -CAPACITY) {
      this.#reset();
      this.#havePlayed = false;
      this.#next = seq;
    } else if (!this.#playing && ahead < 0) {
      this.#next = seq;
    }
    const slot = this.#slot(seq);
    if (slot.used) {
      this.#release(slot);
      this.#stats.dropped++;
    }
    slot.used = true;
    slot.sequence = seq;
    slot.timestamp = timestamp >>> 0;
    slot.size = payload.length;
    slot.data.set(payload);
    this.#buffered++;
    this.#stats.pushed++;
    this.#updateJitter(timestamp >>> 0, nowMs);
    return 0;
  }

  #pause(): void {
    this.#playing = false;
    this.#concealRun = 0;
    this.#stretchRun = 0;
    this.#haveArrival = false;
    if (this.#havePlayed) this.#lastPlayed = this.#lastReal;
  }

  #advance(): void {
    this.#lastPlayed = this.#next;
    this.#havePlayed = true;
    this.#next = (this.#next + 1) & 0xffff;
  }

  pop(out: Uint8Array, info: Uint32Array): number {
    info.fill(0);
    if (this.#peakTicksLeft > 0 && --this.#peakTicksLeft === 0) this.#peakTarget = 0;
    const target = this.#targetInForce();
    if (!this.#playing) {
      if (this.#buffered < target) {
        this.#stats.empty++;
        return 0;
      }
      this.#playing = true;
      this.#concealRun = 0;
    }
    this.#excessTicks = this.#buffered > target + 2 ? this.#excessTicks + 1 : 0;
    if (this.#excessTicks >= EXCESS_TICKS_BEFORE_DROP) {
      const stale = this.#find(this.#next);
      if (stale !== undefined) this.#release(stale);
      this.#advance();
      this.#stats.dropped++;
    }
    info[2] = this.#next;
    const slot = this.#find(this.#next);
    if (slot !== undefined) {
      if (out.length < slot.size) return -AudioResult.BufferTooSmall;
      out.set(slot.data.subarray(0, slot.size));
      info[0] = JitterFrameKind.Packet;
      info[1] = slot.size;
      info[3] = slot.timestamp;
      // The size test first keeps the view off the path of every other packet.
      this.#lastWasSilence = slot.size === 3 && isOpusSilenceFrame(slot.data.subarray(0, 3));
      this.#lastReal = this.#next;
      this.#release(slot);
      this.#advance();
      if (this.#stretchRun > 0) {
        this.#peakTarget = Math.max(this.#peakTarget, Math.min(this.#stretchRun + 1, this.#max));
        this.#peakTicksLeft = PEAK_HOLD_TICKS;
        this.#stretchRun = 0;
      }
      this.#concealRun = 0;
      this.#stats.packets++;
      return 0;
    }
    if (
      this.#buffered === 0 &&
      ((this.#lastWasSilence && this.#concealRun === 0) || this.#concealRun >= MAX_CONCEAL_RUN)
    ) {
      this.#pause();
      this.#stats.pauses++;
      this.#stats.empty++;
      return 0;
    }
    const following = this.#find((this.#next + 1) & 0xffff);
    if (following !== undefined) {
      if (out.length < following.size) return -AudioResult.BufferTooSmall;
      out.set(following.data.subarray(0, following.size));
      info[0] = JitterFrameKind.Fec;
      info[1] = following.size;
      info[3] = (following.timestamp - FRAME_TIMESTAMP_STEP) >>> 0;
      this.#stats.fec++;
    } else {
      info[0] = JitterFrameKind.Conceal;
      this.#stats.concealed++;
      if (this.#buffered === 0) {
        this.#stats.stretched++;
        this.#stretchRun++;
        this.#concealRun++;
        return 0;
      }
    }
    this.#stretchRun = 0;
    this.#advance();
    this.#concealRun++;
    return 0;
  }

  #targetInForce(): number {
    return Math.max(this.#target, this.#peakTarget);
  }

  status(): JitterBufferStatus {
    return {
      targetDelayFrames: this.#targetInForce(),
      jitterMs: this.#jitterMs,
      buffered: this.#buffered,
      ...this.#stats,
    };
  }
}

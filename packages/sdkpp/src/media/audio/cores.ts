import type { CheckedEncoderOptions } from './args.js';
import type { JitterBufferStatus } from './types.js';

// The number-level shapes both engines implement: the native addon's classes (native/napi/audio_wraps.h,
// typed as these interfaces in ../addon/types.ts) and their TS twins (src/media/js/audio). facades.ts
// turns them into the public interfaces, so argument checks, errors and the reused JitterFrame are written
// once for both engines.

/** An Opus encoder (`new OpusEncoder(...)`): per-frame calls return a count or a negated `AudioResult`. */
export interface OpusEncoderCore {
  /** One 20 ms frame into `out`: the packet's size or a negated `AudioResult`. */
  encode(pcm: Int16Array, out: Uint8Array): number;
  /** 0 or a negated code. */
  setBitrate(bitrate: number): number;
  /** 0 or a negated code. */
  setPacketLossPercent(percent: number): number;
  /** Calls per result, indexed by code (`audioResultNames()`). */
  results(): number[];
  /** Frees the codec's state now rather than at collection (the wasm codec). */
  close?(): void;
}

/** An Opus decoder (`new OpusDecoder()`). */
export interface OpusDecoderCore {
  /** Samples per channel written, or a negated code. */
  decode(packet: Uint8Array, out: Int16Array, fec: boolean): number;
  /** One concealed 20 ms frame: samples per channel, or a negated code. */
  conceal(out: Int16Array): number;
  /** Calls per result, indexed by code. */
  results(): number[];
  /** Frees the codec's state now rather than at collection (the wasm codec). */
  close?(): void;
}

/** One speaker's jitter buffer (`new JitterBuffer(minDelayFrames, maxDelayFrames)`). */
export interface JitterBufferCore {
  /** 0 or a negated code. */
  push(sequence: number, timestamp: number, payload: Uint8Array, nowMs: number): number;
  /** 0 or a negated code; `info` gets kind, size, sequence, timestamp. */
  pop(out: Uint8Array, info: Uint32Array): number;
  /** The adaptive state and counters. */
  status(): JitterBufferStatus;
}

/**
 * The local user's capture and mix state (`new AudioProcessor()`): capture gain, VAD, push-to-talk, mute
 * and deafen, per-user gains, the mix. Setters return 0 or a negated `AudioResult`.
 */
export interface AudioProcessorCore {
  /** Gain in place, level, decision: 0 nothing, 1 voice, 2 silence frame. */
  processCapture(pcm: Int16Array, nowMs: number): number;
  /** dBFS of the last captured frame. */
  lastLevelDb(): number;
  /** Samples the limiter touched. */
  mix(frames: Int16Array, keys: Uint32Array, count: number, out: Int16Array): number;
  /** 0 or a negated code. */
  setCaptureGain(gain: number): number;
  /** 0 or a negated code. */
  setUserGain(key: number, gain: number): number;
  /** 0 or a negated code. */
  setVadThresholdDb(thresholdDb: number): number;
  /** 0 voice activity, 1 push-to-talk. */
  setMode(mode: number): void;
  /** 0 or a negated code. */
  setPushToTalkReleaseDelayMs(delayMs: number): number;
  /** Key pressed or released at `nowMs`. */
  setPushToTalk(pressed: boolean, nowMs: number): void;
  /** Self mute. */
  setSelfMute(muted: boolean): void;
  /** Self deafen. */
  setSelfDeaf(deafened: boolean): void;
}

/** How an engine makes the cores of its audio objects; `EngineBase` wraps them in the facades. */
export interface AudioCoreFactory {
  /** An encoder for options already checked. */
  encoder(options: CheckedEncoderOptions): OpusEncoderCore;
  /** A decoder. */
  decoder(): OpusDecoderCore;
  /** A jitter buffer for bounds already checked. */
  jitterBuffer(minDelayFrames: number, maxDelayFrames: number): JitterBufferCore;
  /** A capture and mix state. */
  processor(): AudioProcessorCore;
}

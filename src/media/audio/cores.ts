import type { JitterBufferStatus } from './types.js';

// The number-level shapes both engines implement: the native addon's classes (native/napi/audio_wraps.h)
// and their TS twins (src/media/js/audio). facades.ts turns them into the public interfaces, so argument
// checks, errors and the reused JitterFrame are written once for both engines.

/** An Opus encoder: per-frame calls return a count or a negated `AudioResult`. */
export interface OpusEncoderCore {
  encode(pcm: Int16Array, out: Uint8Array): number;
  setBitrate(bitrate: number): number;
  setPacketLossPercent(percent: number): number;
  results(): number[];
  close?(): void;
}

/** An Opus decoder. */
export interface OpusDecoderCore {
  decode(packet: Uint8Array, out: Int16Array, fec: boolean): number;
  conceal(out: Int16Array): number;
  results(): number[];
  close?(): void;
}

/** A jitter buffer; `pop` fills `info` with kind, size, sequence and timestamp. */
export interface JitterBufferCore {
  push(sequence: number, timestamp: number, payload: Uint8Array, nowMs: number): number;
  pop(out: Uint8Array, info: Uint32Array): number;
  status(): JitterBufferStatus;
}

/** The capture and mix state; setters return 0 or a negated `AudioResult`. */
export interface AudioProcessorCore {
  processCapture(pcm: Int16Array, nowMs: number): number;
  lastLevelDb(): number;
  mix(frames: Int16Array, keys: Uint32Array, count: number, out: Int16Array): number;
  setCaptureGain(gain: number): number;
  setUserGain(key: number, gain: number): number;
  setVadThresholdDb(thresholdDb: number): number;
  /** 0 voice activity, 1 push-to-talk. */
  setMode(mode: number): void;
  setPushToTalkReleaseDelayMs(delayMs: number): number;
  setPushToTalk(pressed: boolean, nowMs: number): void;
  setSelfMute(muted: boolean): void;
  setSelfDeaf(deafened: boolean): void;
}

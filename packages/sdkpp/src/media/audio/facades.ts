import { MediaEngineError } from '../MediaEngineError.js';
import { checkBoolean, checkBytes, checkInt16Array, checkInteger, checkNumber } from './args.js';
import type { AudioProcessorCore, JitterBufferCore, OpusDecoderCore, OpusEncoderCore } from './cores.js';
import {
  AUDIO_RESULTS,
  type AudioProcessor,
  type JitterBuffer,
  type JitterBufferStatus,
  type JitterFrame,
  type JitterFrameKindValue,
  type OpusDecoder,
  type OpusEncoder,
  type SendActionValue,
  type TransmitMode,
} from './types.js';

// The public audio objects over either engine's cores (cores.ts). Per-frame calls pass straight through;
// settings are checked here and a refused one throws, with the same code for both engines.

function throwIfRefused(result: number, what: string): void {
  if (result < 0) {
    throw new MediaEngineError('ERR_AUDIO_BAD_ARGUMENT', `${what} was refused (${AUDIO_RESULTS[-result]})`);
  }
}

/** {@link OpusEncoder} over a core. */
export class OpusEncoderFacade implements OpusEncoder {
  readonly #core: OpusEncoderCore;

  /** @param core - The engine's encoder. */
  constructor(core: OpusEncoderCore) {
    this.#core = core;
  }

  /** {@inheritDoc OpusEncoder.encode} */
  encode(pcm: Int16Array, out: Uint8Array): number {
    return this.#core.encode(checkInt16Array(pcm, 'pcm'), checkBytes(out, 'out'));
  }

  /** {@inheritDoc OpusEncoder.setBitrate} */
  setBitrate(bitrate: number): void {
    throwIfRefused(this.#core.setBitrate(checkInteger(bitrate, 'bitrate', 500, 512000)), 'The bitrate');
  }

  /** {@inheritDoc OpusEncoder.setPacketLossPercent} */
  setPacketLossPercent(percent: number): void {
    const checked = checkInteger(percent, 'percent', 0, 100);
    throwIfRefused(this.#core.setPacketLossPercent(checked), 'The packet loss percentage');
  }

  /** {@inheritDoc OpusEncoder.results} */
  results(): number[] {
    return this.#core.results();
  }

  /** {@inheritDoc OpusEncoder.close} */
  close(): void {
    this.#core.close?.();
  }
}

/** {@link OpusDecoder} over a core. */
export class OpusDecoderFacade implements OpusDecoder {
  readonly #core: OpusDecoderCore;

  /** @param core - The engine's decoder. */
  constructor(core: OpusDecoderCore) {
    this.#core = core;
  }

  /** {@inheritDoc OpusDecoder.decode} */
  decode(packet: Uint8Array, out: Int16Array, fec = false): number {
    return this.#core.decode(
      checkBytes(packet, 'packet'),
      checkInt16Array(out, 'out'),
      checkBoolean(fec, 'fec'),
    );
  }

  /** {@inheritDoc OpusDecoder.conceal} */
  conceal(out: Int16Array): number {
    return this.#core.conceal(checkInt16Array(out, 'out'));
  }

  /** {@inheritDoc OpusDecoder.results} */
  results(): number[] {
    return this.#core.results();
  }

  /** {@inheritDoc OpusDecoder.close} */
  close(): void {
    this.#core.close?.();
  }
}

/** {@link JitterBuffer} over a core, with one reused {@link JitterFrame}. */
export class JitterBufferFacade implements JitterBuffer {
  readonly #core: JitterBufferCore;
  readonly #info = new Uint32Array(4);
  readonly #frame: JitterFrame = { kind: 0, size: 0, sequence: 0, timestamp: 0 };

  /** @param core - The engine's jitter buffer. */
  constructor(core: JitterBufferCore) {
    this.#core = core;
  }

  /** {@inheritDoc JitterBuffer.push} */
  push(sequence: number, timestamp: number, payload: Uint8Array, nowMs: number): number {
    return this.#core.push(
      checkInteger(sequence, 'sequence', 0, 0xffff),
      checkInteger(timestamp, 'timestamp', 0, 0xffffffff),
      checkBytes(payload, 'payload'),
      checkNumber(nowMs, 'nowMs', -Number.MAX_VALUE, Number.MAX_VALUE),
    );
  }

  /** {@inheritDoc JitterBuffer.pop} */
  pop(out: Uint8Array): JitterFrame {
    const info = this.#info;
    const result = this.#core.pop(checkBytes(out, 'out'), info);
    const frame = this.#frame;
    // A buffer too small to take the payload leaves the packet buffered: the tick plays nothing.
    frame.kind = (result < 0 ? 0 : info[0]) as JitterFrameKindValue;
    frame.size = result < 0 ? 0 : (info[1] ?? 0);
    frame.sequence = info[2] ?? 0;
    frame.timestamp = info[3] ?? 0;
    return frame;
  }

  /** {@inheritDoc JitterBuffer.status} */
  status(): JitterBufferStatus {
    return this.#core.status();
  }
}

/** {@link AudioProcessor} over a core; the settings are mirrored here so that reading them is free. */
export class AudioProcessorFacade implements AudioProcessor {
  readonly #core: AudioProcessorCore;
  readonly #now: () => number;
  #captureGain = 1;
  #vadThresholdDb = -50;
  #mode: TransmitMode = 'voice-activity';
  #releaseDelayMs = 20;
  #selfMute = false;
  #selfDeaf = false;

  /**
   * @param core - The engine's processor.
   * @param now - The clock, in milliseconds.
   */
  constructor(core: AudioProcessorCore, now: () => number) {
    this.#core = core;
    this.#now = now;
  }

  get captureGain(): number {
    return this.#captureGain;
  }
  set captureGain(gain: number) {
    throwIfRefused(this.#core.setCaptureGain(checkNumber(gain, 'captureGain', 0, 10)), 'The capture gain');
    this.#captureGain = gain;
  }

  get vadThresholdDb(): number {
    return this.#vadThresholdDb;
  }
  set vadThresholdDb(thresholdDb: number) {
    const checked = checkNumber(thresholdDb, 'vadThresholdDb', -100, 0);
    throwIfRefused(this.#core.setVadThresholdDb(checked), 'The VAD threshold');
    this.#vadThresholdDb = checked;
  }

  get mode(): TransmitMode {
    return this.#mode;
  }
  set mode(mode: TransmitMode) {
    if (mode !== 'voice-activity' && mode !== 'push-to-talk') {
      throw new MediaEngineError(
        'ERR_AUDIO_BAD_ARGUMENT',
        `"mode" must be 'voice-activity' or 'push-to-talk', got ${String(mode)}`,
      );
    }
    this.#core.setMode(mode === 'push-to-talk' ? 1 : 0);
    this.#mode = mode;
  }

  get pushToTalkReleaseDelayMs(): number {
    return this.#releaseDelayMs;
  }
  set pushToTalkReleaseDelayMs(delayMs: number) {
    const checked = checkNumber(delayMs, 'pushToTalkReleaseDelayMs', 0, 60000);
    throwIfRefused(this.#core.setPushToTalkReleaseDelayMs(checked), 'The push-to-talk release delay');
    this.#releaseDelayMs = checked;
  }

  get selfMute(): boolean {
    return this.#selfMute;
  }
  set selfMute(muted: boolean) {
    this.#core.setSelfMute(checkBoolean(muted, 'selfMute'));
    this.#selfMute = muted;
  }

  get selfDeaf(): boolean {
    return this.#selfDeaf;
  }
  set selfDeaf(deafened: boolean) {
    this.#core.setSelfDeaf(checkBoolean(deafened, 'selfDeaf'));
    this.#selfDeaf = deafened;
  }

  get lastLevelDb(): number {
    return this.#core.lastLevelDb();
  }

  /** {@inheritDoc AudioProcessor.setPushToTalk} */
  setPushToTalk(pressed: boolean): void {
    this.#core.setPushToTalk(checkBoolean(pressed, 'pressed'), this.#now());
  }

  /** {@inheritDoc AudioProcessor.processCapture} */
  processCapture(pcm: Int16Array): SendActionValue {
    return this.#core.processCapture(checkInt16Array(pcm, 'pcm'), this.#now()) as SendActionValue;
  }

  /** {@inheritDoc AudioProcessor.setUserGain} */
  setUserGain(key: number, gain: number): void {
    const checkedKey = checkInteger(key, 'key', 0, 0xffffffff);
    const checkedGain = checkNumber(gain, 'gain', 0, 10);
    const result = this.#core.setUserGain(checkedKey, checkedGain);
    if (result < 0) {
      throw new MediaEngineError(
        result === -10 ? 'ERR_AUDIO_TOO_MANY_USERS' : 'ERR_AUDIO_BAD_ARGUMENT',
        `The user gain was refused (${AUDIO_RESULTS[-result]})`,
      );
    }
  }

  /** {@inheritDoc AudioProcessor.mix} */
  mix(frames: Int16Array, keys: Uint32Array, count: number, out: Int16Array): number {
    if (!(keys instanceof Uint32Array)) {
      throw new MediaEngineError('ERR_INVALID_ARG_TYPE', 'The "keys" argument must be a Uint32Array');
    }
    const checkedCount = checkInteger(count, 'count', 0, 0xffffffff);
    return this.#core.mix(checkInt16Array(frames, 'frames'), keys, checkedCount, checkInt16Array(out, 'out'));
  }
}

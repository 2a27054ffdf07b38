import type { AudioProcessorCore } from '../../audio/cores.js';
import { AudioResult, SendAction, SILENCE_FRAMES_ON_STOP } from '../../audio/types.js';
import { limit, mixFrames } from './mixer.js';

// The TS twin of native/core/audio/audio_processor.cc: the same energy VAD, push-to-talk release delay,
// mute and deafen rules, the same five silence frames, and the same per-user gain table and limit.

const MAX_USERS = 256;
const MAX_GAIN = 10;
const SILENCE_LEVEL_DB = -100;

function validGain(gain: number): boolean {
  return Number.isFinite(gain) && gain >= 0 && gain <= MAX_GAIN;
}

/** The JS engine's capture and mix state. */
export class JsAudioProcessor implements AudioProcessorCore {
  #captureGain = 1;
  #vadThresholdDb = -50;
  #pushToTalk = false;
  #releaseDelayMs = 20;
  #pttPressed = false;
  #pttReleased = false;
  #pttReleasedAtMs = 0;
  #selfMute = false;
  #selfDeaf = false;
  #transmitting = false;
  #silenceLeft = 0;
  #lastLevelDb = SILENCE_LEVEL_DB;
  readonly #userGains = new Map<number, number>();
  readonly #gains = new Float64Array(MAX_USERS);
  #sum = new Float64Array(1920);

  processCapture(pcm: Int16Array, nowMs: number): number {
    let energy = 0;
    const gain = this.#captureGain;
    for (let i = 0; i < pcm.length; i++) {
      let sample = pcm[i] ?? 0;
      if (gain !== 1) {
        sample = limit(sample * gain);
        pcm[i] = sample;
      }
      energy += sample * sample;
    }
    const rms = pcm.length === 0 ? 0 : Math.sqrt(energy / pcm.length);
    this.#lastLevelDb =
      rms < 1e-9 ? SILENCE_LEVEL_DB : Math.max(SILENCE_LEVEL_DB, 20 * Math.log10(rms / 32768));

    if (this.#wantsToTransmit(this.#lastLevelDb, nowMs)) {
      this.#transmitting = true;
      this.#silenceLeft = 0;
      return SendAction.Voice;
    }
    if (this.#transmitting) {
      this.#transmitting = false;
      this.#silenceLeft = SILENCE_FRAMES_ON_STOP;
    }
    if (this.#silenceLeft > 0) {
      this.#silenceLeft--;
      return SendAction.Silence;
    }
    return SendAction.Nothing;
  }

  #wantsToTransmit(levelDb: number, nowMs: number): boolean {
    if (this.#selfMute || this.#selfDeaf) return false;
    if (this.#pushToTalk) {
      return this.#pttPressed || (this.#pttReleased && nowMs - this.#pttReleasedAtMs < this.#releaseDelayMs);
    }
    return levelDb >= this.#vadThresholdDb;
  }

  lastLevelDb(): number {
    return this.#lastLevelDb;
  }

  mix(frames: Int16Array, keys: Uint32Array, count: number, out: Int16Array): number {
    if (this.#selfDeaf || count > keys.length || count > MAX_USERS) {
      out.fill(0);
      return 0;
    }
    const gains = this.#gains;
    for (let i = 0; i < count; i++) gains[i] = this.#userGains.get(keys[i] ?? 0) ?? 1;
    if (this.#sum.length < out.length) this.#sum = new Float64Array(out.length);
    return mixFrames(frames, gains.subarray(0, count), count, out, this.#sum);
  }

  setCaptureGain(gain: number): number {
    if (!validGain(gain)) return -AudioResult.BadArgument;
    this.#captureGain = gain;
    return 0;
  }

  setUserGain(key: number, gain: number): number {
    if (!validGain(gain)) return -AudioResult.BadArgument;
    if (!this.#userGains.has(key) && this.#userGains.size >= MAX_USERS) return -AudioResult.TooManyUsers;
    this.#userGains.set(key, gain);
    return 0;
  }

  setVadThresholdDb(thresholdDb: number): number {
    if (!Number.isFinite(thresholdDb) || thresholdDb < SILENCE_LEVEL_DB || thresholdDb > 0) {
      return -AudioResult.BadArgument;
    }
    this.#vadThresholdDb = thresholdDb;
    return 0;
  }

  setMode(mode: number): void {
    this.#pushToTalk = mode === 1;
  }

  setPushToTalkReleaseDelayMs(delayMs: number): number {
    if (!Number.isFinite(delayMs) || delayMs < 0 || delayMs > 60000) return -AudioResult.BadArgument;
    this.#releaseDelayMs = delayMs;
    return 0;
  }

  setPushToTalk(pressed: boolean, nowMs: number): void {
    if (this.#pttPressed && !pressed) {
      this.#pttReleased = true;
      this.#pttReleasedAtMs = nowMs;
    }
    this.#pttPressed = pressed;
  }

  setSelfMute(muted: boolean): void {
    this.#selfMute = muted;
  }

  setSelfDeaf(deafened: boolean): void {
    this.#selfDeaf = deafened;
  }
}

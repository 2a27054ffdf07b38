import dgram from 'node:dgram';
import { performance } from 'node:perf_hooks';

import type { MediaEngine } from '../MediaEngine.js';
import { MediaEngineError } from '../MediaEngineError.js';
import { JitterFrameKind, OPUS_SILENCE_FRAME, SendAction, SILENCE_FRAMES_ON_STOP } from '../audio/types.js';
import type { AudioProcessor, JitterBuffer, OpusDecoder, OpusEncoder } from '../audio/types.js';
import type { DaveDecryptor, DaveEncryptor } from '../dave/types.js';
import { isTransportEncryptionMode, type TransportCryptor } from '../rtp/types.js';
import { LatenessHistogram } from '../transport/latenessHistogram.js';
import {
  checkTransportNumber,
  VOICE_FRAME_SAMPLES,
  type VoiceTransport,
  type VoiceTransportOptions,
  type VoiceTransportState,
  type VoiceTransportStats,
} from '../transport/types.js';
import type { Mutable } from '@sdkpp/protocol';

/** Ticks mid-speech the sender waits for a late capture frame before it ends the transmission. */
const CAPTURE_HOLD_TICKS = 3;
const TICK_MS = 20;
const INPUT_FRAMES = 16;
const OUTPUT_FRAMES = 32;
const SPEAKER_FRAMES = 128;
const MAX_SPEAKERS = 32;
const OPUS_PAYLOAD_TYPE = 120;
const LATE_TICK_MS = 2;
// Further behind than this (the event loop was blocked), the clock restarts instead of sending a burst.
const RESYNC_AFTER_MS = 200;

function zeroStats(): Mutable<VoiceTransportStats> {
  return {
    ticks: 0,
    packetsSent: 0,
    voiceFramesSent: 0,
    silenceFramesSent: 0,
    packetsReceived: 0,
    framesMixed: 0,
    droppedInputOverrun: 0,
    droppedInputPartial: 0,
    droppedOutputOverrun: 0,
    droppedForeignSource: 0,
    droppedNotRtp: 0,
    droppedNoKey: 0,
    droppedOpenFailed: 0,
    droppedDaveFailed: 0,
    droppedJitterRefused: 0,
    droppedTooManySsrcs: 0,
    droppedDecodeFailed: 0,
    droppedEncodeFailed: 0,
    droppedSendFailed: 0,
    lateTicks: 0,
    maxLatenessUs: 0,
    tickLatenessP50Us: 0,
    tickLatenessP99Us: 0,
    lastSpurtStartUs: 0,
    nextTickInUs: 0,
    devicesLinked: 0,
    allocationsInTicks: 0,
    discoveryAttempts: 0,
    priority: 0,
  };
}

interface SpeakerFrame {
  readonly ssrc: number;
  readonly tick: number;
  readonly samples: Int16Array;
}

interface Speaker {
  readonly jitter: JitterBuffer;
  readonly decoder: OpusDecoder;
  readonly decryptor: DaveDecryptor;
}

/**
 * The JS engine's {@link VoiceTransport}: the native transport's pipeline (capture processing, Opus, DAVE,
 * transport seal; open, DAVE, jitter buffer, decode, mix) over node:dgram and a timer at absolute 20 ms
 * deadlines. It shares the event loop with the application, so a blocked loop delays its packets: that is
 * the difference bench/pacing.ts measures against the native thread.
 */
export class JsVoiceTransport implements VoiceTransport {
  readonly #engine: MediaEngine;
  readonly #options: VoiceTransportOptions;
  readonly #stats = zeroStats();
  readonly #tickLateness = new LatenessHistogram();
  readonly #processor: AudioProcessor;
  readonly #encoder: OpusEncoder;
  readonly #encryptor: DaveEncryptor;
  readonly #speakers = new Map<number, Speaker>();
  readonly #input: Int16Array[] = [];
  readonly #output: Int16Array[] = [];
  readonly #speakerOutput: SpeakerFrame[] = [];
  #speakerMode = false;
  #tickNumber = 0;
  #cryptor: TransportCryptor | null = null;
  #davePassthrough = true;
  #socket: dgram.Socket | null = null;
  #state: VoiceTransportState = 'idle';
  #discovered: { address: string; port: number } | null = null;
  #timer: NodeJS.Timeout | null = null;
  // Ends a discovery attempt that is waiting for its answer (stop() must not wait out the timeout).
  #cancelDiscovery: (() => void) | null = null;
  #deadline = 0;
  /** An `onEvent` call is queued. */
  #eventPending = false;
  #sequence = 0;
  #timestamp = 0;
  #tailLeft = 0;
  #dryTicks = 0;
  readonly #opus = new Uint8Array(1275);
  readonly #frame = new Uint8Array(1275 + 64);
  readonly #packet = new Uint8Array(2048);
  readonly #plain = new Uint8Array(2048);
  readonly #speakerPcm = new Int16Array(MAX_SPEAKERS * VOICE_FRAME_SAMPLES);
  readonly #keys = new Uint32Array(MAX_SPEAKERS);

  /** Prefer {@link MediaEngine.createVoiceTransport}; `engine` supplies the codec and crypto. */
  constructor(engine: MediaEngine, options: VoiceTransportOptions) {
    if (options.onEvent !== undefined && typeof options.onEvent !== 'function')
      throw new MediaEngineError('ERR_INVALID_ARG_TYPE', 'The "onEvent" option must be a function');
    this.#engine = engine;
    this.#options = options;
    this.#processor = engine.createAudioProcessor();
    this.#encoder = engine.createOpusEncoder({ bitrate: options.bitrate ?? 64000 });
    this.#encryptor = engine.createDaveEncryptor();
    this.#encryptor.setPassthroughMode(true);
  }

  /** {@inheritDoc VoiceTransport.start} */
  async start(): Promise<number> {
    if (this.#socket) {
      throw new MediaEngineError('ERR_TRANSPORT_ALREADY_RUNNING', 'The voice transport is already running');
    }
    const socket = dgram.createSocket('udp4');
    this.#socket = socket;
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, this.#options.bindHost ?? '0.0.0.0', () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.on('error', () => {
      this.#stats.droppedSendFailed++;
    });
    const port = socket.address().port;
    if (this.#options.discover ?? true) {
      this.#state = 'discovering';
      void this.#discover(socket);
    } else {
      this.#run(socket);
    }
    return port;
  }

  /** {@inheritDoc VoiceTransport.stop} */
  async stop(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#deadline = 0; // no next tick: stats say 0
    this.#cancelDiscovery?.();
    const socket = this.#socket;
    this.#socket = null;
    if (this.#state !== 'discovery-failed') this.#state = 'stopped';
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }

  /** {@inheritDoc VoiceTransport.state} */
  state(): VoiceTransportState {
    return this.#state;
  }

  /** {@inheritDoc VoiceTransport.discovered} */
  discovered(): { address: string; port: number } | null {
    return this.#discovered;
  }

  /** {@inheritDoc VoiceTransport.setTransportKey} */
  setTransportKey(mode: string, key: Uint8Array): void {
    if (!isTransportEncryptionMode(mode)) {
      throw new MediaEngineError('ERR_RTP_UNSUPPORTED_MODE', 'Unsupported transport encryption mode');
    }
    this.#cryptor = this.#engine.createTransportCryptor(mode, key);
  }

  /** {@inheritDoc VoiceTransport.setDaveSendKey} */
  setDaveSendKey(baseSecret: Uint8Array): void {
    this.#encryptor.setKeyRatchet(baseSecret);
    this.#encryptor.setPassthroughMode(false);
  }

  /** {@inheritDoc VoiceTransport.setDaveReceiveKey} */
  setDaveReceiveKey(ssrc: number, baseSecret: Uint8Array): void {
    const speaker = this.#speaker(ssrc);
    if (speaker) speaker.decryptor.transitionToKeyRatchet(baseSecret);
    else this.#stats.droppedTooManySsrcs++;
  }

  /** {@inheritDoc VoiceTransport.setDavePassthrough} */
  setDavePassthrough(enabled: boolean): void {
    this.#davePassthrough = enabled;
    this.#encryptor.setPassthroughMode(enabled);
    for (const speaker of this.#speakers.values()) speaker.decryptor.transitionToPassthroughMode(enabled);
  }

  /** {@inheritDoc VoiceTransport.setSelfMute} */
  setSelfMute(muted: boolean): void {
    this.#processor.selfMute = muted;
  }

  /** {@inheritDoc VoiceTransport.setSelfDeaf} */
  setSelfDeaf(deafened: boolean): void {
    this.#processor.selfDeaf = deafened;
  }

  /** {@inheritDoc VoiceTransport.setPushToTalkMode} */
  setPushToTalkMode(pushToTalk: boolean): void {
    this.#processor.mode = pushToTalk ? 'push-to-talk' : 'voice-activity';
  }

  /** {@inheritDoc VoiceTransport.setPushToTalk} */
  setPushToTalk(pressed: boolean): void {
    this.#processor.setPushToTalk(pressed);
  }

  /** {@inheritDoc VoiceTransport.setPushToTalkReleaseDelayMs} */
  setPushToTalkReleaseDelayMs(delayMs: number): void {
    this.#processor.pushToTalkReleaseDelayMs = checkTransportNumber(delayMs, 0, 60000, 'delayMs');
  }

  /** {@inheritDoc VoiceTransport.setVadThresholdDb} */
  setVadThresholdDb(thresholdDb: number): void {
    this.#processor.vadThresholdDb = checkTransportNumber(thresholdDb, -100, 0, 'thresholdDb');
  }

  /** {@inheritDoc VoiceTransport.setCaptureGain} */
  setCaptureGain(gain: number): void {
    this.#processor.captureGain = checkTransportNumber(gain, 0, 10, 'gain');
  }

  /** {@inheritDoc VoiceTransport.setUserGain} */
  setUserGain(ssrc: number, gain: number): void {
    checkTransportNumber(ssrc, 0, 0xffffffff, 'ssrc');
    this.#processor.setUserGain(ssrc, checkTransportNumber(gain, 0, 10, 'gain'));
  }

  /** {@inheritDoc VoiceTransport.removeSpeaker} */
  removeSpeaker(ssrc: number): void {
    const speaker = this.#speakers.get(ssrc);
    if (!speaker) return;
    speaker.decoder.close();
    this.#speakers.delete(ssrc);
  }

  /** {@inheritDoc VoiceTransport.pushPcm} */
  pushPcm(pcm: Int16Array): number {
    const frames = Math.floor(pcm.length / VOICE_FRAME_SAMPLES);
    this.#stats.droppedInputPartial += pcm.length % VOICE_FRAME_SAMPLES;
    let accepted = 0;
    for (; accepted < frames && this.#input.length < INPUT_FRAMES; accepted++) {
      this.#input.push(pcm.slice(accepted * VOICE_FRAME_SAMPLES, (accepted + 1) * VOICE_FRAME_SAMPLES));
    }
    this.#stats.droppedInputOverrun += frames - accepted;
    return accepted;
  }

  /** {@inheritDoc VoiceTransport.pullPcm} */
  pullPcm(out: Int16Array): number {
    let taken = 0;
    while ((taken + 1) * VOICE_FRAME_SAMPLES <= out.length) {
      const frame = this.#output.shift();
      if (!frame) break;
      out.set(frame, taken * VOICE_FRAME_SAMPLES);
      taken++;
    }
    return taken;
  }

  /** {@inheritDoc VoiceTransport.pcmAvailable} */
  pcmAvailable(): number {
    return this.#output.length;
  }

  /** {@inheritDoc VoiceTransport.setSpeakerOutput} */
  setSpeakerOutput(enabled: boolean): void {
    this.#speakerMode = enabled;
  }

  /** {@inheritDoc VoiceTransport.pullSpeakerPcm} */
  pullSpeakerPcm(out: Int16Array, ssrcs: Uint32Array, ticks: Uint32Array): number {
    const room = Math.min(Math.floor(out.length / VOICE_FRAME_SAMPLES), ssrcs.length, ticks.length);
    let taken = 0;
    for (; taken < room; taken++) {
      const frame = this.#speakerOutput.shift();
      if (!frame) break;
      out.set(frame.samples, taken * VOICE_FRAME_SAMPLES);
      ssrcs[taken] = frame.ssrc;
      ticks[taken] = frame.tick;
    }
    return taken;
  }

  /** {@inheritDoc VoiceTransport.stats} */
  stats(): VoiceTransportStats {
    return {
      ...this.#stats,
      tickLatenessP50Us: this.#tickLateness.quantile(0.5),
      tickLatenessP99Us: this.#tickLateness.quantile(0.99),
      nextTickInUs:
        this.#deadline === 0 ? 0 : Math.max(0, Math.round((this.#deadline - performance.now()) * 1000)),
    };
  }

  /** {@inheritDoc VoiceTransport.linkSystemAudio} */
  linkSystemAudio(): boolean {
    return false; // timers on the JavaScript thread: linking would gain nothing
  }

  async #discover(socket: dgram.Socket): Promise<void> {
    const request = new Uint8Array(74);
    this.#engine.encodeIpDiscovery(
      { type: 'request', ssrc: this.#options.ssrc, address: '', port: 0 },
      request,
    );
    const attempts = this.#options.discoveryAttempts ?? 3;
    const timeoutMs = this.#options.discoveryTimeoutMs ?? 1000;
    for (let attempt = 0; attempt < attempts && this.#socket === socket; attempt++) {
      this.#stats.discoveryAttempts++;
      const answer = await new Promise<{ address: string; port: number } | null>((resolve) => {
        const onMessage = (message: Buffer, from: dgram.RemoteInfo): void => {
          this.#stats.packetsReceived++;
          if (!this.#fromServer(from)) {
            this.#stats.droppedForeignSource++;
            return;
          }
          const decoded = this.#engine.decodeIpDiscovery(message);
          if (!decoded.ok || decoded.packet.type !== 'response') {
            this.#stats.droppedNotRtp++;
            return;
          }
          done({ address: decoded.packet.address, port: decoded.packet.port });
        };
        const timer = setTimeout(() => done(null), timeoutMs);
        const done = (value: { address: string; port: number } | null): void => {
          clearTimeout(timer);
          socket.off('message', onMessage);
          this.#cancelDiscovery = null;
          resolve(value);
        };
        this.#cancelDiscovery = () => done(null);
        socket.on('message', onMessage);
        socket.send(request, this.#options.serverPort, this.#options.serverHost);
      });
      if (answer) {
        if (this.#socket !== socket) return;
        this.#discovered = answer;
        this.#run(socket);
        return;
      }
    }
    if (this.#socket === socket) this.#state = 'discovery-failed';
  }

  #fromServer(from: dgram.RemoteInfo): boolean {
    return from.address === this.#options.serverHost && from.port === this.#options.serverPort;
  }

  #run(socket: dgram.Socket): void {
    this.#state = 'running';
    socket.on('message', (message, from) => {
      this.#stats.packetsReceived++;
      if (!this.#fromServer(from)) this.#stats.droppedForeignSource++;
      else this.#receive(message);
    });
    this.#deadline = performance.now() + TICK_MS;
    this.#schedule();
  }

  // Absolute deadlines, as the native thread keeps: a late tick does not push the next one back.
  #schedule(): void {
    this.#timer = setTimeout(() => this.#tick(), Math.max(0, this.#deadline - performance.now()));
  }

  #tick(): void {
    if (!this.#socket) return;
    const now = performance.now();
    const lateness = now - this.#deadline;
    if (lateness > LATE_TICK_MS) this.#stats.lateTicks++;
    this.#stats.maxLatenessUs = Math.max(this.#stats.maxLatenessUs, Math.round(lateness * 1000));
    this.#tickLateness.record(lateness * 1000);
    this.#send();
    this.#mix();
    this.#stats.ticks++;
    this.#deadline += TICK_MS;
    if (now - this.#deadline > RESYNC_AFTER_MS) this.#deadline = now + TICK_MS;
    this.#schedule();
  }

  #send(): void {
    const capture = this.#input.shift();
    // A transmission starts when voice follows nothing sent at all (no voice, no silence tail).
    const quiet = this.#tailLeft === 0;
    const wasTransmitting = this.#tailLeft > 0;
    let action: number = SendAction.Nothing;
    if (capture) {
      action = this.#processor.processCapture(capture);
      if (action === SendAction.Voice) this.#tailLeft = SILENCE_FRAMES_ON_STOP;
      else if (action === SendAction.Silence) this.#tailLeft = Math.max(0, this.#tailLeft - 1);
      else this.#tailLeft = 0;
    } else if (this.#tailLeft === SILENCE_FRAMES_ON_STOP && this.#dryTicks < CAPTURE_HOLD_TICKS) {
      // Dry mid-speech: the capture runs on its own timer, so wait a few ticks for a late frame rather
      // than end the transmission (as the native transport does).
      this.#dryTicks++;
    } else if (this.#tailLeft > 0) {
      action = SendAction.Silence;
      this.#tailLeft--;
    }
    if (capture) this.#dryTicks = 0;
    if (action === SendAction.Voice && capture) {
      const size = this.#encoder.encode(capture, this.#opus);
      if (size < 0) this.#stats.droppedEncodeFailed++;
      else if (this.#sendPayload(this.#opus.subarray(0, size), false) && quiet)
        this.#stats.lastSpurtStartUs = Number(process.hrtime.bigint() / 1000n);
    } else if (action === SendAction.Silence) {
      this.#sendPayload(OPUS_SILENCE_FRAME, true);
    }
    this.#timestamp = (this.#timestamp + 960) >>> 0;
    // A transmission began or ended: told after this tick, as the native thread's event arrives.
    if (wasTransmitting !== this.#tailLeft > 0) this.#notify();
  }

  /** One `onEvent` call per turn of the event loop, however many events came before it runs. */
  #notify(): void {
    const onEvent = this.#options.onEvent;
    if (!onEvent || this.#eventPending) return;
    this.#eventPending = true;
    setImmediate(() => {
      this.#eventPending = false;
      onEvent();
    });
  }

  /** Seals and sends one payload; false when it was dropped (no key, DAVE failed). */
  #sendPayload(payload: Uint8Array, silence: boolean): boolean {
    const socket = this.#socket;
    if (!this.#cryptor || !socket) {
      this.#stats.droppedNoKey++;
      return false;
    }
    const dave = this.#encryptor.encrypt(payload, this.#frame);
    if (!dave.ok) {
      this.#stats.droppedDaveFailed++;
      return false;
    }
    const header = { sequence: this.#sequence, timestamp: this.#timestamp, ssrc: this.#options.ssrc };
    const size = this.#cryptor.seal(header, this.#frame.subarray(0, dave.length), this.#packet);
    // dgram copies nothing before the send completes: hand it its own bytes.
    socket.send(this.#packet.slice(0, size), this.#options.serverPort, this.#options.serverHost);
    this.#sequence = (this.#sequence + 1) & 0xffff;
    this.#stats.packetsSent++;
    if (silence) this.#stats.silenceFramesSent++;
    else this.#stats.voiceFramesSent++;
    return true;
  }

  #speaker(ssrc: number): Speaker | null {
    let speaker = this.#speakers.get(ssrc);
    if (!speaker) {
      if (this.#speakers.size >= MAX_SPEAKERS) return null;
      speaker = {
        jitter: this.#engine.createJitterBuffer(),
        decoder: this.#engine.createOpusDecoder(),
        decryptor: this.#engine.createDaveDecryptor({ passthrough: this.#davePassthrough }),
      };
      this.#speakers.set(ssrc, speaker);
    }
    return speaker;
  }

  #receive(datagram: Uint8Array): void {
    const first = datagram[0] ?? 0;
    const second = datagram[1] ?? 0;
    if (datagram.length < 12 || first >> 6 !== 2 || (second & 0x7f) !== OPUS_PAYLOAD_TYPE) {
      this.#stats.droppedNotRtp++;
      return;
    }
    if (!this.#cryptor) {
      this.#stats.droppedNoKey++;
      return;
    }
    const opened = this.#cryptor.open(datagram, this.#plain);
    if (!opened.ok) {
      this.#stats.droppedOpenFailed++;
      return;
    }
    const speaker = this.#speaker(opened.header.ssrc);
    if (!speaker) {
      this.#stats.droppedTooManySsrcs++;
      return;
    }
    const payload = this.#plain.subarray(opened.payloadOffset, opened.payloadOffset + opened.payloadLength);
    const dave = speaker.decryptor.decrypt(payload, this.#frame);
    if (!dave.ok) {
      this.#stats.droppedDaveFailed++;
      return;
    }
    const pushed = speaker.jitter.push(
      opened.header.sequence,
      opened.header.timestamp,
      this.#frame.subarray(0, dave.length),
      performance.now(),
    );
    if (pushed < 0) this.#stats.droppedJitterRefused++;
  }

  #mix(): void {
    this.#tickNumber = (this.#tickNumber + 1) >>> 0;
    let count = 0;
    for (const [ssrc, speaker] of this.#speakers) {
      const frame = speaker.jitter.pop(this.#opus);
      if (frame.kind === JitterFrameKind.Empty) continue;
      const pcm = this.#speakerPcm.subarray(count * VOICE_FRAME_SAMPLES, (count + 1) * VOICE_FRAME_SAMPLES);
      const decoded =
        frame.kind === JitterFrameKind.Conceal
          ? speaker.decoder.conceal(pcm)
          : speaker.decoder.decode(
              this.#opus.subarray(0, frame.size),
              pcm,
              frame.kind === JitterFrameKind.Fec,
            );
      if (decoded !== VOICE_FRAME_SAMPLES / 2) {
        this.#stats.droppedDecodeFailed++;
        continue;
      }
      this.#keys[count] = ssrc;
      count++;
    }
    if (count === 0) return;
    if (this.#speakerMode) {
      if (this.#processor.selfDeaf) return;
      for (let i = 0; i < count; i++) {
        if (this.#speakerOutput.length >= SPEAKER_FRAMES) {
          this.#stats.droppedOutputOverrun++;
          continue;
        }
        const samples = this.#speakerPcm.slice(i * VOICE_FRAME_SAMPLES, (i + 1) * VOICE_FRAME_SAMPLES);
        this.#speakerOutput.push({ ssrc: this.#keys[i] ?? 0, tick: this.#tickNumber, samples });
        this.#stats.framesMixed++;
      }
      return;
    }
    if (this.#output.length >= OUTPUT_FRAMES) {
      this.#stats.droppedOutputOverrun++;
      return;
    }
    const mixed = new Int16Array(VOICE_FRAME_SAMPLES);
    this.#processor.mix(this.#speakerPcm.subarray(0, count * VOICE_FRAME_SAMPLES), this.#keys, count, mixed);
    this.#output.push(mixed);
    this.#stats.framesMixed++;
  }
}

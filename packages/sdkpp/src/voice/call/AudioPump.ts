import path from 'node:path';

import { ValidationError } from '@sdkpp/protocol';
import type { LogWriter } from '../../logging/index.js';
import {
  VOICE_FRAME_SAMPLES,
  type SystemAudio,
  type VirtualAudio,
  type VoiceProcessingLink,
} from '../../media/index.js';
import {
  describeDevice,
  NULL_AUDIO_DEVICE,
  NULL_AUDIO_DEVICE_ID,
  nullInput,
  nullOutput,
  openInput,
  openOutput,
  WAV_INPUT_PREFIX,
  WavFileOutput,
  type AudioDevice,
  type AudioInput,
  type AudioOutput,
} from '../devices/audioDevices.js';
import { GameAudioInput } from '../devices/GameAudioInput.js';
import { SYSTEM_DEFAULT_DEVICE_ID, type SystemDevices } from '../devices/SystemDevices.js';
import { VirtualInput } from '../devices/VirtualInput.js';
import { startProcessingWorker, type ProcessingWorker } from '../processing/ProcessingWorker.js';
import { VoiceProcessor, type VoiceProcessingSettings } from '../processing/VoiceProcessor.js';
import type { ActiveCall } from './ActiveCall.js';

const TICK_MS = 20;
/**
 * The pump's period while a call's transport thread serves both of its devices and nothing on this thread
 * needs a frame: only the call's own housekeeping runs then (DAVE failures, the inbound-audio watch, a file
 * microphone's read-ahead, the speaking state between transmissions), and any change that needs frames
 * again wakes the pump at once. The start and end of our transmissions do not wait for it: the transport
 * reports them itself (`onEvent`). Each wake-up of an idle event loop costs 0.1–0.2 ms on a small machine,
 * so this is what a call costs the game's thread when nothing happens.
 */
const HOUSEKEEPING_MS = 250;
/** Frames a late pump catches up at most (then it restarts its clock). */
const MAX_CATCH_UP = 10;
/** Capture frames kept waiting in each transport's send ring while the pump keeps its own beat. */
const CAPTURE_BACKLOG = 2;
/**
 * In step with the one call's transport (see {@link AudioPump}): the microphone's frame goes to the
 * transport this long before its tick. The native transport makes the tick's packet 3 ms before it (so
 * that the send itself is on time), or at the tick from a frame that came after that; a timer fires a
 * millisecond or so late. A frame that misses its tick goes at the next (the transport holds a few ticks
 * for a late one).
 */
const CAPTURE_LEAD_MS = 5;
/**
 * In step: what a transport's tick mixed is taken this long after it. Decoding many speakers fits, and a
 * Node timer may fire up to a millisecond early: taken before the tick's mix, a frame would come a tick
 * late and two together the next time.
 */
const PLAYOUT_LAG_MS = 4;
/** In step, one frame waits: the one that the coming tick sends. */
const CAPTURE_BACKLOG_IN_STEP = 1;

/** What the audio pump needs from the call manager. */
export interface AudioPumpDeps {
  /** The running calls, read live each tick. */
  calls: ReadonlyMap<string, ActiveCall>;
  log: LogWriter;
  /** Where AEC dump files go; without one there is no dump. */
  voiceLogDir: () => string | undefined;
  /** Runs at the start of every tick while a call runs. */
  onTick: () => void;
  /** The system's microphones and speakers. */
  system: SystemDevices;
  /** Sees every microphone frame read while a call is connected (`null` when the device gave none). */
  inputObserver?: (frame: Int16Array | null, nowMs: number) => void;
  /** Whether {@link AudioPumpDeps.inputObserver} needs the frames now (else the devices may be linked). */
  observesInput?: () => boolean;
  /** The native addon's file, for the voice processing worker (undefined: the JS engine runs). */
  addonPath?: () => string | undefined;
  /**
   * The engine's virtual devices for a transport's thread to serve ({@link VirtualAudio}); undefined (or
   * absent) where the engine has none, and the virtual devices then run on this thread.
   */
  createVirtualAudio?: () => VirtualAudio | undefined;
}

/** What is linked to a call's transport thread ({@link VoiceTransport.linkSystemAudio}). */
interface DeviceLink {
  readonly call: ActiveCall;
  /** The devices themselves, the processing worker's link between them and the transport, or the virtual devices. */
  readonly target: SystemAudio | VoiceProcessingLink | VirtualAudio;
  readonly capture: boolean;
  readonly playback: boolean;
  readonly playbackGain: number;
  /** Whether this thread still reads the mix the linked speaker plays (a simulated room hears it). */
  readonly mirror: boolean;
}

/**
 * The audio pump: the input and output devices, and every 20 ms the frames from the input device to every
 * connected call and from every call to the output device, paced by each call's transport clock (each
 * {@link ActiveCall} says how much it holds and hands out what it produced); plus the AEC dump files of
 * what went in and out.
 *
 * With one call (and no echo canceller on this thread, see `#stepCall`), the pump runs in step with that
 * call's transport: it reads the microphone just before each of the transport's ticks and takes the playout
 * just after, so a frame waits about {@link CAPTURE_LEAD_MS} to be sent and {@link PLAYOUT_LAG_MS} to be
 * played (or reach the game's callback), instead of up to two ticks and one (mouth to ear, both sides add
 * up).
 */
export class AudioPump {
  readonly #d: AudioPumpDeps;
  #outputVolume = 100;
  #inputId = NULL_AUDIO_DEVICE_ID;
  #outputId = NULL_AUDIO_DEVICE_ID;
  #input: AudioInput = nullInput;
  #output: AudioOutput = nullOutput;
  /** Whether the current devices are the system's (which a call's transport thread can serve itself). */
  #inputIsSystem = false;
  #outputIsSystem = false;
  /** The link asked of a call's transport; the pump keeps off a linked side until the thread lets go. */
  #link: DeviceLink | undefined;
  #aecDump = false;
  #aecFiles: { input: WavFileOutput; output: WavFileOutput } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #deadline = 0;
  /** In step with a call's transport: when the microphone is read next, before the full tick at #deadline. */
  #captureAt: number | undefined;
  /** The pump runs at {@link HOUSEKEEPING_MS}: the transport's thread serves every device. */
  #sleeping = false;
  /** Something that may change the link happened while asleep: the next tick plans it afresh. */
  #dirty = false;
  /** Whether any call's transport was ever asked to serve a device (before that, none can be busy). */
  #everLinked = false;
  readonly #frame = new Int16Array(VOICE_FRAME_SAMPLES);
  readonly #mixed = new Int16Array(VOICE_FRAME_SAMPLES);

  /** The game's own finished audio (voice chain, TTS): sent as it is. */
  readonly #game: GameAudioInput;
  /** A raw microphone the game captures itself: processed like the input device's audio. */
  readonly #gameMicrophone: GameAudioInput;
  /** Echo cancellation, noise suppression and gain control on the microphone's frames. */
  readonly #processor: VoiceProcessor;
  /** The same processing on a worker thread, between linked system devices and the transport. */
  #worker: ProcessingWorker | undefined;
  /** A worker could not start or failed: the processing stays on this thread. */
  #workerUnavailable = false;
  /** The switches the game set; one it never set follows the input device ({@link AudioPump.voiceProcessing}). */
  #asked: Partial<VoiceProcessingSettings> = {};

  constructor(deps: AudioPumpDeps) {
    this.#d = deps;
    this.#processor = new VoiceProcessor(deps.log);
    const accepting = (): boolean => [...deps.calls.values()].some((call) => call.carriesAudio);
    this.#game = new GameAudioInput(deps.log, accepting);
    this.#gameMicrophone = new GameAudioInput(deps.log, accepting, true);
  }

  /** Playback volume, 0–200. */
  get outputVolume(): number {
    return this.#outputVolume;
  }
  set outputVolume(volume: number) {
    this.#outputVolume = volume;
    this.#wake();
  }

  /** Turns voice processing parts on or off; resolves once the change runs. */
  async setVoiceProcessing(change: Partial<VoiceProcessingSettings>): Promise<void> {
    this.#asked = { ...this.#asked, ...change };
    this.#wake();
    await this.#applyProcessing();
  }

  /**
   * The voice processing settings in effect. A switch the game never set is on for a system microphone, as
   * in the C++ SDK, and off for the virtual devices (files, the null device, a simulated room), whose audio
   * needs none; the game's own microphone (`pushAudioInput` with `microphone: true`) has usually been
   * through its capture API's processing already (a browser's `getUserMedia` does all three).
   */
  voiceProcessing(): VoiceProcessingSettings {
    const byDefault = this.#inputIsSystem;
    return {
      echoCancellation: this.#asked.echoCancellation ?? byDefault,
      noiseSuppression: this.#asked.noiseSuppression ?? byDefault,
      automaticGainControl: this.#asked.automaticGainControl ?? byDefault,
    };
  }

  /** Brings the processors (this thread's and the worker's) to the settings in effect. */
  async #applyProcessing(): Promise<void> {
    const settings = this.voiceProcessing();
    const applied = this.#processor.set(settings);
    this.#worker?.set(settings);
    await applied;
  }

  /** After a device switch: the defaults may have changed with it (a failure is logged; the switch stands). */
  #followDefaults(): void {
    this.#applyProcessing().catch((error: unknown) => {
      this.#d.log.warn(`voice processing: ${(error as Error).message}`);
    });
  }

  /**
   * Queues the game's own audio for the calls' capture path; see {@link GameAudioInput}. `microphone`: the
   * samples are a raw microphone the game captured itself, so voice processing applies to them.
   */
  pushGameAudio(
    samples: Int16Array | Float32Array,
    sampleRate: number,
    channels: number,
    microphone: boolean,
  ): void {
    (microphone ? this.#gameMicrophone : this.#game).push(samples, sampleRate, channels);
    this.#wake();
  }

  // --- devices -------------------------------------------------------------------------------------

  /** The input devices: the null device, the current virtual device, then the system's (`default` first). */
  inputDevices(): AudioDevice[] {
    return [...this.#virtualDevices(this.#inputId, 'input'), ...this.#d.system.list('input')];
  }
  /** The output devices: the null device, the current WAV file, then the system's (`default` first). */
  outputDevices(): AudioDevice[] {
    return [...this.#virtualDevices(this.#outputId, 'output'), ...this.#d.system.list('output')];
  }
  /** The current input device. */
  currentInputDevice(): AudioDevice {
    return this.#describe(this.#inputId, 'input');
  }
  /** The current output device. */
  currentOutputDevice(): AudioDevice {
    return this.#describe(this.#outputId, 'output');
  }
  /**
   * Switches the input device, during a call too (the call goes on with the new device's audio); a
   * ValidationError for an unknown id or an unreadable or unsupported file, a MediaEngineError for a system
   * device that is gone or will not open.
   */
  setInputDevice(id: string): void {
    const input = this.#open(
      id,
      'input',
      (virtual) => this.#openVirtualInput(virtual),
      (device) => this.#d.system.openInput(device),
    );
    this.#input.close();
    this.#input = input;
    this.#inputId = id;
    this.#inputIsSystem = !describeDevice(id, 'input');
    this.#d.log.info(`input device: ${id}`);
    this.#followDefaults();
    this.#wake();
  }
  /** A virtual input: on the engine's {@link VirtualAudio} where it has one (null and files), else here. */
  #openVirtualInput(id: string): AudioInput {
    const file = id.startsWith(WAV_INPUT_PREFIX) ? id.slice(WAV_INPUT_PREFIX.length) : undefined;
    if (id !== NULL_AUDIO_DEVICE_ID && file === undefined) return openInput(id);
    const virtualAudio = this.#d.createVirtualAudio?.();
    if (!virtualAudio) return openInput(id);
    try {
      return new VirtualInput(virtualAudio, file);
    } catch (error) {
      virtualAudio.dispose();
      throw error;
    }
  }
  /** Switches the output device (a WAV file is finalised); errors as {@link AudioPump.setInputDevice}. */
  setOutputDevice(id: string): void {
    const output = this.#open(id, 'output', openOutput, (device) => this.#d.system.openOutput(device));
    this.#output.close();
    this.#output = output;
    this.#outputId = id;
    this.#outputIsSystem = !describeDevice(id, 'output');
    this.#d.log.info(`output device: ${id}`);
    this.#wake();
  }
  /** The watcher moved a lost system device's stream to the default: the current device says so now. */
  deviceLost(direction: 'input' | 'output'): void {
    if (direction === 'input') this.#inputId = SYSTEM_DEFAULT_DEVICE_ID;
    else this.#outputId = SYSTEM_DEFAULT_DEVICE_ID;
    this.#wake();
  }

  #open<T>(
    id: string,
    direction: 'input' | 'output',
    openVirtual: (id: string) => T,
    openSystem: (id: string) => T,
  ): T {
    const setter = direction === 'input' ? 'setInputDevice' : 'setOutputDevice';
    if (typeof id === 'string' && describeDevice(id, direction)) return openVirtual(id);
    if (typeof id === 'string' && this.#d.system.owns(id)) return openSystem(id);
    throw new ValidationError(
      direction === 'input'
        ? `${setter}: unknown device "${id}" (null, wav-in:<path>, room:<delay ms>:<gain dB>, default, or an id from getInputDevices)`
        : `${setter}: unknown device "${id}" (null, wav-out:<path>, default, or an id from getOutputDevices)`,
    );
  }

  #virtualDevices(id: string, direction: 'input' | 'output'): AudioDevice[] {
    const current = describeDevice(id, direction);
    return current && current.id !== NULL_AUDIO_DEVICE_ID
      ? [NULL_AUDIO_DEVICE, current]
      : [NULL_AUDIO_DEVICE];
  }

  #describe(id: string, direction: 'input' | 'output'): AudioDevice {
    return (
      describeDevice(id, direction) ??
      this.#d.system.describe(id, direction) ?? { id, name: `${id} (not present)`, isDefault: false }
    );
  }

  /**
   * AEC diagnostics: while on and a voice log dir is set, the microphone and the playout of the calls are
   * recorded to `aec-input-<time>.wav` and `aec-output-<time>.wav` there.
   */
  setAecDump(on: boolean): void {
    this.#aecDump = on;
    this.#wake();
    if (!this.#aecDump) this.#closeAec();
  }
  /** See {@link AudioPump.setAecDump}. */
  getAecDump(): boolean {
    return this.#aecDump;
  }

  // --- the pump ------------------------------------------------------------------------------------

  /** Starts the pump unless it runs (a sleeping pump wakes: the calls changed). */
  ensure(): void {
    if (this.#timer) {
      this.#wake();
      return;
    }
    this.#deadline = performance.now() + TICK_MS;
    this.#schedule();
  }

  /** A sleeping pump runs its next tick now, as something may need frames again (see {@link HOUSEKEEPING_MS}). */
  #wake(): void {
    this.#dirty = true;
    if (!this.#timer || !this.#sleeping) return;
    clearTimeout(this.#timer);
    this.#captureAt = undefined;
    this.#deadline = performance.now();
    this.#schedule();
  }

  /** Stops the pump; the output and AEC files are complete WAV files after. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#captureAt = undefined;
    this.#sleeping = false;
    this.#output.flush(); // a WAV output is a complete file whenever no call runs
    this.#aecFiles?.input.flush();
    this.#aecFiles?.output.flush();
  }

  /** Stops the pump and closes the devices and AEC files. */
  destroy(): void {
    this.stop();
    this.#input.close();
    this.#output.close();
    this.#closeAec();
    this.#processor.close();
    this.#closeWorker();
  }

  #schedule(): void {
    this.#timer = setTimeout(
      () => {
        if (this.#captureAt === undefined) {
          this.#pump();
          return;
        }
        // In step: the microphone's frame for the transport's coming tick, then the full tick after it.
        this.#captureAt = undefined;
        this.#capture(CAPTURE_BACKLOG_IN_STEP);
        this.#schedule();
      },
      Math.max(0, (this.#captureAt ?? this.#deadline) - performance.now()),
    );
  }

  #pump(): void {
    this.#timer = undefined;
    if (this.#d.calls.size === 0) {
      this.#link = undefined; // the calls (and their transports) are gone
      this.#closeWorker();
      return;
    }
    this.#d.onTick();
    // Asleep with nothing changed: the link stands (every change to what it depends on wakes the pump).
    if (this.#sleeping && !this.#dirty && this.#canSleep()) {
      this.#housekeeping();
      return;
    }
    this.#dirty = false;
    this.#updateLink();
    if (this.#canSleep()) {
      this.#housekeeping();
      return;
    }
    if (this.#sleeping) {
      // Awake again: what each call queued for this thread while asleep is stale, and its pacing restarts.
      this.#sleeping = false;
      for (const call of this.#d.calls.values()) call.resyncAudio();
    }
    // In step with the one call's transport, the microphone is read before its tick, not here.
    const step = this.#stepCall();
    if (!step) this.#capture(CAPTURE_BACKLOG);
    // Playout follows the transport's clock too: every tick of a call's transport yields one frame of its
    // audio (what it mixed, or silence when nobody spoke), and the first connected call's ticks set how many
    // frames are played. The output then holds neither gaps nor a growing queue, whatever the pump's timing.
    let lead: number | undefined;
    for (const call of this.#d.calls.values()) {
      if (!call.carriesAudio) continue;
      const ticks = call.collectPlayout();
      lead ??= ticks;
      call.tick();
    }
    // A speaker the transport's thread writes (or has not let go of yet) is not written here.
    const outputFree = !this.#busy(2);
    for (let i = 0; i < Math.min(lead ?? 0, MAX_CATCH_UP * 5); i++) this.#playOne(outputFree);
    const now = performance.now();
    const next = step?.nextTickAt();
    if (next !== undefined) {
      this.#captureAt = Math.max(now, next - CAPTURE_LEAD_MS);
      this.#deadline = next + PLAYOUT_LAG_MS;
    } else {
      this.#deadline += TICK_MS;
      if (this.#deadline < now - TICK_MS * MAX_CATCH_UP) this.#deadline = now + TICK_MS;
    }
    this.#schedule();
  }

  /**
   * The call whose transport the pump keeps step with: the only one carrying audio (see {@link AudioPump}).
   * None while the echo canceller runs on this thread: it wants each tick's microphone and speaker blocks
   * side by side, as the pump's own beat hands them (in step, one run in six of voiceProcessing.test.ts's
   * room echo lost 5 dB of cancellation).
   */
  #stepCall(): ActiveCall | undefined {
    if (this.#processor.delaysOutput) return undefined;
    let only: ActiveCall | undefined;
    for (const call of this.#d.calls.values()) {
      if (!call.carriesAudio) continue;
      if (only) return undefined;
      only = call;
    }
    return only;
  }

  /**
   * Whether the pump may sleep: the one call's transport thread serves both devices and nothing on this
   * thread needs a frame (no game audio queued, no mirrored playout). A transport that dropped the link
   * (a new transport after a reconnect) is linked again from a full tick.
   */
  #canSleep(): boolean {
    const link = this.#link;
    if (!link || !link.capture || !link.playback || link.mirror || this.#d.calls.size !== 1) return false;
    if (this.#game.queuedFrames > 0 || this.#gameMicrophone.queuedFrames > 0) return false;
    if (this.#sleeping && (link.call.devicesLinked() & 3) !== 3) {
      this.#link = undefined;
      return false;
    }
    return true;
  }

  /** A sleeping tick: the call's own housekeeping and the file microphone's read-ahead, nothing per frame. */
  #housekeeping(): void {
    this.#sleeping = true;
    this.#input.refill?.();
    for (const call of this.#d.calls.values()) call.tick();
    this.#deadline = performance.now() + HOUSEKEEPING_MS;
    this.#schedule();
  }

  /**
   * Capture, paced by the transport's own clock rather than the pump's: each call's transport takes one
   * frame per 20 ms tick, so the frames it still holds are those pushed minus its ticks since the first push.
   * The input device is read only to keep that backlog at `backlog` frames, so a late pump
   * (the event loop was busy) never leaves a standing queue of microphone audio, which would be latency for
   * the rest of the call. The input device waits while no call is connected.
   */
  #capture(backlog: number): void {
    const connected = [...this.#d.calls.values()].filter((call) => call.carriesAudio);
    if (connected.length === 0) {
      this.#game.clear();
      this.#gameMicrophone.clear();
      return;
    }
    let wanted = 0;
    for (const call of connected) wanted = Math.max(wanted, backlog - call.captureBacklog());
    const frame = this.#frame;
    // A microphone the transport's thread reads (or has not let go of yet) is not read here.
    const inputFree = !this.#busy(1);
    if (!inputFree) this.#input.refill?.();
    for (let i = 0; i < Math.min(wanted, MAX_CATCH_UP); i++) {
      const device = inputFree && this.#input.read(frame);
      if (!device) frame.fill(0);
      // Microphones (the device, a microphone the game captures) are processed together, once per frame
      // (echo, noise, level); the game's finished audio is added after, as it is.
      const microphone = this.#gameMicrophone.mixInto(frame);
      let tail = false;
      if (device || microphone) this.#processor.process(frame);
      else if (inputFree && this.#processor.delaysOutput) {
        // The echo canceller hands back each block about 10 ms late, and must see every tick to keep pace
        // with the playout: a silent tick goes through it too, and carries the end of the last sound. (Not
        // while the transport's thread has the microphone: this canceller is idle then, and its residue, in
        // the transport's send ring, would go before the microphone's own frames.)
        this.#processor.process(frame);
        tail = frame.some((sample) => sample !== 0);
      }
      const game = this.#game.mixInto(frame);
      const read = device || microphone || tail || game;
      this.#d.inputObserver?.(read ? frame : null, performance.now());
      if (!read) {
        // Silence: nothing to send, and each transport's backlog base follows its clock; a call whose
        // captured callback writes audio into the silent frame sends that.
        let produced = false;
        for (const call of connected) produced = call.captureSilence() || produced;
        if (!produced) return;
        continue;
      }
      if (this.#aecDump) this.#aec()?.input.write(frame);
      for (const call of connected) call.capture(frame);
    }
  }

  /** Plays one 20 ms frame: every connected call's next frame summed, at the output volume. */
  #playOne(outputFree: boolean): void {
    const mixed = this.#mixed;
    mixed.fill(0);
    let any = false;
    for (const call of this.#d.calls.values()) {
      const next = call.nextPlayoutFrame();
      if (!next) continue;
      any = true;
      for (let i = 0; i < VOICE_FRAME_SAMPLES; i++) mixed[i] = clamp((mixed[i] ?? 0) + (next[i] ?? 0));
    }
    if (any && this.#outputVolume !== 100) {
      const gain = this.#outputVolume / 100;
      for (let i = 0; i < VOICE_FRAME_SAMPLES; i++) mixed[i] = clamp(Math.round((mixed[i] ?? 0) * gain));
    }
    if (outputFree) this.#output.write(mixed);
    // What the speakers play is the echo canceller's reference (and what a simulated room echoes); the
    // worker's canceller gets it from the transport's thread.
    if (!this.#link || this.#link.target !== this.#worker?.link) this.#processor.render(mixed);
    this.#input.hear?.(mixed);
    if (this.#aecDump) this.#aec()?.output.write(mixed);
  }

  /**
   * Links the system devices to the one call's transport thread when nothing on this thread needs their
   * audio: then neither a busy event loop nor the pump's 20 ms beat sits between the devices and the wire.
   * The microphone stays here while voice processing runs, the game pushes audio, an input observer or the
   * AEC dump wants the frames, or a callback of startCallWithAudioCallbacks must see them; the speaker
   * stays here while echo cancellation needs the playout as its reference or the AEC dump records it.
   */
  #updateLink(): void {
    const want = this.#plan();
    const have = this.#link;
    if (
      want?.call === have?.call &&
      want?.target === have?.target &&
      want?.capture === have?.capture &&
      want?.playback === have?.playback &&
      want?.playbackGain === have?.playbackGain &&
      want?.mirror === have?.mirror
    )
      return;
    this.#link = undefined;
    try {
      if (have && have.call !== want?.call)
        have.call.linkSystemAudio(null, {
          capture: false,
          playback: false,
          playbackGain: 1,
          mirrorPlayout: true,
        });
      if (want) this.#linkTo(want, have);
    } catch (error) {
      // A full control queue (the transport is not ticking): the pump keeps the devices and tries again.
      this.#d.log.warn(`system audio not linked: ${(error as Error).message}`);
    }
    // A worker nobody links any more goes (a transport still linked to it sees an empty ring for a tick).
    if (this.#worker && !this.#wantsWorker()) this.#closeWorker();
  }

  #linkTo(want: DeviceLink, have: DeviceLink | undefined): void {
    const linked = want.call.linkSystemAudio(want.capture || want.playback ? want.target : null, {
      capture: want.capture,
      playback: want.playback,
      playbackGain: want.playbackGain,
      mirrorPlayout: want.mirror,
    });
    if (linked && (want.capture || want.playback)) {
      this.#link = want;
      this.#everLinked = true;
      if (
        have?.call === want.call &&
        have.target === want.target &&
        have.capture === want.capture &&
        have.playback === want.playback
      )
        return;
      const through = want.target === this.#worker?.link ? ', through the voice processing worker' : '';
      const which = want.target === this.#input.virtualAudio ? 'virtual' : 'system';
      this.#d.log.info(
        `${which} audio linked to the transport thread (${[want.capture ? 'microphone' : '', want.playback ? 'speaker' : ''].filter(Boolean).join(' and ')}${through})`,
      );
    }
  }

  #plan(): DeviceLink | undefined {
    const connected = [...this.#d.calls.values()].filter((call) => call.carriesAudio);
    const call = connected.length === 1 ? connected[0] : undefined;
    if (!call || !call.canLinkDevices) return undefined;
    const settings = this.voiceProcessing();
    const processing =
      settings.echoCancellation || settings.noiseSuppression || settings.automaticGainControl;
    const virtual = this.#virtualPlan(call, processing);
    if (virtual) return virtual;
    const system = this.#d.system.opened();
    if (!system) return undefined;
    // The microphone is free to link when no one on this thread needs its frames.
    const microphoneFree =
      this.#inputIsSystem &&
      !this.#aecDump &&
      this.#game.queuedFrames === 0 &&
      this.#gameMicrophone.queuedFrames === 0 &&
      !(this.#d.observesInput?.() ?? false);
    // With processing on, it goes through the worker. Its echo canceller takes the playout from the
    // transport's thread, which writes a system speaker itself below; a virtual output (null, a file) makes
    // no echo to cancel.
    const worker = microphoneFree && processing ? this.#workerOn(system) : undefined;
    const throughWorker = worker?.ready === true;
    const capture = microphoneFree && (!processing || throughWorker);
    const playback = this.#outputIsSystem && !this.#aecDump && (!settings.echoCancellation || throughWorker);
    const target = throughWorker && worker ? worker.link : system;
    return capture || playback
      ? {
          call,
          target,
          capture,
          playback,
          playbackGain: this.#outputVolume / 100,
          mirror: this.#input.hear !== undefined,
        }
      : undefined;
  }

  /**
   * The virtual devices' link: the null speaker, and the virtual microphone (nothing, or a file) when no
   * one on this thread needs its frames and no processing runs on them. Undefined where they do not apply
   * (a system device, an engine without virtual audio) or nothing is left to link.
   */
  #virtualPlan(call: ActiveCall, processing: boolean): DeviceLink | undefined {
    // A system speaker is linked by the system plan (the microphone then stays on this thread).
    if (this.#outputIsSystem) return undefined;
    if (this.#inputId === NULL_AUDIO_DEVICE_ID && this.#input === nullInput) {
      // The default microphone was opened before an engine was asked for: move it onto one now.
      this.#input = this.#openVirtualInput(NULL_AUDIO_DEVICE_ID);
    }
    const virtualAudio = this.#input.virtualAudio;
    if (!virtualAudio) return undefined;
    const capture =
      !processing &&
      !this.#aecDump &&
      this.#game.queuedFrames === 0 &&
      this.#gameMicrophone.queuedFrames === 0 &&
      !(this.#d.observesInput?.() ?? false);
    // The null speaker plays nothing anyone hears; a file speaker is written on this thread.
    const playback = this.#outputId === NULL_AUDIO_DEVICE_ID && !this.#aecDump;
    return capture || playback
      ? { call, target: virtualAudio, capture, playback, playbackGain: 1, mirror: false }
      : undefined;
  }

  /** The processing worker on `system`, started on first need; undefined where none can run. */
  #workerOn(system: SystemAudio): ProcessingWorker | undefined {
    if (this.#worker && this.#worker.system !== system) this.#closeWorker(); // the devices were reopened
    if (this.#worker?.failed) {
      this.#workerUnavailable = true;
      this.#closeWorker();
    }
    if (!this.#worker && !this.#workerUnavailable) {
      this.#worker = startProcessingWorker(
        system,
        this.#d.addonPath?.(),
        this.voiceProcessing(),
        this.#d.log,
      );
      if (!this.#worker) this.#workerUnavailable = true;
    }
    return this.#worker;
  }

  /** Whether the worker still has a use: processing is on and a call runs. */
  #wantsWorker(): boolean {
    const settings = this.voiceProcessing();
    return (
      this.#d.calls.size > 0 &&
      (settings.echoCancellation || settings.noiseSuppression || settings.automaticGainControl)
    );
  }

  #closeWorker(): void {
    this.#worker?.close();
    this.#worker = undefined;
  }

  /** Whether a call's transport thread serves (or still serves) the microphone (1) or the speaker (2). */
  #busy(side: 1 | 2): boolean {
    if (!this.#everLinked) return false; // nothing was ever linked: no transport serves a device
    const link = this.#link;
    if (link && (side === 1 ? link.capture : link.playback)) return true;
    for (const call of this.#d.calls.values()) if ((call.devicesLinked() & side) !== 0) return true;
    return false;
  }

  #aec(): { input: WavFileOutput; output: WavFileOutput } | undefined {
    const dir = this.#d.voiceLogDir();
    if (!this.#aecFiles && dir) {
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      try {
        this.#aecFiles = {
          input: new WavFileOutput(path.join(dir, `aec-input-${stamp}.wav`)),
          output: new WavFileOutput(path.join(dir, `aec-output-${stamp}.wav`)),
        };
      } catch (error) {
        this.#d.log.warn(`AEC dump: ${(error as Error).message}`);
        this.#aecDump = false;
      }
    }
    return this.#aecFiles;
  }

  #closeAec(): void {
    this.#aecFiles?.input.close();
    this.#aecFiles?.output.close();
    this.#aecFiles = undefined;
  }
}

function clamp(value: number): number {
  return value > 32767 ? 32767 : value < -32768 ? -32768 : value;
}

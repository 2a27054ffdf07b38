import type { LogWriter } from '../../logging/index.js';
import { VOICE_FRAME_SAMPLES, type VirtualAudio } from '../../media/index.js';
import type { AudioDevice } from '../devices/audioDevices.js';
import { DeviceChoice } from '../devices/DeviceChoice.js';
import { GameAudioInput } from '../devices/GameAudioInput.js';
import type { SystemDevices } from '../devices/SystemDevices.js';
import { VoiceProcessor, type VoiceProcessingSettings } from '../processing/VoiceProcessor.js';
import type { ActiveCall } from './ActiveCall.js';
import { AecDump } from './AecDump.js';
import { DeviceLinker } from './DeviceLinker.js';

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
  /** The input and output devices the game chose. */
  readonly #devices: DeviceChoice;
  readonly #aecDump: AecDump;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #deadline = 0;
  /** In step with a call's transport: when the microphone is read next, before the full tick at #deadline. */
  #captureAt: number | undefined;
  /** The pump runs at {@link HOUSEKEEPING_MS}: the transport's thread serves every device. */
  #sleeping = false;
  /** Something that may change the link happened while asleep: the next tick plans it afresh. */
  #dirty = false;
  readonly #frame = new Int16Array(VOICE_FRAME_SAMPLES);
  readonly #mixed = new Int16Array(VOICE_FRAME_SAMPLES);

  /** The game's own finished audio (voice chain, TTS): sent as it is. */
  readonly #game: GameAudioInput;
  /** A raw microphone the game captures itself: processed like the input device's audio. */
  readonly #gameMicrophone: GameAudioInput;
  /** Echo cancellation, noise suppression and gain control on the microphone's frames. */
  readonly #processor: VoiceProcessor;
  /** Which devices a call's transport thread serves, and the processing worker between them. */
  readonly #linker: DeviceLinker;
  /** The switches the game set; one it never set follows the input device ({@link AudioPump.voiceProcessing}). */
  #asked: Partial<VoiceProcessingSettings> = {};

  constructor(deps: AudioPumpDeps) {
    this.#d = deps;
    this.#devices = new DeviceChoice({
      system: deps.system,
      log: deps.log,
      ...(deps.createVirtualAudio ? { createVirtualAudio: deps.createVirtualAudio } : {}),
    });
    this.#aecDump = new AecDump(deps.voiceLogDir, deps.log);
    this.#processor = new VoiceProcessor(deps.log);
    const accepting = (): boolean => [...deps.calls.values()].some((call) => call.carriesAudio);
    this.#game = new GameAudioInput(deps.log, accepting);
    this.#gameMicrophone = new GameAudioInput(deps.log, accepting, true);
    this.#linker = new DeviceLinker({
      calls: deps.calls,
      log: deps.log,
      system: deps.system,
      devices: this.#devices,
      settings: () => this.voiceProcessing(),
      microphoneWanted: () =>
        this.#aecDump.on ||
        this.#game.queuedFrames > 0 ||
        this.#gameMicrophone.queuedFrames > 0 ||
        (deps.observesInput?.() ?? false),
      aecDumpOn: () => this.#aecDump.on,
      outputVolume: () => this.#outputVolume,
      addonPath: deps.addonPath,
    });
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
    const byDefault = this.#devices.inputIsSystem;
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
    this.#linker.worker?.set(settings);
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
    return this.#devices.inputDevices();
  }
  /** The output devices: the null device, the current WAV file, then the system's (`default` first). */
  outputDevices(): AudioDevice[] {
    return this.#devices.outputDevices();
  }
  /** The current input device. */
  currentInputDevice(): AudioDevice {
    return this.#devices.currentInputDevice();
  }
  /** The current output device. */
  currentOutputDevice(): AudioDevice {
    return this.#devices.currentOutputDevice();
  }
  /**
   * Switches the input device, during a call too (the call goes on with the new device's audio); a
   * ValidationError for an unknown id or an unreadable or unsupported file, a MediaEngineError for a system
   * device that is gone or will not open.
   */
  setInputDevice(id: string): void {
    this.#devices.setInput(id);
    this.#followDefaults();
    this.#wake();
  }
  /** Switches the output device (a WAV file is finalised); errors as {@link AudioPump.setInputDevice}. */
  setOutputDevice(id: string): void {
    this.#devices.setOutput(id);
    this.#wake();
  }
  /** The watcher moved a lost system device's stream to the default: the current device says so now. */
  deviceLost(direction: 'input' | 'output'): void {
    this.#devices.deviceLost(direction);
    this.#wake();
  }

  /**
   * AEC diagnostics: while on and a voice log dir is set, the microphone and the playout of the calls are
   * recorded to `aec-input-<time>.wav` and `aec-output-<time>.wav` there.
   */
  setAecDump(on: boolean): void {
    this.#aecDump.set(on);
    this.#wake();
  }
  /** See {@link AudioPump.setAecDump}. */
  getAecDump(): boolean {
    return this.#aecDump.on;
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
    this.#devices.output.flush(); // a WAV output is a complete file whenever no call runs
    this.#aecDump.flush();
  }

  /** Stops the pump and closes the devices and AEC files. */
  destroy(): void {
    this.stop();
    this.#devices.close();
    this.#aecDump.close();
    this.#processor.close();
    this.#linker.closeWorker();
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
      this.#linker.forget(); // the calls (and their transports) are gone
      this.#linker.closeWorker();
      return;
    }
    this.#d.onTick();
    // Asleep with nothing changed: the link stands (every change to what it depends on wakes the pump).
    if (this.#sleeping && !this.#dirty && this.#canSleep()) {
      this.#housekeeping();
      return;
    }
    this.#dirty = false;
    this.#linker.update();
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
    const outputFree = !this.#linker.busy(2);
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
    const link = this.#linker.link;
    if (!link || !link.capture || !link.playback || link.mirror || this.#d.calls.size !== 1) return false;
    if (this.#game.queuedFrames > 0 || this.#gameMicrophone.queuedFrames > 0) return false;
    if (this.#sleeping && (link.call.devicesLinked() & 3) !== 3) {
      this.#linker.forget();
      return false;
    }
    return true;
  }

  /** A sleeping tick: the call's own housekeeping and the file microphone's read-ahead, nothing per frame. */
  #housekeeping(): void {
    this.#sleeping = true;
    this.#devices.input.refill?.();
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
    const inputFree = !this.#linker.busy(1);
    if (!inputFree) this.#devices.input.refill?.();
    for (let i = 0; i < Math.min(wanted, MAX_CATCH_UP); i++) {
      const device = inputFree && this.#devices.input.read(frame);
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
      this.#aecDump.writeInput(frame);
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
    if (outputFree) this.#devices.output.write(mixed);
    // What the speakers play is the echo canceller's reference (and what a simulated room echoes); the
    // worker's canceller gets it from the transport's thread.
    const link = this.#linker.link;
    if (!link || link.target !== this.#linker.worker?.link) this.#processor.render(mixed);
    this.#devices.input.hear?.(mixed);
    this.#aecDump.writeOutput(mixed);
  }
}

function clamp(value: number): number {
  return value > 32767 ? 32767 : value < -32768 ? -32768 : value;
}

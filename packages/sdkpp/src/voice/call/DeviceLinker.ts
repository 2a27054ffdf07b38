import type { LogWriter } from '../../logging/index.js';
import type { SystemAudio, VirtualAudio, VoiceProcessingLink } from '../../media/index.js';
import { NULL_AUDIO_DEVICE_ID } from '../devices/audioDevices.js';
import type { DeviceChoice } from '../devices/DeviceChoice.js';
import type { SystemDevices } from '../devices/SystemDevices.js';
import { startProcessingWorker, type ProcessingWorker } from '../processing/ProcessingWorker.js';
import type { VoiceProcessingSettings } from '../processing/VoiceProcessor.js';
import type { ActiveCall } from './ActiveCall.js';

/** What is linked to a call's transport thread ({@link VoiceTransport.linkSystemAudio}). */
export interface DeviceLink {
  readonly call: ActiveCall;
  /** The devices themselves, the processing worker's link between them and the transport, or the virtual devices. */
  readonly target: SystemAudio | VoiceProcessingLink | VirtualAudio;
  readonly capture: boolean;
  readonly playback: boolean;
  readonly playbackGain: number;
  /** Whether this thread still reads the mix the linked speaker plays (a simulated room hears it). */
  readonly mirror: boolean;
}

/** What a {@link DeviceLinker} needs from the audio pump. */
export interface DeviceLinkerDeps {
  /** The running calls, read live. */
  readonly calls: ReadonlyMap<string, ActiveCall>;
  readonly log: LogWriter;
  /** The system's microphones and speakers. */
  readonly system: SystemDevices;
  /** The devices the game chose. */
  readonly devices: DeviceChoice;
  /** The voice processing settings in effect. */
  readonly settings: () => VoiceProcessingSettings;
  /**
   * Whether something on the JavaScript thread needs the microphone's frames: game audio queued to mix in,
   * an input observer, the AEC dump.
   */
  readonly microphoneWanted: () => boolean;
  /** Whether the AEC dump records (then the speaker's playout is needed here too). */
  readonly aecDumpOn: () => boolean;
  /** Playback volume, 0–200. */
  readonly outputVolume: () => number;
  /** The native addon's file, for the voice processing worker (undefined: the JS engine runs). */
  readonly addonPath?: (() => string | undefined) | undefined;
}

/**
 * Which devices a call's transport thread serves itself: it plans the link from the calls, the devices and
 * what the JavaScript thread still needs, asks the transport for it, and runs the voice processing worker
 * that sits between linked system devices and the transport when processing is on.
 */
export class DeviceLinker {
  readonly #d: DeviceLinkerDeps;
  /** The link asked of a call's transport; the pump keeps off a linked side until the thread lets go. */
  #link: DeviceLink | undefined;
  /** Whether any call's transport was ever asked to serve a device (before that, none can be busy). */
  #everLinked = false;
  /** The processing on a worker thread, between linked system devices and the transport. */
  #worker: ProcessingWorker | undefined;
  /** A worker could not start or failed: the processing stays on the JavaScript thread. */
  #workerUnavailable = false;

  constructor(deps: DeviceLinkerDeps) {
    this.#d = deps;
  }

  /** The link in force, if any. */
  get link(): DeviceLink | undefined {
    return this.#link;
  }

  /** The processing worker, while one runs. */
  get worker(): ProcessingWorker | undefined {
    return this.#worker;
  }

  /** Forgets the link (the calls, or the transport that had it, are gone): the next update plans afresh. */
  forget(): void {
    this.#link = undefined;
  }

  /**
   * Links the system devices to the one call's transport thread when nothing on this thread needs their
   * audio: then neither a busy event loop nor the pump's 20 ms beat sits between the devices and the wire.
   * The microphone stays here while voice processing runs, the game pushes audio, an input observer or the
   * AEC dump wants the frames, or a callback of startCallWithAudioCallbacks must see them; the speaker
   * stays here while echo cancellation needs the playout as its reference or the AEC dump records it.
   */
  update(): void {
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
    if (this.#worker && !this.#wantsWorker()) this.closeWorker();
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
      const which = want.target === this.#d.devices.input.virtualAudio ? 'virtual' : 'system';
      this.#d.log.info(
        `${which} audio linked to the transport thread (${[want.capture ? 'microphone' : '', want.playback ? 'speaker' : ''].filter(Boolean).join(' and ')}${through})`,
      );
    }
  }

  #plan(): DeviceLink | undefined {
    const connected = [...this.#d.calls.values()].filter((call) => call.carriesAudio);
    const call = connected.length === 1 ? connected[0] : undefined;
    if (!call || !call.canLinkDevices) return undefined;
    const settings = this.#d.settings();
    const processing =
      settings.echoCancellation || settings.noiseSuppression || settings.automaticGainControl;
    const virtual = this.#virtualPlan(call, processing);
    if (virtual) return virtual;
    const system = this.#d.system.opened();
    if (!system) return undefined;
    // The microphone is free to link when no one on this thread needs its frames.
    const microphoneFree = this.#d.devices.inputIsSystem && !this.#d.microphoneWanted();
    // With processing on, it goes through the worker. Its echo canceller takes the playout from the
    // transport's thread, which writes a system speaker itself below; a virtual output (null, a file) makes
    // no echo to cancel.
    const worker = microphoneFree && processing ? this.#workerOn(system) : undefined;
    const throughWorker = worker?.ready === true;
    const capture = microphoneFree && (!processing || throughWorker);
    const playback =
      this.#d.devices.outputIsSystem && !this.#d.aecDumpOn() && (!settings.echoCancellation || throughWorker);
    const target = throughWorker && worker ? worker.link : system;
    return capture || playback
      ? {
          call,
          target,
          capture,
          playback,
          playbackGain: this.#d.outputVolume() / 100,
          mirror: this.#d.devices.input.hear !== undefined,
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
    if (this.#d.devices.outputIsSystem) return undefined;
    // The default microphone may have been opened before an engine was asked for: it moves onto one now.
    this.#d.devices.moveNullInputToEngine();
    const virtualAudio = this.#d.devices.input.virtualAudio;
    if (!virtualAudio) return undefined;
    const capture = !processing && !this.#d.microphoneWanted();
    // The null speaker plays nothing anyone hears; a file speaker is written on this thread.
    const playback = this.#d.devices.outputId === NULL_AUDIO_DEVICE_ID && !this.#d.aecDumpOn();
    return capture || playback
      ? { call, target: virtualAudio, capture, playback, playbackGain: 1, mirror: false }
      : undefined;
  }

  /** The processing worker on `system`, started on first need; undefined where none can run. */
  #workerOn(system: SystemAudio): ProcessingWorker | undefined {
    if (this.#worker && this.#worker.system !== system) this.closeWorker(); // the devices were reopened
    if (this.#worker?.failed) {
      this.#workerUnavailable = true;
      this.closeWorker();
    }
    if (!this.#worker && !this.#workerUnavailable) {
      this.#worker = startProcessingWorker(system, this.#d.addonPath?.(), this.#d.settings(), this.#d.log);
      if (!this.#worker) this.#workerUnavailable = true;
    }
    return this.#worker;
  }

  /** Whether the worker still has a use: processing is on and a call runs. */
  #wantsWorker(): boolean {
    const settings = this.#d.settings();
    return (
      this.#d.calls.size > 0 &&
      (settings.echoCancellation || settings.noiseSuppression || settings.automaticGainControl)
    );
  }

  /** Closes the processing worker (a transport still linked to it sees an empty ring for a tick). */
  closeWorker(): void {
    this.#worker?.close();
    this.#worker = undefined;
  }

  /** Whether a call's transport thread serves (or still serves) the microphone (1) or the speaker (2). */
  busy(side: 1 | 2): boolean {
    if (!this.#everLinked) return false; // nothing was ever linked: no transport serves a device
    const link = this.#link;
    if (link && (side === 1 ? link.capture : link.playback)) return true;
    for (const call of this.#d.calls.values()) if ((call.devicesLinked() & side) !== 0) return true;
    return false;
  }
}

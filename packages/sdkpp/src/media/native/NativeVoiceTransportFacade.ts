import type { SystemAudio, VirtualAudio, VoiceProcessingLink } from '../devices/types.js';
import { coded } from './coded.js';
import { nativeLinkableOf } from './linkables.js';
import type { NativeVoiceTransport } from '../addon/transportTypes.js';
import type { NativeAddon } from '../addon/types.js';
import { MediaEngineError } from '../MediaEngineError.js';
import type {
  VoiceTransport,
  VoiceTransportOptions,
  VoiceTransportState,
  VoiceTransportStats,
} from '../transport/types.js';

/** The counters in the order the addon writes them (`statsInto`); checked against the addon's own list once. */
const STATS_FIELDS = [
  'ticks',
  'packetsSent',
  'voiceFramesSent',
  'silenceFramesSent',
  'packetsReceived',
  'framesMixed',
  'droppedInputOverrun',
  'droppedInputPartial',
  'droppedOutputOverrun',
  'droppedForeignSource',
  'droppedNotRtp',
  'droppedNoKey',
  'droppedOpenFailed',
  'droppedDaveFailed',
  'droppedJitterRefused',
  'droppedTooManySsrcs',
  'droppedDecodeFailed',
  'droppedEncodeFailed',
  'droppedSendFailed',
  'lateTicks',
  'maxLatenessUs',
  'tickLatenessP50Us',
  'tickLatenessP99Us',
  'allocationsInTicks',
  'discoveryAttempts',
  'priority',
  'lastSpurtStartUs',
  'nextTickInUs',
  'devicesLinked',
] as const satisfies readonly (keyof VoiceTransportStats)[];

/** True, and it fails to type-check while a counter of {@link VoiceTransportStats} is not in STATS_FIELDS. */
const EVERY_FIELD: [Exclude<keyof VoiceTransportStats, (typeof STATS_FIELDS)[number]>] extends [never]
  ? true
  : never = true;

/** The addons whose field order was checked. */
const checked = new WeakSet<NativeAddon>();
/** Where every transport's counters are read to (one thread reads at a time; the object is built at once). */
const counters = new Float64Array(STATS_FIELDS.length);

/**
 * The native engine's {@link VoiceTransport}: the addon's transport thread (native/core/transport) behind
 * the shared interface. Every call is a copy into or out of a lock-free queue; nothing here waits for
 * the thread, and the thread never waits for the event loop. The addon's coded errors become
 * {@link MediaEngineError}s, as the JS transport throws them.
 */
export class NativeVoiceTransportFacade implements VoiceTransport {
  readonly #native: NativeVoiceTransport;

  /** Prefer {@link MediaEngine.createVoiceTransport}. */
  constructor(addon: NativeAddon, options: VoiceTransportOptions) {
    if (!checked.has(addon)) {
      const fields = addon.VoiceTransport.statsFields();
      if (!EVERY_FIELD || fields.join() !== STATS_FIELDS.join())
        throw new MediaEngineError(
          'ERR_NATIVE_ADDON_UNAVAILABLE',
          `the native addon's transport counters (${fields.join(', ')}) are not the ones this package reads: rebuild or reinstall the addon`,
        );
      checked.add(addon);
    }
    this.#native = coded(() => new addon.VoiceTransport(options));
  }

  /** {@inheritDoc VoiceTransport.start} */
  start(): Promise<number> {
    try {
      return Promise.resolve(this.#native.start());
    } catch (error) {
      const converted = MediaEngineError.from(error);
      return Promise.reject(converted instanceof Error ? converted : new Error(String(converted)));
    }
  }

  /** {@inheritDoc VoiceTransport.stop} */
  stop(): Promise<void> {
    this.#native.stop(); // joins the thread: at most one tick
    return Promise.resolve();
  }

  /** {@inheritDoc VoiceTransport.state} */
  state(): VoiceTransportState {
    return this.#native.state();
  }

  /** {@inheritDoc VoiceTransport.discovered} */
  discovered(): { address: string; port: number } | null {
    return this.#native.discovered();
  }

  /** {@inheritDoc VoiceTransport.setTransportKey} */
  setTransportKey(mode: string, key: Uint8Array): void {
    coded(() => {
      this.#native.setTransportKey(mode, key);
    });
  }

  /** {@inheritDoc VoiceTransport.setDaveSendKey} */
  setDaveSendKey(baseSecret: Uint8Array): void {
    coded(() => {
      this.#native.setDaveSendKey(baseSecret);
    });
  }

  /** {@inheritDoc VoiceTransport.setDaveReceiveKey} */
  setDaveReceiveKey(ssrc: number, baseSecret: Uint8Array): void {
    coded(() => {
      this.#native.setDaveReceiveKey(ssrc, baseSecret);
    });
  }

  /** {@inheritDoc VoiceTransport.setDavePassthrough} */
  setDavePassthrough(enabled: boolean): void {
    this.#native.setDavePassthrough(enabled);
  }

  /** {@inheritDoc VoiceTransport.setSelfMute} */
  setSelfMute(muted: boolean): void {
    this.#native.setSelfMute(muted);
  }

  /** {@inheritDoc VoiceTransport.setSelfDeaf} */
  setSelfDeaf(deafened: boolean): void {
    this.#native.setSelfDeaf(deafened);
  }

  /** {@inheritDoc VoiceTransport.setPushToTalkMode} */
  setPushToTalkMode(pushToTalk: boolean): void {
    this.#native.setPushToTalkMode(pushToTalk);
  }

  /** {@inheritDoc VoiceTransport.setPushToTalk} */
  setPushToTalk(pressed: boolean): void {
    this.#native.setPushToTalk(pressed);
  }

  /** {@inheritDoc VoiceTransport.setPushToTalkReleaseDelayMs} */
  setPushToTalkReleaseDelayMs(delayMs: number): void {
    coded(() => {
      this.#native.setPushToTalkReleaseDelayMs(delayMs);
    });
  }

  /** {@inheritDoc VoiceTransport.setVadThresholdDb} */
  setVadThresholdDb(thresholdDb: number): void {
    coded(() => {
      this.#native.setVadThresholdDb(thresholdDb);
    });
  }

  /** {@inheritDoc VoiceTransport.setCaptureGain} */
  setCaptureGain(gain: number): void {
    coded(() => {
      this.#native.setCaptureGain(gain);
    });
  }

  /** {@inheritDoc VoiceTransport.setUserGain} */
  setUserGain(ssrc: number, gain: number): void {
    coded(() => {
      this.#native.setUserGain(ssrc, gain);
    });
  }

  /** {@inheritDoc VoiceTransport.removeSpeaker} */
  removeSpeaker(ssrc: number): void {
    coded(() => {
      this.#native.removeSpeaker(ssrc);
    });
  }

  /** {@inheritDoc VoiceTransport.pushPcm} */
  pushPcm(pcm: Int16Array): number {
    return coded(() => this.#native.pushPcm(pcm));
  }

  /** {@inheritDoc VoiceTransport.pullPcm} */
  pullPcm(out: Int16Array): number {
    return coded(() => this.#native.pullPcm(out));
  }

  /** {@inheritDoc VoiceTransport.pcmAvailable} */
  pcmAvailable(): number {
    return this.#native.pcmAvailable();
  }

  /** {@inheritDoc VoiceTransport.setSpeakerOutput} */
  setSpeakerOutput(enabled: boolean): void {
    this.#native.setSpeakerOutput(enabled);
  }

  /** {@inheritDoc VoiceTransport.pullSpeakerPcm} */
  pullSpeakerPcm(out: Int16Array, ssrcs: Uint32Array, ticks: Uint32Array): number {
    return coded(() => this.#native.pullSpeakerPcm(out, ssrcs, ticks));
  }

  /** {@inheritDoc VoiceTransport.stats} */
  stats(): VoiceTransportStats {
    // One crossing that fills numbers, and the object built here: several times cheaper than an object
    // built property by property through Node-API, and the audio pump reads these every tick.
    this.#native.statsInto(counters);
    const stats: Record<string, number> = {};
    for (let i = 0; i < STATS_FIELDS.length; i++) stats[STATS_FIELDS[i] as string] = counters[i] ?? 0;
    return stats as unknown as VoiceTransportStats;
  }

  /** {@inheritDoc VoiceTransport.linkSystemAudio} */
  linkSystemAudio(
    system: SystemAudio | VoiceProcessingLink | VirtualAudio | null,
    link: { capture: boolean; playback: boolean; playbackGain: number; mirrorPlayout?: boolean },
  ): boolean {
    const native = system ? nativeLinkableOf(system) : null;
    if (system && !native) return false; // not this addon's
    coded(() => {
      this.#native.linkSystemAudio(
        native ?? null,
        link.capture,
        link.playback,
        link.playbackGain,
        link.mirrorPlayout ?? true,
      );
    });
    return true;
  }
}

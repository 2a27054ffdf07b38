import type { NativeSystemAudio, NativeVirtualAudio, NativeVoiceProcessingLink } from './systemAudioTypes.js';
/**
 * The JS shape of the addon's `VoiceTransport` (native/napi/voice_transport_wrap.h): the native transport
 * thread of issue 5. Kept beside {@link NativeAddon} in its own file so the transport's shape has one home;
 * its states and counters are the engine's {@link VoiceTransport}'s, one to one.
 */

import type { VoiceTransport, VoiceTransportOptions } from '../transport/types.js';

/** Options of `new VoiceTransport(options)`: the engine's options, and a fixed local port for tests. */
export interface NativeVoiceTransportOptions extends VoiceTransportOptions {
  /** The local port to bind; 0 (any) when absent. */
  readonly bindPort?: number;
}

/**
 * The native transport thread: the engine's {@link VoiceTransport} except that starting and stopping are
 * synchronous (the thread starts and is joined inside the call); the facade makes them Promises.
 */
export interface NativeVoiceTransport extends Omit<VoiceTransport, 'start' | 'stop' | 'linkSystemAudio'> {
  /** Binds the socket and starts the thread; returns the local port. */
  start(): number;
  /** Stops and joins the thread. */
  stop(): void;
  /** See native/core/transport/voice_transport.h `LinkDevices`. */
  linkSystemAudio(
    system: NativeSystemAudio | NativeVoiceProcessingLink | NativeVirtualAudio | null,
    capture: boolean,
    playback: boolean,
    playbackGain: number,
    mirrorPlayout?: boolean,
  ): void;
  /**
   * Writes the counters into `out` in the order of `VoiceTransport.statsFields()` and returns how many: a
   * read that builds no object in the addon (see NativeVoiceTransportFacade.stats).
   */
  statsInto(out: Float64Array): number;
}

/** The addon's transport class: its constructor, and the names of its counters in `statsInto` order. */
export interface NativeVoiceTransportClass {
  new (options: NativeVoiceTransportOptions): NativeVoiceTransport;
  statsFields(): string[];
}

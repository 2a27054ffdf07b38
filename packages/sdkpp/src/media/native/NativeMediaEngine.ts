import type { SystemAudio, VirtualAudio, VoiceProcessingLink } from '../devices/types.js';
import { NativeProcessingLinkFacade } from './NativeProcessingLinkFacade.js';
import { NativeSystemAudioFacade, SYSTEM_AUDIO_REMEDY } from './NativeSystemAudioFacade.js';
import { NativeVirtualAudioFacade } from './NativeVirtualAudioFacade.js';
import { RTP_INFO, type NativeAddon } from '../addon/types.js';
import type { AeadAlgorithm } from '../aead.js';
import { baseSecretArg, generationArg } from '../dave/args.js';
import type { DaveDecryptor, DaveDecryptorOptions, DaveEncryptor } from '../dave/types.js';
import { EngineBase } from '../EngineBase.js';
import type { CryptoSelfTestResult, MediaEngine, NativeAddonSource } from '../MediaEngine.js';
import { MediaEngineError } from '../MediaEngineError.js';
import { bytesArg, checkIpDiscoveryPacket, checkRtpHeader } from '../rtp/args.js';
import type {
  IpDiscoveryDecodeResult,
  IpDiscoveryPacket,
  RtpHeaderInit,
  RtpParseResult,
  TransportCryptor,
  TransportEncryptionMode,
} from '../rtp/types.js';
import { wasmCodecInfo } from '../js/audio/jsAudioCores.js';
import { nativeAudioCores } from './nativeAudioCores.js';
import { layoutFromInfo, resultCode, throwResult, toNativeHeader } from './nativeRtp.js';
import { NativeDaveDecryptor, NativeDaveEncryptor } from './NativeDave.js';
import { NativeTransportCryptor } from './NativeTransportCryptor.js';
import { NativeVoiceTransportFacade } from './NativeVoiceTransportFacade.js';
import { JsVoiceTransport } from '../js/JsVoiceTransport.js';
import type { VoiceTransport, VoiceTransportOptions } from '../transport/types.js';

/**
 * The media engine backed by the C++ addon. It holds no logic of its own: it reshapes the addon's info
 * and turns the addon's coded errors into {@link MediaEngineError}s, so both engines throw alike.
 */
export class NativeMediaEngine extends EngineBase implements MediaEngine {
  readonly #addon: NativeAddon;

  /**
   * @param addon - A loaded addon, from `loadNativeAddon()` (or a test double).
   * @param source - Where it was loaded from, reported in {@link MediaEngineInfo.addon}.
   */
  constructor(addon: NativeAddon, source?: NativeAddonSource) {
    const native = addon.engineInfo();
    super(
      {
        engine: 'native',
        version: native.version,
        crypto: {
          backend: native.crypto.backend,
          version: native.crypto.version,
          linkage: native.crypto.linkage ?? 'host',
        },
        // Built without libopus, the addon borrows the JS engine's wasm codec, and says so here.
        codec: native.opus === null ? wasmCodecInfo() : { name: 'libopus', version: native.opus.version },
        features: native.features,
        systemAudio: native.systemAudio,
        ...(source === undefined ? {} : { addon: source }),
      },
      nativeAudioCores(addon, native.opus !== null),
    );
    this.#addon = addon;
  }

  /** {@inheritDoc MediaEngine.cryptoSelfTest} */
  cryptoSelfTest(): CryptoSelfTestResult {
    return this.#addon.cryptoSelfTest();
  }

  /** {@inheritDoc MediaEngine.aeadSeal} */
  aeadSeal(
    algorithm: AeadAlgorithm,
    key: Uint8Array,
    nonce: Uint8Array,
    aad: Uint8Array,
    plaintext: Uint8Array,
  ): Buffer {
    try {
      return this.#addon.aeadSeal(algorithm, key, nonce, aad, plaintext);
    } catch (error) {
      throw MediaEngineError.from(error);
    }
  }

  /** {@inheritDoc MediaEngine.aeadOpen} */
  aeadOpen(
    algorithm: AeadAlgorithm,
    key: Uint8Array,
    nonce: Uint8Array,
    aad: Uint8Array,
    ciphertextWithTag: Uint8Array,
  ): Buffer {
    try {
      return this.#addon.aeadOpen(algorithm, key, nonce, aad, ciphertextWithTag);
    } catch (error) {
      throw MediaEngineError.from(error);
    }
  }

  /** {@inheritDoc MediaEngine.createTransportCryptor} */
  createTransportCryptor(mode: TransportEncryptionMode, key: Uint8Array): TransportCryptor {
    return new NativeTransportCryptor(this.#addon, mode, key);
  }

  /** {@inheritDoc MediaEngine.parseRtpPacket} */
  parseRtpPacket(packet: Uint8Array): RtpParseResult {
    const info = new Uint32Array(RTP_INFO.size);
    const result = this.#addon.rtpParsePacket(bytesArg(packet, 'packet'), info);
    return result === 0 ? { ok: true, ...layoutFromInfo(info) } : { ok: false, code: resultCode(result) };
  }

  /** {@inheritDoc MediaEngine.writeRtpHeader} */
  writeRtpHeader(header: RtpHeaderInit, out: Uint8Array): number {
    const checked = checkRtpHeader(header);
    const target = bytesArg(out, 'out');
    const total = this.#addon.rtpWriteHeader(
      toNativeHeader(checked),
      checked.extensionBody.length / 4,
      target,
    );
    if (total < 0) throwResult(total, 'Writing the RTP header');
    if (target.length - total < checked.extensionBody.length) {
      throw new MediaEngineError(
        'ERR_RTP_OUTPUT_TOO_SMALL',
        `The header needs ${total + checked.extensionBody.length} bytes, "out" has ${target.length}`,
      );
    }
    target.set(checked.extensionBody, total);
    return total + checked.extensionBody.length;
  }

  /** {@inheritDoc MediaEngine.encodeIpDiscovery} */
  encodeIpDiscovery(packet: IpDiscoveryPacket, out: Uint8Array): number {
    const checked = checkIpDiscoveryPacket(packet);
    const written = this.#addon.ipDiscoveryWrite(
      checked.type === 'request' ? 1 : 2,
      checked.ssrc,
      checked.address,
      checked.port,
      bytesArg(out, 'out'),
    );
    if (written < 0) throwResult(written, 'Encoding the IP discovery packet');
    return written;
  }

  /** {@inheritDoc MediaEngine.decodeIpDiscovery} */
  decodeIpDiscovery(bytes: Uint8Array): IpDiscoveryDecodeResult {
    const result = this.#addon.ipDiscoveryParse(bytesArg(bytes, 'packet'));
    if (typeof result === 'number') return { ok: false, code: resultCode(result) };
    return {
      ok: true,
      packet: {
        type: result.type === 1 ? 'request' : 'response',
        ssrc: result.ssrc,
        address: result.address,
        port: result.port,
      },
    };
  }

  /** {@inheritDoc MediaEngine.createDaveEncryptor} */
  createDaveEncryptor(): DaveEncryptor {
    return new NativeDaveEncryptor(this.#addon);
  }

  /** {@inheritDoc MediaEngine.createDaveDecryptor} */
  createDaveDecryptor(options?: DaveDecryptorOptions): DaveDecryptor {
    return new NativeDaveDecryptor(this.#addon, options);
  }

  /** {@inheritDoc MediaEngine.daveFrameKey} */
  daveFrameKey(baseSecret: Uint8Array, generation: number): Buffer {
    return this.#addon.daveFrameKey(baseSecretArg(baseSecret), generationArg(generation));
  }

  /** {@inheritDoc MediaEngine.openSystemAudio} */
  openSystemAudio(): SystemAudio {
    return new NativeSystemAudioFacade(this.#addon);
  }

  /** {@inheritDoc MediaEngine.openProcessingLink} */
  openProcessingLink(id: number): VoiceProcessingLink {
    const Link = this.#addon.VoiceProcessingLink;
    if (!Link) {
      throw new MediaEngineError(
        'ERR_SYSTEM_AUDIO_UNAVAILABLE',
        `This build of the native addon has no voice processing links. ${SYSTEM_AUDIO_REMEDY}`,
      );
    }
    try {
      return new NativeProcessingLinkFacade(new Link(id));
    } catch (error) {
      throw MediaEngineError.from(error);
    }
  }

  /** {@inheritDoc MediaEngine.createVirtualAudio} */
  createVirtualAudio(): VirtualAudio | undefined {
    const Virtual = this.#addon.VirtualAudio;
    return Virtual ? new NativeVirtualAudioFacade(new Virtual()) : undefined;
  }

  /**
   * A voice transport on the addon's own thread ({@link MediaEngine.createVoiceTransport}).
   *
   * Built without libopus (or without its OS's UDP layer) the addon's thread cannot run; the timer-driven
   * transport runs instead, over this engine's objects.
   */
  createVoiceTransport(options: VoiceTransportOptions): VoiceTransport {
    if (!this.#addon.engineInfo().voiceTransport) {
      return new JsVoiceTransport(this, options);
    }
    return new NativeVoiceTransportFacade(this.#addon, options);
  }
}

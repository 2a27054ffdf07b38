import { MediaEngineError } from '../MediaEngineError.js';
import type { SystemAudio, VirtualAudio, VoiceProcessingLink } from '../devices/types.js';
import { SYSTEM_AUDIO_REMEDY } from '../native/NativeSystemAudioFacade.js';
import type { AeadAlgorithm } from '../aead.js';
import { baseSecretArg, generationArg } from '../dave/args.js';
import type { DaveDecryptor, DaveDecryptorOptions, DaveEncryptor } from '../dave/types.js';
import { EngineBase } from '../EngineBase.js';
import type { CryptoSelfTestResult, MediaEngine } from '../MediaEngine.js';
import type {
  IpDiscoveryDecodeResult,
  IpDiscoveryPacket,
  RtpHeaderInit,
  RtpParseResult,
  TransportCryptor,
  TransportEncryptionMode,
} from '../rtp/types.js';
import { HashRatchet } from '../dave/js/hashRatchet.js';
import { JsDaveDecryptor } from '../dave/js/JsDaveDecryptor.js';
import { JsDaveEncryptor } from '../dave/js/JsDaveEncryptor.js';
import { nodeCryptoAeadAlgorithms, nodeCryptoOpen, nodeCryptoSeal } from './nodeCryptoAead.js';
import { jsAudioCores, wasmCodecInfo } from './audio/jsAudioCores.js';
import { decodeIpDiscovery, encodeIpDiscovery } from './rtp/ipDiscovery.js';
import { jsParseRtpPacket, jsWriteRtpHeader } from './rtp/jsRtp.js';
import { JsTransportCryptor } from './rtp/JsTransportCryptor.js';
import { runJsCryptoSelfTest } from './selfTest.js';
import { JsVoiceTransport } from './JsVoiceTransport.js';
import type { VoiceTransport, VoiceTransportOptions } from '../transport/types.js';

/**
 * The JS engine's version: the package's, since it ships inside it. A test keeps the two equal, as it
 * does the addon's `kAddonVersion`.
 */
export const JS_ENGINE_VERSION = '0.1.0';

/** Options of {@link JsMediaEngine}. */
export interface JsMediaEngineOptions {
  /** Why the native engine was not used, reported as {@link MediaEngineInfo.fallbackReason}. */
  readonly fallbackReason?: string;
}

/**
 * The pure-JS media engine: AEAD and the voice transport through node:crypto (XChaCha20's HChaCha20 in
 * TS), RTP and IP discovery codecs in TS (the Opus wasm codec arrives later). It needs no
 * build step and runs wherever Node or Electron does, at some cost on the voice hot path.
 */
export class JsMediaEngine extends EngineBase implements MediaEngine {
  /** @param options - See {@link JsMediaEngineOptions}. */
  constructor(options: JsMediaEngineOptions = {}) {
    super(
      {
        engine: 'js',
        version: JS_ENGINE_VERSION,
        crypto: { backend: 'node:crypto', version: `OpenSSL ${process.versions.openssl}`, linkage: 'host' },
        codec: wasmCodecInfo(),
        features: nodeCryptoAeadAlgorithms(),
        systemAudio: {
          available: false,
          reason: 'the JS media engine has no system audio devices (they live in the native addon)',
        },
        ...(options.fallbackReason === undefined ? {} : { fallbackReason: options.fallbackReason }),
      },
      jsAudioCores,
    );
  }

  /** {@inheritDoc MediaEngine.cryptoSelfTest} */
  cryptoSelfTest(): CryptoSelfTestResult {
    return runJsCryptoSelfTest(nodeCryptoAeadAlgorithms());
  }

  /** {@inheritDoc MediaEngine.aeadSeal} */
  aeadSeal(
    algorithm: AeadAlgorithm,
    key: Uint8Array,
    nonce: Uint8Array,
    aad: Uint8Array,
    plaintext: Uint8Array,
  ): Buffer {
    return nodeCryptoSeal(algorithm, key, nonce, aad, plaintext);
  }

  /** {@inheritDoc MediaEngine.aeadOpen} */
  aeadOpen(
    algorithm: AeadAlgorithm,
    key: Uint8Array,
    nonce: Uint8Array,
    aad: Uint8Array,
    ciphertextWithTag: Uint8Array,
  ): Buffer {
    return nodeCryptoOpen(algorithm, key, nonce, aad, ciphertextWithTag);
  }

  /** {@inheritDoc MediaEngine.createTransportCryptor} */
  createTransportCryptor(mode: TransportEncryptionMode, key: Uint8Array): TransportCryptor {
    return new JsTransportCryptor(mode, key);
  }

  /** {@inheritDoc MediaEngine.parseRtpPacket} */
  parseRtpPacket(packet: Uint8Array): RtpParseResult {
    return jsParseRtpPacket(packet);
  }

  /** {@inheritDoc MediaEngine.writeRtpHeader} */
  writeRtpHeader(header: RtpHeaderInit, out: Uint8Array): number {
    return jsWriteRtpHeader(header, out);
  }

  /** {@inheritDoc MediaEngine.encodeIpDiscovery} */
  encodeIpDiscovery(packet: IpDiscoveryPacket, out: Uint8Array): number {
    return encodeIpDiscovery(packet, out);
  }

  /** {@inheritDoc MediaEngine.decodeIpDiscovery} */
  decodeIpDiscovery(bytes: Uint8Array): IpDiscoveryDecodeResult {
    return decodeIpDiscovery(bytes);
  }

  /** {@inheritDoc MediaEngine.createDaveEncryptor} */
  createDaveEncryptor(): DaveEncryptor {
    return new JsDaveEncryptor();
  }

  /** {@inheritDoc MediaEngine.createDaveDecryptor} */
  createDaveDecryptor(options?: DaveDecryptorOptions): DaveDecryptor {
    return new JsDaveDecryptor(options);
  }

  /** {@inheritDoc MediaEngine.daveFrameKey} */
  daveFrameKey(baseSecret: Uint8Array, generation: number): Buffer {
    return new HashRatchet(baseSecretArg(baseSecret)).advanceTo(generationArg(generation));
  }

  /** {@inheritDoc MediaEngine.openSystemAudio} */
  openSystemAudio(): SystemAudio {
    throw new MediaEngineError(
      'ERR_SYSTEM_AUDIO_UNAVAILABLE',
      `The JS media engine has no system audio devices (they live in the native addon${
        this.info.fallbackReason ? `, which is not in use: ${this.info.fallbackReason}` : ''
      }). ${SYSTEM_AUDIO_REMEDY}`,
    );
  }

  /** {@inheritDoc MediaEngine.openProcessingLink} */
  openProcessingLink(): VoiceProcessingLink {
    return this.openSystemAudio().createProcessingLink(); // throws: the JS engine has no system audio
  }

  /** {@inheritDoc MediaEngine.createVirtualAudio} */
  createVirtualAudio(): VirtualAudio | undefined {
    return undefined; // its transports tick on this thread: there is no other thread to serve the devices
  }

  /** {@inheritDoc MediaEngine.createVoiceTransport} */
  createVoiceTransport(options: VoiceTransportOptions): VoiceTransport {
    return new JsVoiceTransport(this, options);
  }
}

import { RTP_INFO, type NativeAddon, type NativeTransportCryptor as Addon } from '../addon/types.js';
import { MediaEngineError } from '../MediaEngineError.js';
import { bytesArg, checkRtpHeader, checkTransportArgs, nonceArg, sealedLengthOf } from '../rtp/args.js';
import {
  emptyFailureCounts,
  RTP_RESULTS,
  type RtpHeaderInit,
  type TransportCryptor,
  type TransportEncryptionMode,
  type TransportOpenResult,
  type TransportStats,
} from '../rtp/types.js';
import { openedFromInfo, resultCode, throwResult, toNativeHeader } from './nativeRtp.js';

/**
 * The native engine's transport cryptor: a thin shell over the addon's `TransportCryptor`, which keeps
 * the key schedule and the counters and writes into the caller's buffers.
 */
export class NativeTransportCryptor implements TransportCryptor {
  /** {@inheritDoc TransportCryptor.mode} */
  readonly mode: TransportEncryptionMode;
  readonly #cryptor: Addon;
  // Reused by every open(): the addon fills it instead of making an object per packet.
  readonly #info = new Uint32Array(RTP_INFO.size);

  /** @param addon - The loaded addon. Mode and key are checked as in the JS engine. */
  constructor(addon: NativeAddon, mode: TransportEncryptionMode, key: Uint8Array) {
    const checked = checkTransportArgs(mode, key);
    this.mode = checked.mode;
    try {
      this.#cryptor = new addon.TransportCryptor(checked.mode, checked.key);
    } catch (error) {
      throw MediaEngineError.from(error);
    }
  }

  /** {@inheritDoc TransportCryptor.sealedLength} */
  sealedLength(header: RtpHeaderInit, payloadLength: number): number {
    return sealedLengthOf(checkRtpHeader(header), payloadLength);
  }

  /** {@inheritDoc TransportCryptor.seal} */
  seal(header: RtpHeaderInit, payload: Uint8Array, out: Uint8Array, nonce?: number): number {
    const checked = checkRtpHeader(header);
    const body = bytesArg(payload, 'payload');
    const target = bytesArg(out, 'out');
    const explicitNonce = nonceArg(nonce);
    sealedLengthOf(checked, body.length);
    const nativeHeader = toNativeHeader(checked);
    const written =
      explicitNonce === undefined
        ? this.#cryptor.seal(nativeHeader, checked.extensionBody, body, target)
        : this.#cryptor.seal(nativeHeader, checked.extensionBody, body, target, explicitNonce);
    if (written < 0) throwResult(written, `${this.mode} seal`);
    return written;
  }

  /** {@inheritDoc TransportCryptor.open} */
  open(packet: Uint8Array, out: Uint8Array): TransportOpenResult {
    const result = this.#cryptor.open(bytesArg(packet, 'packet'), bytesArg(out, 'out'), this.#info);
    if (result !== 0) return { ok: false, code: resultCode(result) };
    return openedFromInfo(this.#info);
  }

  /** {@inheritDoc TransportCryptor.stats} */
  stats(): TransportStats {
    const native = this.#cryptor.stats();
    const failures = emptyFailureCounts();
    RTP_RESULTS.forEach((name, index) => {
      if (name !== 'OK') failures[name] = native.results[index] ?? 0;
    });
    return {
      sealed: native.sealed,
      lastNonce: native.lastNonce,
      opened: native.results[0] ?? 0,
      failures,
    };
  }
}

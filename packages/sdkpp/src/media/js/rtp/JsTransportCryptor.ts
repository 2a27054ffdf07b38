import { createCipheriv, createDecipheriv } from 'node:crypto';

import { MediaEngineError } from '../../MediaEngineError.js';
import {
  bytesArg,
  checkRtpHeader,
  checkTransportArgs,
  clearHeaderLength,
  nonceArg,
  sealedLengthOf,
} from '../../rtp/args.js';
import {
  emptyFailureCounts,
  type RtpHeaderInit,
  type RtpResultCode,
  type TransportCryptor,
  type TransportEncryptionMode,
  type TransportOpenResult,
  type TransportStats,
} from '../../rtp/types.js';
import { nodeCryptoAeadAlgorithms } from '../nodeCryptoAead.js';
import { createXChaCha20Poly1305Cipher, createXChaCha20Poly1305Decipher } from './xchacha20poly1305.js';
import { parseClearHeader, splitBody, writeClearHeader } from './rtpHeader.js';

const TAG_SIZE = 16;
const NONCE_SUFFIX_SIZE = 4;

/**
 * The JS engine's transport cryptor: node:crypto's AES-256-GCM, and XChaCha20-Poly1305 built from
 * HChaCha20 plus node:crypto's ChaCha20-Poly1305. Same contract, results and counters as the native one
 * (native/core/rtp/transport_cryptor.cc), at the cost of a cipher object per packet.
 */
export class JsTransportCryptor implements TransportCryptor {
  /** {@inheritDoc TransportCryptor.mode} */
  readonly mode: TransportEncryptionMode;
  readonly #key: Buffer;
  #lastNonce = 0;
  #sealed = 0;
  #opened = 0;
  readonly #failures = emptyFailureCounts();

  /**
   * @param mode - One of the transport modes, else `ERR_RTP_UNSUPPORTED_MODE`.
   * @param key - 32 bytes, else `ERR_RTP_INVALID_KEY_SIZE`; copied, so the caller may wipe theirs.
   */
  constructor(mode: TransportEncryptionMode, key: Uint8Array) {
    const checked = checkTransportArgs(mode, key);
    const inner = checked.mode === 'aead_aes256_gcm_rtpsize' ? 'aes-256-gcm' : 'chacha20-poly1305';
    // Electron's BoringSSL, for one, lacks chacha20-poly1305 in node:crypto.
    if (!nodeCryptoAeadAlgorithms().includes(inner)) {
      throw new MediaEngineError(
        'ERR_RTP_UNSUPPORTED_MODE',
        `${checked.mode} needs node:crypto's ${inner}, which this process lacks`,
      );
    }
    this.mode = checked.mode;
    this.#key = Buffer.from(checked.key);
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
    const sealedLength = sealedLengthOf(checked, body.length);
    if (target.length < sealedLength) {
      throw new MediaEngineError(
        'ERR_RTP_OUTPUT_TOO_SMALL',
        `The packet needs ${sealedLength} bytes, "out" has ${target.length}`,
      );
    }
    const clearLength = clearHeaderLength(checked);
    const extensionLength = checked.extensionBody.length;
    const payloadTarget = clearLength + extensionLength;
    if (
      !placedOrApart(body, target, payloadTarget) ||
      !placedOrApart(checked.extensionBody, target, clearLength) ||
      overlaps(checked.extensionBody, body)
    ) {
      throw new MediaEngineError(
        'ERR_RTP_OVERLAPPING_BUFFERS',
        'The payload may be inside "out" only at its final place',
      );
    }
    const counter = explicitNonce ?? (this.#lastNonce + 1) >>> 0;
    const plaintextLength = extensionLength + body.length + checked.paddingSize;
    // Assemble the plaintext in place (set() copies correctly even within one buffer), then encrypt it.
    target.set(body, payloadTarget);
    target.set(checked.extensionBody, clearLength);
    if (checked.paddingSize > 0) {
      const paddingStart = payloadTarget + body.length;
      target.fill(0, paddingStart, paddingStart + checked.paddingSize - 1);
      target[paddingStart + checked.paddingSize - 1] = checked.paddingSize;
    }
    writeClearHeader(checked, target);
    const aad = target.subarray(0, clearLength);
    const plaintext = target.subarray(clearLength, clearLength + plaintextLength);
    try {
      const cipher = this.#cipher(counter);
      cipher.setAAD(aad, { plaintextLength });
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      target.set(ciphertext, clearLength);
      target.set(cipher.getAuthTag(), clearLength + plaintextLength);
    } catch (error) {
      throw new MediaEngineError('ERR_RTP_BACKEND', `${this.mode}: the crypto backend failed`, {
        cause: error,
      });
    }
    new DataView(target.buffer, target.byteOffset, target.byteLength).setUint32(
      clearLength + plaintextLength + TAG_SIZE,
      counter,
    );
    if (explicitNonce === undefined) this.#lastNonce = counter;
    this.#sealed++;
    return sealedLength;
  }

  /** {@inheritDoc TransportCryptor.open} */
  open(packet: Uint8Array, out: Uint8Array): TransportOpenResult {
    const input = bytesArg(packet, 'packet');
    const target = bytesArg(out, 'out');
    const result = this.#open(input, target);
    if (result.ok) this.#opened++;
    else this.#failures[result.code]++;
    return result;
  }

  /** {@inheritDoc TransportCryptor.stats} */
  stats(): TransportStats {
    return {
      sealed: this.#sealed,
      lastNonce: this.#lastNonce,
      opened: this.#opened,
      failures: { ...this.#failures },
    };
  }

  #open(packet: Uint8Array, out: Uint8Array): TransportOpenResult {
    const clear = parseClearHeader(packet);
    if (typeof clear === 'string') return failure(clear);
    const { clearLength } = clear;
    if (packet.length - clearLength < TAG_SIZE + NONCE_SUFFIX_SIZE) {
      return failure('ERR_RTP_PACKET_TOO_SHORT');
    }
    const tagStart = packet.length - NONCE_SUFFIX_SIZE - TAG_SIZE;
    const plaintextLength = tagStart - clearLength;
    if (out.length < plaintextLength) return failure('ERR_RTP_OUTPUT_TOO_SMALL');
    // As natively: `out` may be the ciphertext's own place (in place), or apart from the packet.
    if (!placedOrApart(packet.subarray(clearLength, tagStart), out, 0)) {
      return failure('ERR_RTP_OVERLAPPING_BUFFERS');
    }
    const counter = new DataView(packet.buffer, packet.byteOffset, packet.byteLength).getUint32(
      packet.length - NONCE_SUFFIX_SIZE,
    );
    let plaintext: Buffer;
    try {
      const decipher = this.#decipher(counter);
      decipher.setAuthTag(packet.subarray(tagStart, tagStart + TAG_SIZE));
      decipher.setAAD(packet.subarray(0, clearLength), { plaintextLength });
      plaintext = decipher.update(packet.subarray(clearLength, tagStart));
      decipher.final();
    } catch {
      // node:crypto reports a wrong tag only by throwing from final(); nothing reached `out`.
      return failure('ERR_RTP_AUTHENTICATION_FAILED');
    }
    out.set(plaintext);
    plaintext.fill(0);
    const layout = splitBody(clear.header, out.subarray(0, plaintextLength));
    if (typeof layout === 'string') return failure(layout);
    return { ok: true, nonce: counter, ...layout };
  }

  #cipher(counter: number) {
    const nonce = this.#nonce(counter);
    return this.mode === 'aead_aes256_gcm_rtpsize'
      ? createCipheriv('aes-256-gcm', this.#key, nonce, { authTagLength: TAG_SIZE })
      : createXChaCha20Poly1305Cipher(this.#key, nonce);
  }

  #decipher(counter: number) {
    const nonce = this.#nonce(counter);
    return this.mode === 'aead_aes256_gcm_rtpsize'
      ? createDecipheriv('aes-256-gcm', this.#key, nonce, { authTagLength: TAG_SIZE })
      : createXChaCha20Poly1305Decipher(this.#key, nonce);
  }

  // The counter, big-endian, in the first 4 bytes of a zeroed 12-byte (AES-GCM) or 24-byte nonce.
  #nonce(counter: number): Buffer {
    const nonce = Buffer.alloc(this.mode === 'aead_aes256_gcm_rtpsize' ? 12 : 24);
    nonce.writeUInt32BE(counter, 0);
    return nonce;
  }
}

function failure(code: RtpResultCode): { ok: false; code: RtpResultCode } {
  return { ok: false, code };
}

// True when `input` is not inside `out`, or is exactly at `out[offset]`.
function placedOrApart(input: Uint8Array, out: Uint8Array, offset: number): boolean {
  return input.byteOffset === out.byteOffset + offset || !overlaps(input, out);
}

// True when the two views share at least one byte of memory.
function overlaps(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length === 0 || b.length === 0 || a.buffer !== b.buffer) return false;
  return a.byteOffset < b.byteOffset + b.length && b.byteOffset < a.byteOffset + a.length;
}

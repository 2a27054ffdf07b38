import type { NativeAddon } from '../../native/types.js';
import type { AeadAlgorithm } from '../aead.js';
import type { CryptoSelfTestResult, MediaEngine, MediaEngineInfo } from '../MediaEngine.js';
import { MediaEngineError } from '../MediaEngineError.js';

/**
 * The media engine backed by the C++ addon. It holds no logic of its own: it reshapes the addon's info
 * and turns the addon's coded errors into {@link MediaEngineError}s, so both engines throw alike.
 */
export class NativeMediaEngine implements MediaEngine {
  /** {@inheritDoc MediaEngine.info} */
  readonly info: MediaEngineInfo;
  readonly #addon: NativeAddon;

  /** @param addon - A loaded addon, from `loadNativeAddon()` (or a test double). */
  constructor(addon: NativeAddon) {
    this.#addon = addon;
    const native = addon.engineInfo();
    this.info = Object.freeze({
      engine: 'native',
      version: native.version,
      crypto: Object.freeze({ backend: native.crypto.backend, version: native.crypto.version }),
      codec: Object.freeze(
        native.opus === null
          ? { name: null, version: null }
          : { name: 'libopus' as const, version: native.opus.version },
      ),
      features: Object.freeze([...native.features]),
    });
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
}

import type { AeadAlgorithm } from '../aead.js';
import type { CryptoSelfTestResult, MediaEngine, MediaEngineInfo } from '../MediaEngine.js';
import { nodeCryptoAeadAlgorithms, nodeCryptoOpen, nodeCryptoSeal } from './nodeCryptoAead.js';
import { runJsCryptoSelfTest } from './selfTest.js';

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
 * The pure-JS media engine: AEAD through node:crypto (the Opus wasm codec arrives later). It needs no
 * build step and runs wherever Node or Electron does, at some cost on the voice hot path.
 */
export class JsMediaEngine implements MediaEngine {
  /** {@inheritDoc MediaEngine.info} */
  readonly info: MediaEngineInfo;

  /** @param options - See {@link JsMediaEngineOptions}. */
  constructor(options: JsMediaEngineOptions = {}) {
    this.info = Object.freeze({
      engine: 'js',
      version: JS_ENGINE_VERSION,
      crypto: Object.freeze({ backend: 'node:crypto', version: `OpenSSL ${process.versions.openssl}` }),
      codec: Object.freeze({ name: null, version: null }),
      features: Object.freeze([...nodeCryptoAeadAlgorithms()]),
      ...(options.fallbackReason === undefined ? {} : { fallbackReason: options.fallbackReason }),
    });
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
}

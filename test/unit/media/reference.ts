import { createCipheriv } from 'node:crypto';

import type { AeadAlgorithm } from '../../../packages/sdkpp/src/media/index.js';

/** node:crypto used directly, as the independent reference both engines must match byte for byte. */
export function referenceSeal(
  algorithm: AeadAlgorithm,
  key: Uint8Array,
  nonce: Uint8Array,
  aad: Uint8Array,
  plaintext: Uint8Array,
): Buffer {
  const cipher =
    algorithm === 'aes-256-gcm'
      ? createCipheriv(algorithm, key, nonce, { authTagLength: 16 })
      : createCipheriv(algorithm, key, nonce, { authTagLength: 16 });
  if (aad.length > 0) cipher.setAAD(aad, { plaintextLength: plaintext.length });
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

/** Runs `action` and returns what it threw; fails when it returns normally. */
export function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

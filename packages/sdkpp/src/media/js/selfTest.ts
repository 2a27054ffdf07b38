import { randomBytes, randomInt } from 'node:crypto';

import { AEAD_PARAMETERS, type AeadAlgorithm } from '../aead.js';
import type { AeadSelfTestResult, CryptoSelfTestResult } from '../MediaEngine.js';
import { MediaEngineError } from '../MediaEngineError.js';
import { AEAD_KNOWN_ANSWER_VECTORS } from './aeadVectors.js';
import { nodeCryptoOpen, nodeCryptoSeal } from './nodeCryptoAead.js';

// The JS twin of native/core/selftest.cc: the same three checks, so both engines report alike.

const ROUND_TRIP_MAX_SIZE = 1024;
const TAMPER_SIZE = 64;

/** Runs the known-answer, round-trip and tamper checks for each algorithm. */
export function runJsCryptoSelfTest(algorithms: readonly AeadAlgorithm[]): CryptoSelfTestResult {
  const results = algorithms.map(selfTestOne);
  return { ok: results.length > 0 && results.every((result) => result.ok), results };
}

function selfTestOne(algorithm: AeadAlgorithm): AeadSelfTestResult {
  const knownAnswer = passes(() => knownAnswers(algorithm));
  const roundTrip = passes(() => roundTrips(algorithm));
  const rejectsTampering = passes(() => rejectsTamperedInput(algorithm));
  return {
    algorithm,
    ok: knownAnswer && roundTrip && rejectsTampering,
    knownAnswer,
    roundTrip,
    rejectsTampering,
  };
}

function passes(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

function knownAnswers(algorithm: AeadAlgorithm): boolean {
  const vectors = AEAD_KNOWN_ANSWER_VECTORS.filter((vector) => vector.algorithm === algorithm);
  return (
    vectors.length > 0 &&
    vectors.every((vector) => {
      const [key, nonce, aad, plaintext] = [vector.key, vector.nonce, vector.aad, vector.plaintext].map(hex);
      const sealed = hex(vector.ciphertext + vector.tag);
      return (
        nodeCryptoSeal(algorithm, key, nonce, aad, plaintext).equals(sealed) &&
        nodeCryptoOpen(algorithm, key, nonce, aad, sealed).equals(plaintext as Buffer)
      );
    })
  );
}

function roundTrips(algorithm: AeadAlgorithm): boolean {
  const { keySize, nonceSize } = AEAD_PARAMETERS[algorithm];
  const key = randomBytes(keySize);
  return [0, 1, randomInt(2, ROUND_TRIP_MAX_SIZE + 1)].every((length) => {
    const nonce = randomBytes(nonceSize);
    const aad = randomBytes(randomInt(0, 65));
    const plaintext = randomBytes(length);
    const sealed = nodeCryptoSeal(algorithm, key, nonce, aad, plaintext);
    return nodeCryptoOpen(algorithm, key, nonce, aad, sealed).equals(plaintext);
  });
}

function rejectsTamperedInput(algorithm: AeadAlgorithm): boolean {
  const { keySize, nonceSize, tagSize } = AEAD_PARAMETERS[algorithm];
  const key = randomBytes(keySize);
  const nonce = randomBytes(nonceSize);
  const aad = randomBytes(16);
  const plaintext = randomBytes(TAMPER_SIZE);
  const sealed = nodeCryptoSeal(algorithm, key, nonce, aad, plaintext);
  const rejected = (tamperedAad: Buffer, tamperedSealed: Buffer): boolean => {
    try {
      nodeCryptoOpen(algorithm, key, nonce, tamperedAad, tamperedSealed);
      return false;
    } catch (error) {
      return error instanceof MediaEngineError && error.code === 'ERR_AEAD_AUTHENTICATION_FAILED';
    }
  };
  return (
    rejected(aad, flipBit(sealed, 0, TAMPER_SIZE)) &&
    rejected(aad, flipBit(sealed, TAMPER_SIZE, tagSize)) &&
    rejected(flipBit(aad, 0, aad.length), sealed) &&
    nodeCryptoOpen(algorithm, key, nonce, aad, sealed).equals(plaintext)
  );
}

/** A copy of `bytes` with one random bit flipped in `[offset, offset + length)`. */
function flipBit(bytes: Buffer, offset: number, length: number): Buffer {
  const copy = Buffer.from(bytes);
  const index = offset + randomInt(length);
  copy[index] = (copy[index] ?? 0) ^ (1 << randomInt(8));
  return copy;
}

function hex(text: string): Buffer {
  return Buffer.from(text, 'hex');
}

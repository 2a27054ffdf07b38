import { createCipheriv, createDecipheriv, getCiphers } from 'node:crypto';
import { isTypedArray, isUint8Array } from 'node:util/types';

import {
  AEAD_ALGORITHMS,
  AEAD_MAX_INPUT_SIZE,
  AEAD_PARAMETERS,
  type AeadAlgorithm,
  type AeadParameters,
} from '../aead.js';
import { MediaEngineError } from '../MediaEngineError.js';

// The checks below mirror native/napi (argument types, then key, then data sizes, then nonce) with the
// same codes and wording, so that the two engines are interchangeable down to their error messages.

let supported: readonly AeadAlgorithm[] | undefined;

/**
 * The algorithms node:crypto offers in this process. Electron's BoringSSL, for one, has no
 * chacha20-poly1305 cipher, so this is asked rather than assumed.
 */
export function nodeCryptoAeadAlgorithms(): readonly AeadAlgorithm[] {
  if (supported === undefined) {
    const ciphers = new Set(getCiphers());
    supported = Object.freeze(AEAD_ALGORITHMS.filter((algorithm) => ciphers.has(algorithm)));
  }
  return supported;
}

/** The one-shot seal of the JS engine; see `MediaEngine.aeadSeal` for the contract. */
export function nodeCryptoSeal(
  algorithm: unknown,
  key: unknown,
  nonce: unknown,
  aad: unknown,
  plaintext: unknown,
): Buffer {
  const args = readArgs(algorithm, key, nonce, aad, plaintext, 'plaintext');
  checkMaxSize(args.name, args.input.length);
  checkNonceAndAad(args);
  const cipher = makeCipher(args.name, args.key, args.nonce);
  try {
    if (args.aad.length > 0) cipher.setAAD(args.aad, { plaintextLength: args.input.length });
    return Buffer.concat([cipher.update(args.input), cipher.final(), cipher.getAuthTag()]);
  } catch (error) {
    throw backendError(args.name, error);
  }
}

/** The one-shot open of the JS engine; see `MediaEngine.aeadOpen` for the contract. */
export function nodeCryptoOpen(
  algorithm: unknown,
  key: unknown,
  nonce: unknown,
  aad: unknown,
  ciphertextWithTag: unknown,
): Buffer {
  const args = readArgs(algorithm, key, nonce, aad, ciphertextWithTag, 'ciphertextWithTag');
  const { tagSize } = args.parameters;
  if (args.input.length < tagSize) {
    throw new MediaEngineError(
      'ERR_AEAD_CIPHERTEXT_TOO_SHORT',
      `${args.name} sealed data ends with a ${tagSize}-byte tag, got only ${bytes(args.input.length)}`,
    );
  }
  const ciphertext = args.input.subarray(0, args.input.length - tagSize);
  checkMaxSize(args.name, ciphertext.length);
  checkNonceAndAad(args);
  const decipher = makeDecipher(args.name, args.key, args.nonce);
  let plaintext: Buffer;
  try {
    decipher.setAuthTag(args.input.subarray(ciphertext.length));
    if (args.aad.length > 0) decipher.setAAD(args.aad, { plaintextLength: ciphertext.length });
    plaintext = decipher.update(ciphertext);
  } catch (error) {
    throw backendError(args.name, error);
  }
  try {
    decipher.final();
  } catch (error) {
    plaintext.fill(0); // unauthenticated bytes must not outlive the failure
    throw new MediaEngineError(
      'ERR_AEAD_AUTHENTICATION_FAILED',
      `${args.name} authentication failed: the ciphertext, tag, AAD, key or nonce do not match`,
      { cause: error },
    );
  }
  return plaintext;
}

interface AeadArgs {
  readonly name: AeadAlgorithm;
  readonly parameters: AeadParameters;
  readonly key: Uint8Array;
  readonly nonce: Uint8Array;
  readonly aad: Uint8Array;
  readonly input: Uint8Array;
}

function readArgs(
  algorithm: unknown,
  key: unknown,
  nonce: unknown,
  aad: unknown,
  input: unknown,
  inputName: string,
): AeadArgs {
  const name = algorithmArg(algorithm);
  const args: AeadArgs = {
    name,
    parameters: AEAD_PARAMETERS[name],
    key: bytesArg(key, 'key'),
    nonce: bytesArg(nonce, 'nonce'),
    aad: bytesArg(aad, 'aad'),
    input: bytesArg(input, inputName),
  };
  const { keySize } = args.parameters;
  if (args.key.length !== keySize) {
    throw new MediaEngineError(
      'ERR_AEAD_INVALID_KEY_SIZE',
      `${name} needs a ${keySize}-byte key, got ${bytes(args.key.length)}`,
    );
  }
  return args;
}

function algorithmArg(value: unknown): AeadAlgorithm {
  if (typeof value !== 'string') {
    throw new MediaEngineError(
      'ERR_INVALID_ARG_TYPE',
      `The "algorithm" argument must be a string, got ${describe(value)}`,
    );
  }
  const algorithm = nodeCryptoAeadAlgorithms().find((candidate) => candidate === value);
  if (algorithm === undefined) {
    const echo = value.length <= 40 ? value : `${value.slice(0, 40)}...`;
    const names = nodeCryptoAeadAlgorithms()
      .map((candidate) => `'${candidate}'`)
      .join(', ');
    throw new MediaEngineError(
      'ERR_AEAD_UNSUPPORTED_ALGORITHM',
      `Unsupported AEAD algorithm '${echo}'; this build supports ${names || 'none'}`,
    );
  }
  return algorithm;
}

function bytesArg(value: unknown, name: string): Uint8Array {
  if (!isUint8Array(value)) {
    throw new MediaEngineError(
      'ERR_INVALID_ARG_TYPE',
      `The "${name}" argument must be a Buffer or Uint8Array, got ${describe(value)}`,
    );
  }
  return value;
}

function checkMaxSize(name: AeadAlgorithm, size: number): void {
  if (size > AEAD_MAX_INPUT_SIZE) {
    throw new MediaEngineError(
      'ERR_AEAD_INPUT_TOO_LARGE',
      `${name} input is larger than ${bytes(AEAD_MAX_INPUT_SIZE)}`,
    );
  }
}

function checkNonceAndAad(args: AeadArgs): void {
  const { nonceSize } = args.parameters;
  if (args.nonce.length !== nonceSize) {
    throw new MediaEngineError(
      'ERR_AEAD_INVALID_NONCE_SIZE',
      `${args.name} needs a ${nonceSize}-byte nonce, got ${bytes(args.nonce.length)}`,
    );
  }
  checkMaxSize(args.name, args.aad.length);
}

// node:crypto's overloads are per algorithm literal, hence one call per branch.
function makeCipher(name: AeadAlgorithm, key: Uint8Array, nonce: Uint8Array) {
  const options = { authTagLength: AEAD_PARAMETERS[name].tagSize };
  return name === 'aes-256-gcm'
    ? createCipheriv(name, key, nonce, options)
    : createCipheriv(name, key, nonce, options);
}

function makeDecipher(name: AeadAlgorithm, key: Uint8Array, nonce: Uint8Array) {
  const options = { authTagLength: AEAD_PARAMETERS[name].tagSize };
  return name === 'aes-256-gcm'
    ? createDecipheriv(name, key, nonce, options)
    : createDecipheriv(name, key, nonce, options);
}

function backendError(name: AeadAlgorithm, cause: unknown): MediaEngineError {
  return new MediaEngineError('ERR_AEAD_BACKEND', `${name}: the crypto backend failed`, { cause });
}

function bytes(count: number): string {
  return `${count} ${count === 1 ? 'byte' : 'bytes'}`;
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (isTypedArray(value)) return 'a typed array other than Uint8Array';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : 'a value of another type';
}

import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import aeadVectors from '../vectors/aead.json' with { type: 'json' };

const header = readFileSync(
  new URL('../../packages/sdkpp/native/core/crypto/aead_vectors.h', import.meta.url),
  'utf8',
);

const ALGORITHM_NAMES: Record<string, string> = {
  kAes256Gcm: 'aes-256-gcm',
  kChaCha20Poly1305: 'chacha20-poly1305',
};

/** The vectors of kAeadKnownAnswers, read back from the C++ source. */
function cppVectors(): Record<string, string>[] {
  const table = header.slice(header.indexOf('kAeadKnownAnswers[]'));
  const entry = new RegExp(
    String.raw`\{\s*"([^"]*)",\s*AeadAlgorithm::(\w+),` +
      String.raw`\s*"([0-9a-f]*)",`.repeat(6) +
      String.raw`\s*\}`,
    'g',
  );
  return [...table.matchAll(entry)].map((match) => {
    const [
      ,
      name = '',
      algorithm = '',
      key = '',
      nonce = '',
      aad = '',
      plaintext = '',
      ciphertext = '',
      tag = '',
    ] = match;
    return {
      name,
      algorithm: ALGORITHM_NAMES[algorithm] ?? algorithm,
      key,
      nonce,
      aad,
      plaintext,
      ciphertext,
      tag,
    };
  });
}

describe('the C++ self-test vectors', () => {
  it('equal test/vectors/aead.json', () => {
    const fromJson = aeadVectors.vectors.map(({ source: _source, ...vector }) => vector);
    expect(cppVectors()).toEqual(fromJson);
  });

  it('fit the self-test buffers', () => {
    const limit = Number(/kAeadKnownAnswerMaxPlaintext = (\d+)/.exec(header)?.[1]);
    const longest = Math.max(...aeadVectors.vectors.map((vector) => vector.plaintext.length / 2));
    expect(limit).toBeGreaterThanOrEqual(longest);
  });
});

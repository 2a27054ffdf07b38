import { describe, expect, it } from 'vitest';

import { AEAD_KNOWN_ANSWER_VECTORS } from '../../../packages/sdkpp/src/media/js/aeadVectors.js';
import aeadVectors from '../../vectors/aead.json' with { type: 'json' };

describe("the JS engine's known-answer vectors", () => {
  it('equal test/vectors/aead.json', () => {
    expect(AEAD_KNOWN_ANSWER_VECTORS).toEqual(aeadVectors.vectors);
  });

  it('cover every algorithm', () => {
    const algorithms = new Set(AEAD_KNOWN_ANSWER_VECTORS.map((vector) => vector.algorithm));
    expect([...algorithms].sort()).toEqual(['aes-256-gcm', 'chacha20-poly1305']);
  });
});

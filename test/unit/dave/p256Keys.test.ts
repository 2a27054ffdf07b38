import { describe, expect, it } from 'vitest';

import {
  generateP256KeyPair,
  nodeP256Signature,
  p256PublicKey,
} from '../../../packages/protocol/src/dave/nodeP256.js';

describe('generateP256KeyPair', () => {
  it('gives 32-byte scalars (leading zero bytes kept) whose point and signatures match', async () => {
    const message = new TextEncoder().encode('key package');
    let sawLeadingZero = false;
    // One scalar in 256 starts with a zero byte; 3000 keys meet one with near certainty (1 − 10⁻⁵).
    for (let i = 0; i < 3000; i++) {
      const { signKey, publicKey } = generateP256KeyPair();
      expect(signKey.length).toBe(32);
      expect(publicKey.length).toBe(65);
      if (signKey[0] !== 0 && i > 8 && !(i % 500 === 0)) continue;
      sawLeadingZero ||= signKey[0] === 0;
      expect(Buffer.from(p256PublicKey(signKey)).equals(Buffer.from(publicKey))).toBe(true);
      const signature = await nodeP256Signature.sign(signKey, message);
      expect(await nodeP256Signature.verify(publicKey, message, signature)).toBe(true);
    }
    expect(sawLeadingZero).toBe(true);
  });
});

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

describe('nodeP256Signature.verify', () => {
  it('answers each of many verifications started together (thread pool) for its own triple', async () => {
    const pairs = Array.from({ length: 12 }, () => generateP256KeyPair());
    const message = new TextEncoder().encode('leaf node');
    const signatures = await Promise.all(pairs.map((pair) => nodeP256Signature.sign(pair.signKey, message)));
    const forged = Uint8Array.from(signatures[5] ?? []);
    forged[forged.length - 1] = (forged[forged.length - 1] ?? 0) ^ 1;
    const notAPoint = new Uint8Array(65).fill(4);
    // Started in one turn, as ts-mls starts a joined tree's leaf checks: the first runs here, the rest on the
    // pool; a forged signature, a key swapped with another member's and a point off the curve fail alone.
    const results = await Promise.all(
      pairs.map((pair, i) => {
        if (i === 5) return nodeP256Signature.verify(pair.publicKey, message, forged);
        if (i === 7)
          return nodeP256Signature.verify(pairs[8]?.publicKey ?? notAPoint, message, signatures[7] ?? forged);
        if (i === 9) return nodeP256Signature.verify(notAPoint, message, signatures[9] ?? forged);
        return nodeP256Signature.verify(pair.publicKey, message, signatures[i] ?? forged);
      }),
    );
    expect(results).toEqual(pairs.map((_, i) => i !== 5 && i !== 7 && i !== 9));
  });
});

import { randomBytes } from 'node:crypto';

import { expect, it } from 'vitest';

import { generateP256KeyPair, sessionP256Signature } from '../../../packages/protocol/src/dave/nodeP256.js';
import { EpochSenderKeys, SENDER_KEY_LABEL } from '../../../packages/protocol/src/dave/senderKeys.js';
import { daveCipherSuite, loadTsMls } from '../../../packages/protocol/src/dave/tsMls.js';
import { snowflakeLE64 } from '../../../packages/protocol/src/dave/wire.js';

// The per-epoch sender keys against ts-mls's own MLS exporter (RFC 9420 §8.5), and the session signature
// checker's memory against fresh verification.

it('gives every member the key ts-mls exports for it', async () => {
  const mls = await loadTsMls();
  const suite = await daveCipherSuite();
  for (let epoch = 0; epoch < 5; epoch++) {
    const exporterSecret = new Uint8Array(randomBytes(32));
    const keys = new EpochSenderKeys(exporterSecret);
    for (const userId of ['0', '1', '158049329150427136', '18446744073709551615', String(epoch)]) {
      const expected = await mls.mlsExporter(
        exporterSecret,
        SENDER_KEY_LABEL,
        snowflakeLE64(userId),
        16,
        suite,
      );
      expect(Buffer.from(keys.keyFor(userId)).toString('hex'), userId).toBe(
        Buffer.from(expected).toString('hex'),
      );
    }
  }
});

it('answers only an exact repeat of a valid signature from memory', async () => {
  const signer = sessionP256Signature();
  const other = generateP256KeyPair();
  const { signKey, publicKey } = generateP256KeyPair();
  const message = new Uint8Array(randomBytes(300));
  const signature = await signer.sign(signKey, message);
  expect(await signer.verify(publicKey, message, signature)).toBe(true);
  expect(await signer.verify(publicKey, message, signature)).toBe(true);
  const changed = Uint8Array.from(message);
  changed[7] = (changed[7] ?? 0) ^ 1;
  expect(await signer.verify(publicKey, changed, signature)).toBe(false);
  expect(await signer.verify(other.publicKey, message, signature)).toBe(false);
  const garbled = Uint8Array.from(signature);
  garbled[garbled.length - 1] = (garbled[garbled.length - 1] ?? 0) ^ 1;
  expect(await signer.verify(publicKey, message, garbled)).toBe(false);
});

import { describe, expect, it } from 'vitest';

import { hchacha20 } from '../../../packages/sdkpp/src/media/js/rtp/hchacha20.js';
import {
  createXChaCha20Poly1305Cipher,
  createXChaCha20Poly1305Decipher,
} from '../../../packages/sdkpp/src/media/js/rtp/xchacha20poly1305.js';
import vectors from '../../vectors/transport.json' with { type: 'json' };

const hex = (text: string): Buffer => Buffer.from(text, 'hex');

describe('the JS engine’s XChaCha20-Poly1305', () => {
  it('derives the HChaCha20 subkey of draft-irtf-cfrg-xchacha §2.2.1', () => {
    const { key, input, output } = vectors.hchacha20;
    expect(hchacha20(hex(key), hex(input)).toString('hex')).toBe(output);
  });

  it('reads keys and inputs at any offset of a larger buffer', () => {
    const { key, input, output } = vectors.hchacha20;
    const backing = Buffer.concat([Buffer.alloc(3), hex(key), hex(input)]);
    expect(hchacha20(backing.subarray(3, 35), backing.subarray(35)).toString('hex')).toBe(output);
  });

  it('seals and opens the AEAD vector of draft-irtf-cfrg-xchacha A.3.1 (a nonce with no zero tail)', () => {
    const vector = vectors.xchacha20poly1305;
    const cipher = createXChaCha20Poly1305Cipher(hex(vector.key), hex(vector.nonce));
    cipher.setAAD(hex(vector.aad), { plaintextLength: vector.plaintext.length / 2 });
    const ciphertext = Buffer.concat([cipher.update(hex(vector.plaintext)), cipher.final()]);
    expect(ciphertext.toString('hex')).toBe(vector.ciphertext);
    expect(cipher.getAuthTag().toString('hex')).toBe(vector.tag);

    const decipher = createXChaCha20Poly1305Decipher(hex(vector.key), hex(vector.nonce));
    decipher.setAuthTag(hex(vector.tag));
    decipher.setAAD(hex(vector.aad), { plaintextLength: ciphertext.length });
    expect(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('hex')).toBe(
      vector.plaintext,
    );
  });
});

import { describe, expect, it } from 'vitest';

import { hchacha20 } from '../../../src/media/js/rtp/hchacha20.js';
import vectors from '../../vectors/transport.json' with { type: 'json' };

describe('hchacha20 (the JS engine’s XChaCha20 subkey)', () => {
  it('matches draft-irtf-cfrg-xchacha §2.2.1', () => {
    const { key, input, output } = vectors.hchacha20;
    expect(hchacha20(Buffer.from(key, 'hex'), Buffer.from(input, 'hex')).toString('hex')).toBe(output);
  });

  it('reads keys and inputs at any offset of a larger buffer', () => {
    const { key, input, output } = vectors.hchacha20;
    const backing = Buffer.concat([Buffer.alloc(3), Buffer.from(key, 'hex'), Buffer.from(input, 'hex')]);
    expect(hchacha20(backing.subarray(3, 35), backing.subarray(35)).toString('hex')).toBe(output);
  });
});

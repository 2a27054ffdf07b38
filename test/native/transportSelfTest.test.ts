import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import { RTP_RESULTS } from '../../packages/sdkpp/src/media/index.js';
import type { NativeAddon } from '../../packages/sdkpp/src/media/addon/types.js';
import vectors from '../vectors/transport.json' with { type: 'json' };
import { requireNativeAddon } from './requireAddon.js';

// native/core/rtp/transport_selftest.cc holds the C++ unit tests of the RTP and transport code (there is
// no separate C++ test binary); this runs them through the addon and names each check on failure.
describe('native/core/rtp unit tests', () => {
  let addon: NativeAddon;
  beforeAll(() => {
    addon = requireNativeAddon();
  });

  it('pass, each one', () => {
    const report = addon.transportSelfTest();
    expect(report.checks.map((check) => check.name)).toEqual([
      'hchacha20-vector',
      'xchacha20-poly1305-vector',
      'aead_aes256_gcm_rtpsize-vector',
      'aead_xchacha20_poly1305_rtpsize-vector',
      'aead_aes256_gcm_rtpsize-extension-vector',
      'nonce-counter',
      'csrcs-marker-padding',
      'malformed-packets',
      'extension-elements',
      'ip-discovery',
    ]);
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe('native/core/rtp and the JS side', () => {
  it('name the result codes alike, in the same order', () => {
    expect(requireNativeAddon().rtpResultNames()).toEqual([...RTP_RESULTS]);
  });

  it('test the same vectors (every packet and key of transport.json is in transport_selftest.cc)', () => {
    const source = readFileSync(
      new URL('../../packages/sdkpp/native/core/rtp/transport_selftest.cc', import.meta.url),
      'utf8',
    ).replace(/"\s*\n\s*"/g, '');
    const hexes = [
      vectors.key,
      vectors.hchacha20.input,
      vectors.hchacha20.output,
      vectors.xchacha20poly1305.key,
      vectors.xchacha20poly1305.nonce,
      vectors.xchacha20poly1305.aad,
      vectors.xchacha20poly1305.plaintext,
      vectors.xchacha20poly1305.ciphertext,
      vectors.xchacha20poly1305.tag,
      ...vectors.transport.flatMap((vector) => [vector.packet, vector.payload]),
    ];
    expect(hexes.filter((hex) => !source.includes(hex))).toEqual([]);
  });
});

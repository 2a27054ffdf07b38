import { beforeAll, describe, expect, it } from 'vitest';

import type { NativeAddon } from '../../src/native/types.js';
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

import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { AUDIO_RESULTS } from '../../packages/sdkpp/src/media/index.js';
import type { NativeAddon } from '../../packages/sdkpp/src/media/addon/types.js';
import { requireNativeAddon } from './requireAddon.js';

const nativeDir = fileURLToPath(new URL('../../packages/sdkpp/native', import.meta.url));

// native/core/audio/audio_selftest.cc runs a whole 20 ms tick (capture processing, encode, jitter buffer,
// decode or concealment, a 25-speaker mix) 200 times with the addon's allocator wrapped (binding.gyp
// links with --wrap for operator new and malloc), and counts the heap allocations.
describe('native/core/audio', () => {
  let addon: NativeAddon;
  beforeAll(() => {
    addon = requireNativeAddon();
  });

  it('makes no heap allocation per 20 ms tick, and the counter is shown to count', () => {
    const report = addon.audioSelfTest();
    expect(report.checks.map((check) => check.name)).toEqual([
      'allocation-counter-counts',
      'codec-matches-build',
      'ticks-ran',
      'no-allocation-per-tick',
    ]);
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    expect(report).toMatchObject({ ok: true, countingAvailable: true, allocationsInTicks: 0, ticks: 200 });
    // With libopus (CI installs it) the measured ticks include encode and decode.
    expect(report.codecAvailable).toBe(addon.engineInfo().opus !== null);
  });

  it('names its result codes as the TS side does, in the same order', () => {
    expect(addon.audioResultNames()).toEqual([...AUDIO_RESULTS]);
  });

  it('still compiles without libopus (SDKPP_HAVE_OPUS unset), warnings as errors', () => {
    const sources = readdirSync(`${nativeDir}/core/audio`)
      .filter((file) => file.endsWith('.cc'))
      .map((file) => `${nativeDir}/core/audio/${file}`);
    expect(sources.length).toBeGreaterThan(5);
    const flags = [
      '-std=c++17',
      '-Wall',
      '-Wextra',
      '-Wshadow',
      '-Wconversion',
      '-Wsign-conversion',
      '-Werror',
    ];
    for (const source of sources) {
      // Throws, with the compiler's message, if the no-libopus path does not compile.
      execFileSync('g++', [...flags, '-fsyntax-only', `-I${nativeDir}`, source], { stdio: 'pipe' });
    }
  });
});

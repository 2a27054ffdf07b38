import { fileURLToPath } from 'node:url';

import { configDefaults, defineConfig } from 'vitest/config';

// Tests that judge real-time audio by ear: speech or tones through a live call, compared with what was said.
// A media engine paced by timers (the JS engine above all) is only as punctual as the machine lets it be, so
// these run after the rest, one file at a time, instead of next to a headless browser and a dozen child
// processes on two cores.
const REALTIME_AUDIO = [
  'test/integration/voiceSpeech.test.ts',
  'test/integration/call.test.ts',
  'test/integration/virtualDevices.test.ts',
  'test/integration/gameAudio.test.ts',
  'test/integration/systemAudio.test.ts',
  'test/integration/systemAudioProcessing.test.ts',
  'test/integration/voiceProcessing.test.ts',
  'test/examples/electronRenderer.test.ts',
  'test/examples/electronDevices.test.ts',
  'test/integration/callResilience.test.ts',
  'test/integration/daveyInCall.test.ts',
  'test/integration/demo.test.ts',
  'test/examples/voiceCallSample.test.ts',
  'test/integration/bunHost.test.ts',
  'test/integration/wineHost.test.ts',
  'test/integration/qemuHost.test.ts',
  'test/integration/nodeLines.test.ts',
  'test/emulator/guildVoice.test.ts',
  'test/emulator/discordjsVoice.test.ts',
];

export default defineConfig({
  // The tests import the packages' sources by path; the sources import each other by package name. These
  // send those names to the same sources (as the root tsconfig's paths do for tsc and tsx), so that a test
  // and the code it drives share one copy of each module (one SdkError class, one Clock). Tests that import
  // `sdkpp` or `@sdkpp/emulator` by name get the built packages, as a game does.
  resolve: {
    alias: [
      {
        find: /^@sdkpp\/protocol\/dave$/,
        replacement: fileURLToPath(new URL('./packages/protocol/src/dave/index.ts', import.meta.url)),
      },
      {
        find: /^@sdkpp\/protocol$/,
        replacement: fileURLToPath(new URL('./packages/protocol/src/index.ts', import.meta.url)),
      },
      {
        find: /^sdkpp\/media$/,
        replacement: fileURLToPath(new URL('./packages/sdkpp/src/media/index.ts', import.meta.url)),
      },
      {
        find: /^sdkpp\/voice$/,
        replacement: fileURLToPath(new URL('./packages/sdkpp/src/voice/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: ['default'],
    // The native addon on a static libcrypto (test/setup/staticCrypto.ts installs Debian's libssl-dev as root
    // and rebuilds once when it is missing), the browser tests' headless Chromium, unpacked from its npm
    // package (test/setup/chromium.ts), and the PulseAudio server of the system audio tests
    // (test/setup/soundServer.ts installs it as root), and the prebuilds of the other four targets that the
    // wine and qemu tests run (test/setup/crossPrebuilds.ts: cross-built before any test, cached after).
    globalSetup: [
      'test/setup/staticCrypto.ts',
      'test/setup/chromium.ts',
      'test/setup/soundServer.ts',
      'test/setup/crossPrebuilds.ts',
    ],
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...REALTIME_AUDIO],
          // Two cores: integration suites open many sockets; keep workers few so timing stays honest.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'realtime-audio',
          include: REALTIME_AUDIO,
          maxWorkers: 1,
          // One more try for a test judged by ear: on a shared two-core machine another tenant's burst can
          // make a real-time pipe drop or repeat a 20 ms frame mid-sentence (a 20–60 ms drift of the best
          // alignment), which costs a few hundredths of correlation. A broken path fails both tries; a passing
          // second try is reported as retried, not hidden.
          retry: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

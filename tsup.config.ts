import { defineConfig } from 'tsup';

import { buildDashboardScript } from './packages/emulator/scripts/dashboard-script.js';

// One build for every entry point: ESM first, CommonJS for `require('sdkpp')`, declarations for both.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    emulator: 'src/emulator/index.ts',
    bindings: 'bindings/index.ts',
    backend: 'src/backend/index.ts',
    cli: 'src/cli.ts',
    // Loaded by path as a worker thread (src/voice/processing/ProcessingWorker.ts), not imported.
    'voice-processing-worker': 'src/voice/processing/worker/processingWorkerMain.ts',
  },
  format: ['esm', 'cjs'],
  dts: {
    entry: {
      index: 'src/index.ts',
      emulator: 'src/emulator/index.ts',
      bindings: 'bindings/index.ts',
      backend: 'src/backend/index.ts',
    },
  },
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  clean: true,
  shims: true,
  splitting: true,
  treeshake: false,
  // The emulator dashboard's browser script is a classic script of its own, not part of the bundle.
  onSuccess: () => {
    buildDashboardScript();
    return Promise.resolve();
  },
});

import { defineConfig } from 'tsup';

// One build for every entry point: ESM first, CommonJS for `require('sdkpp')`, declarations for both.
// @sdkpp/protocol stays an import (a dependency); the emulator is never part of this package.
// tsconfig.build.json: the package's own settings, without the root tsconfig's paths (the other packages
// stay imports, resolved as a game resolves them).
export default defineConfig({
  tsconfig: 'tsconfig.build.json',
  entry: {
    index: 'src/index.ts',
    bindings: 'bindings/index.ts',
    backend: 'src/backend/index.ts',
    media: 'src/media/index.ts',
    voice: 'src/voice/index.ts',
    cli: 'src/cli.ts',
    // Loaded by path as a worker thread (src/voice/processing/ProcessingWorker.ts), not imported.
    'voice-processing-worker': 'src/voice/processing/worker/processingWorkerMain.ts',
  },
  format: ['esm', 'cjs'],
  dts: {
    entry: {
      index: 'src/index.ts',
      bindings: 'bindings/index.ts',
      backend: 'src/backend/index.ts',
      media: 'src/media/index.ts',
      voice: 'src/voice/index.ts',
    },
  },
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  clean: true,
  shims: true,
  splitting: true,
  treeshake: false,
});

import { defineConfig } from 'tsup';

import { buildDashboardScript } from './scripts/dashboard-script.js';

// The emulator's entries: the library (`@sdkpp/emulator`), its command line as a function
// (`@sdkpp/emulator/cli`, what `sdkpp emulator` forwards to) and the `sdkpp-emulator` bin. sdkpp and
// @sdkpp/protocol stay imports (dependencies).
// tsconfig.build.json: the package's own settings, without the root tsconfig's paths (the other packages
// stay imports, resolved as a game resolves them).
export default defineConfig({
  tsconfig: 'tsconfig.build.json',
  entry: {
    index: 'src/index.ts',
    cliMain: 'src/cliMain.ts',
    cli: 'src/bin.ts',
  },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', cliMain: 'src/cliMain.ts' } },
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  clean: true,
  shims: true,
  splitting: true,
  treeshake: false,
  // The dashboard's browser script is a classic script of its own, not part of the bundle.
  onSuccess: () => {
    buildDashboardScript();
    return Promise.resolve();
  },
});

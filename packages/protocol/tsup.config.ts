import { defineConfig } from 'tsup';

// Two entries (the wire layer and base; DAVE's MLS glue), ESM and CommonJS with declarations: sdkpp's
// CommonJS build requires them too.
// tsconfig.build.json: the package's own settings, without the root tsconfig's paths (the other packages
// stay imports, resolved as a game resolves them).
export default defineConfig({
  tsconfig: 'tsconfig.build.json',
  entry: { index: 'src/index.ts', dave: 'src/dave/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  clean: true,
  shims: true,
  treeshake: false,
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: integration suites open many sockets; keep workers few so timing stays honest.
    maxWorkers: 2,
    reporters: ['default'],
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'translators/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 120_000, // the first Worker-target suite builds the bundle (wrangler + terser): slow on a loaded machine
    pool: 'forks',
    // Marks the run; fails it if a process a test started outlives it (test/support/processes.ts).
    globalSetup: ['test/support/global-setup.ts'],
  },
});

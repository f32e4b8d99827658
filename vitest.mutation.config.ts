/**
 * The tests `npm run mutation` runs against mutated translators: the translators' own tests and
 * the in-process suites that drive them (conformance, cross-dialect, schema checks). No servers,
 * no workerd: each mutant must be judged in seconds.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['translators/**/*.test.ts', 'test/conformance/**/*.test.ts', 'test/cross-dialect/**/*.test.ts', 'test/schema/**/*.test.ts', 'src/canonical/**/*.test.ts', 'src/kit/**/*.test.ts'],
    // The store suites start a redis-server and workerd (and test no translator).
    exclude: ['test/conformance/{state-store,counter-store,image-store,stored-state}.test.ts', '**/node_modules/**'],
    testTimeout: 60_000, // property suites over every fixture stream take seconds alone and far more on a loaded machine
    pool: 'forks',
  },
});

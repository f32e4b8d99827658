/**
 * The esbuild options every Node bundle of the project shares: the compiled CLI
 * (scripts/build-cli.ts) and the benchmarks' prebuilt proxy, mocks and baselines (bench/), so that
 * what the benchmarks run is built as `npm start` builds it.
 */
import type { BuildOptions } from 'esbuild';

export const nodeBundle = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'error',
  // jsonc-parser's `main` is a UMD build whose requires esbuild cannot follow; its `module` is ES.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
} satisfies BuildOptions;

/** A bench bundle: `.mjs` files that may `require` Node's own modules from ES code. */
export const benchBundle = {
  ...nodeBundle,
  outExtension: { '.js': '.mjs' },
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
} satisfies BuildOptions;

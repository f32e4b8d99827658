/** What test/conformance/ does not hold this dialect to: nothing, every case holds. */
import type { ConformanceExceptions } from '../types.ts';

export const conformanceExceptions: ConformanceExceptions = {};

/** What test/conformance/ does not hold the Responses dialect to, and why. */
import type { ConformanceExceptions } from '../types.ts';

export const conformanceExceptions: ConformanceExceptions = {
  cannotCarry: [{ field: 'stop', why: 'The Responses API has no stop sequences: `stop` toward it is dropped, and said in the loss report.' }],
};

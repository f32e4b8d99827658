/** A JSON object: what Gemini's loosely typed fields (`args`, `response`, schemas) are read as. */
export type Json = Record<string, unknown>;

/** An object that is neither null nor an array (the kit's test, under the name this folder reads). */
export { isJsonObject as isRecord } from '../../src/kit/index.ts';

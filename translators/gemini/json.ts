/** A JSON object: what Gemini's loosely typed fields (`args`, `response`, schemas) are read as. */
export type Json = Record<string, unknown>;

/** An object that is neither null nor an array. */
export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

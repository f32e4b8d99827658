/**
 * A config document's JSON text, read by JSON.parse (strict RFC 8259: no comments, no trailing
 * commas), and when it is not JSON, where and why in words that quote nothing of it (a config
 * holds keys), by the locator the loader is given (Node: json-place.ts, jsonc-parser).
 */

export interface JsonSyntaxError {
  /** Counted from 1. */
  line: number;
  column: number;
  reason: string;
}

/** Where a text JSON.parse refused stops being JSON (undefined: cannot say). */
export type JsonLocator = (text: string) => JsonSyntaxError | undefined;

/**
 * Parse a JSON text; a message saying where and why (`locate`) when it is not JSON, never quoting
 * it (V8's message quotes the text around the error). Without a locator (the Worker bundle, which
 * has no room for one within its budget) it says only that the text is not JSON.
 */
export function readJson(text: string, locate?: JsonLocator): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    const at = locate?.(text);
    return { problem: at ? `not valid JSON at line ${at.line}, column ${at.column}: ${at.reason}` : 'not valid JSON' };
  }
}

/**
 * A JSON body's bytes changed at its top level without parsing it (json-peek.ts finds where): its
 * model renamed, a field put first, as pieces around the body's own bytes (nothing copied). A body
 * forwarded as the caller's bytes goes so (src/flows/plan.ts).
 */
import { splicedParts, type ByteParts, type Bytes } from './http.ts';
import type { PeekedJson } from './json-peek.ts';

const toUtf8 = new TextEncoder();

/**
 * The body with its top-level model token replaced by `model` (a JSON string), as pieces: views of
 * the body's own pieces around the new token, nothing of the body copied (they must not change
 * while the pieces are in use).
 */
export function withModelParts(b: Bytes, peeked: PeekedJson, model: string): ByteParts {
  const at = peeked.model;
  if (!at) throw new Error('withModelParts: no top-level model to replace');
  return splicedParts(b, at.start, at.end, toUtf8.encode(JSON.stringify(model)));
}

/** Where a JSON body's top-level object opens (its `{`): past any leading whitespace. */
export function objectStart(b: Uint8Array): number {
  let i = 0;
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  return i;
}

/**
 * The body with a string field put first in its top-level object (`open`: where the object's `{`
 * lies, from `objectStart`; the object has fields, so a comma follows), as pieces: nothing of the
 * body copied. Given `withModelParts`' pieces it keeps the renamed model (which lies past `open`).
 */
export function withLeadingField(b: Bytes, open: number, name: string, value: string): ByteParts {
  return splicedParts(b, open, open + 1, toUtf8.encode(`{${JSON.stringify(name)}:${JSON.stringify(value)},`));
}

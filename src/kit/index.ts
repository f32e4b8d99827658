/**
 * The kit: machinery every layer needs and no vendor owns — bytes and byte parts, bounded body
 * reads, JSON limits and the JSON body writer, the JSON scanner (a body's top-level fields without parsing it) and splice (a body changed there), base64,
 * media types, retry-after, valibot's as-is check and its issues in plain words. It imports
 * nothing of the project (only the platform's Web APIs), so anything may use it.
 */
export * from './as-is.ts';
export * from './base64.ts';
export * from './digest.ts';
export * from './http.ts';
export * from './issues.ts';
export * from './json-body.ts';
export * from './json-peek.ts';
export * from './json-splice.ts';
export * from './json.ts';
export * from './retry-after.ts';
export * from './media.ts';
export * from './page-text.ts';
export * from './text-offsets.ts';

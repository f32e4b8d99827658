/**
 * Small HTTP helpers every upstream dialect needs when it builds a URL from what a caller named.
 */
import { ProxyError } from './errors.ts';

/** Unpaired UTF-16 surrogates (which `encodeURIComponent` refuses) → U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A caller-chosen name (a model, a deployment) as exactly ONE path segment of an upstream URL.
 *
 * Rule: every character outside `A-Z a-z 0-9 - _ . ! ~ * ' ( )` is percent-encoded as UTF-8
 * (`encodeURIComponent`), so `/`, `\`, `?`, `#`, `%`, `:`, spaces and control characters can
 * neither end the segment, nor start a query or fragment, nor be decoded twice. The names `.`
 * and `..` (and the empty name) are refused: URL parsers collapse a `.`/`..` segment even when
 * it is written `%2e`, so no encoding keeps them one segment. A lone surrogate becomes U+FFFD.
 *
 * Throws `ProxyError` `invalid-request` (param `model`) for a name that cannot be a segment.
 */
export function modelSegment(name: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(name);
  } catch {
    encoded = encodeURIComponent(name.replace(LONE_SURROGATE, '\uFFFD'));
  }
  if (encoded === '' || encoded === '.' || encoded === '..') {
    throw new ProxyError('invalid-request', `The model name '${name}' cannot be sent to the upstream.`, { param: 'model' });
  }
  return encoded;
}

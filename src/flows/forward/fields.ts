/**
 * What the forwarding path does with a scanned body's top-level fields (`peekJson`): check them
 * all but the conversation with the dialect's decoder, and splice the model (and a session's
 * cache key) into the bytes.
 */
import { parsedExcept, splicedParts, type ByteParts, type Bytes, type PeekedJson } from '../../kit/index.ts';

const utf8 = new TextDecoder();
const toUtf8 = new TextEncoder();
/** Up to this size a body is parsed whole for its parameter check. */
const SMALL_BODY = 16 * 1024;

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

/**
 * A request fit to forward without parsing, checked as far as its parameters go: the body's
 * top-level fields but the conversation (`conversation`, replaced by `standIn`, one plain turn)
 * given to `check` (the dialect's own decoder, which throws on what it refuses). False when
 * `check` throws: the request is then decoded whole, which gives the error its exact wording.
 */
export function checkedExcept(b: Uint8Array, peeked: PeekedJson, conversation: string, standIn: unknown, check: (body: Record<string, unknown>) => unknown): boolean {
  try {
    // A small body parsed whole is cheaper than field by field.
    const fields = b.length <= SMALL_BODY ? (JSON.parse(utf8.decode(b)) as Record<string, unknown>) : parsedExcept(b, peeked, conversation);
    check({ ...fields, [conversation]: standIn });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the body's `conversation` holds something: present, and every occurrence a non-empty
 * list, object or string. The forwarding path leaves what is inside the conversation to the
 * upstream, but never its absence: a body without one (`[]`, `""`, `null`, missing) is decoded,
 * and its dialect's decoder refuses it (or, where the dialect allows it, passes it on).
 */
export function holdsConversation(b: Uint8Array, peeked: PeekedJson, conversation: string): boolean {
  let found = false;
  for (const f of peeked.fields) {
    if (f.key !== conversation) continue;
    found = true;
    const open = b[f.start];
    let k = f.start + 1;
    // (Whitespace inside a list or an object; a string's is its content.)
    if (open !== 0x22) while (k < f.end && (b[k] === 0x20 || b[k] === 0x0a || b[k] === 0x0d || b[k] === 0x09)) k++;
    const close = open === 0x5b ? 0x5d : open === 0x7b ? 0x7d : open === 0x22 ? 0x22 : undefined;
    if (close === undefined || b[k] === close) return false;
  }
  return found;
}

/** A caller's input without its body (which forwarding must not read), to give a stand-in body. */
export function bareInput<I extends { headers: unknown; params: unknown; query: unknown }>(input: I): Pick<I, 'headers' | 'params' | 'query'> {
  return { headers: input.headers, params: input.params, query: input.query };
}

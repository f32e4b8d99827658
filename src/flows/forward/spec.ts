/**
 * A dialect's forwarding, as it declares it (`ChatCaller.forward`, data): where the model and the
 * stream flag are, that the conversation is there, and the parameter check — the dialect's own
 * decoder given every top-level field but the conversation, with one plain turn standing in for it.
 */
import { modelAndStream, parsedExcept, type PeekedJson } from '../../kit/index.ts';
import type { CallerInput, ChatCaller, ForwardSpec, TranslateContext } from '../../../translators/types.ts';

const utf8 = new TextDecoder();
/** Up to this size a body is parsed whole for its parameter check. */
const SMALL_BODY = 16 * 1024;

/** The routed model and the stream flag: from the route parameters, or from the scanned top level (`top`; undefined before the scan). */
export function forwardedModel(spec: ForwardSpec, input: CallerInput, top: PeekedJson | undefined): { model: string; stream: boolean } | undefined {
  const at = spec.model;
  if (at.in === 'path') return input.params.model ? { model: input.params.model, stream: input.params.method === at.streamMethod } : undefined;
  return top && modelAndStream(top);
}

/** Everything the check reads of the request but its body (the headers and route parameters the dialect names), as one string. */
export function checkKey(spec: ForwardSpec, input: CallerInput): string {
  const reads = spec.reads;
  if (!reads) return '';
  const values = [...(reads.headers ?? []).map((h) => input.headers[h]), ...(reads.params ?? []).map((p) => input.params[p])];
  return JSON.stringify(values);
}

/**
 * Whether the request passes its dialect's checks as far as its parameters go: all but the
 * conversation decoded (the upstream checks the conversation, in its own dialect). A pure
 * function of the body's fields but the conversation and of what `checkKey` names.
 */
export function passesCheck(caller: ChatCaller, input: CallerInput, body: { bytes: Uint8Array; top: PeekedJson }, ctx: TranslateContext): boolean {
  const spec = caller.forward!;
  return checkedExcept(body.bytes, body.top, spec.conversation, spec.standIn, (fields) => caller.decodeRequest({ ...bareInput(input), body: fields }, ctx));
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

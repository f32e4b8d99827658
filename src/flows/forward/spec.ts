/**
 * A dialect's forwarding, as it declares it (`ChatCaller.forward`, data): where the model and the
 * stream flag are, and the parameter check — the dialect's own decoder given every top-level field
 * but the conversation, with one plain turn standing in for it.
 */
import { modelAndStream, type PeekedJson } from '../../kit/index.ts';
import type { CallerInput, ChatCaller, ForwardSpec, TranslateContext } from '../../../translators/types.ts';
import { bareInput, checkedExcept } from './fields.ts';

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

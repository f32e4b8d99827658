/**
 * Caller side: a compaction the proxy made (src/flows/compaction.ts), as the Responses API
 * answers one. In place of a turn (a `compaction_trigger` last in the input), a Response whose
 * output is exactly one `compaction` item, as JSON or as the whole event stream; from
 * `POST /responses/compact`, a `response.compaction` object whose output is the caller's own user
 * messages followed by that one item. The item's `encrypted_content` is our carrier of the summary
 * (src/canonical/carrier.ts), which a later request's input brings back (decode-input.ts).
 */
import type { ChatRequest, Compaction, StreamFrame, Warning } from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { userItems } from './encode-input.ts';
import { compactionItem } from './encode-output.ts';
import { responseObject, type ResponseHead } from './encode-response.ts';
import type { Wire } from './encode-settings.ts';
import { encodeUsage } from './usage.ts';

const NO_USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };


const headOf = (c: Compaction, ctx: TranslateContext): ResponseHead => ({ id: ctx.newId('resp_'), model: c.model, createdAt: c.created });

/** The Response of a `compaction_trigger` request. */
export function compactionTurn(c: Compaction, req: ChatRequest, ctx: TranslateContext): Wire {
  return responseObject(headOf(c, ctx), req, [compactionItem(c, ctx)], { status: 'completed' }, c.usage ?? NO_USAGE);
}

/** The same as a whole stream: created, in progress, the item added and done, completed. */
export function compactionTurnFrames(c: Compaction, req: ChatRequest, ctx: TranslateContext): StreamFrame[] {
  let seq = 0;
  const frame = (type: string, payload: Wire): StreamFrame => ({ event: type, data: JSON.stringify({ type, sequence_number: seq++, ...payload }) });
  const head = headOf(c, ctx);
  const item = compactionItem(c, ctx);
  const open = responseObject(head, req, [], undefined, undefined);
  return [
    frame('response.created', { response: open }),
    frame('response.in_progress', { response: open }),
    frame('response.output_item.added', { output_index: 0, item }),
    frame('response.output_item.done', { output_index: 0, item }),
    frame('response.completed', { response: responseObject(head, req, [item], { status: 'completed' }, c.usage ?? NO_USAGE) }),
  ];
}

/**
 * `POST /responses/compact`: the caller's user messages (not tool outputs, not an earlier
 * compaction's summary, which the new one takes in), then the compaction.
 */
export function compacted(c: Compaction, req: ChatRequest, ctx: TranslateContext): Wire {
  // Stryker disable next-line ArrayDeclaration: never read; what the user turns hold was checked when the request was decoded
  const unreported: Warning[] = [];
  // Stryker disable next-line StringLiteral,ArrowFunction: the path only places warnings, and these are never read
  const at = (i: number) => `messages[${i}]`;
  const users = req.messages.flatMap((m, i) => (m.role === 'user' && !m.summary ? userItems(m.content, at(i), unreported).filter((it) => it['type'] === 'message') : []));
  return { id: ctx.newId('resp_'), object: 'response.compaction', created_at: c.created, output: [...users, compactionItem(c, ctx)], usage: encodeUsage(c.usage ?? NO_USAGE) };
}

/**
 * Caller side: output items as the Responses API writes them, for the JSON response and the
 * stream alike (the stream's `output_item.done` carries the same complete item).
 *
 * Signatures ride in what a Responses caller echoes unchanged: a reasoning item's
 * `encrypted_content` (OpenAI's own value as it is; another vendor's block whole — its text and
 * its signature or redacted data — wrapped by `encodeReasoning`, so it is only replayed to its
 * issuer and comes back the block it was even when the caller asked for no summary), and a tool call's `call_id` (a Gemini signature of the
 * call, `encodeToolCallId`). A Gemini signature on answer text becomes an empty reasoning item
 * after the message. Encrypted content is only written when the caller's `include` asked for it.
 */
import {
  encodeCompaction,
  encodeReasoning,
  encodeToolCallId,
  lendCallSignatures,
  type CarriedReasoning,
  type ChatRequest,
  type Compaction,
  type Part,
  type ReasoningPart,
  type Signature,
  type TokenLogprob,
} from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { responsesExtras } from './decode-request.ts';
import type { HostedItem } from './decode-response.ts';
import type { Wire } from './encode-settings.ts';
import { encodeLogprobs } from './logprobs.ts';
import { encodeAnnotations } from './citations.ts';
import { webSearchItem } from './web-search.ts';

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** What the caller's request says about how output items are written. */
export interface OutputOptions {
  /** Reasoning summaries requested (`reasoning.summary`). */
  summaries: boolean;
  /** `include: ["reasoning.encrypted_content"]`. */
  encrypted: boolean;
  /** `include: ["message.output_text.logprobs"]`. */
  logprobs: boolean;
}

export function outputOptions(req: ChatRequest): OutputOptions {
  return { summaries: req.reasoning?.includeThoughts === true, encrypted: responsesExtras(req)?.encryptedReasoning === true, logprobs: req.logprobs === true };
}

/** The value a caller echoes back for a reasoning block: OpenAI's own raw, any other vendor's block wrapped whole. */
export function encryptedOf(r: CarriedReasoning): string | undefined {
  if (r.redacted) return encodeReasoning({ text: r.text, redacted: r.redacted });
  if (!r.signature) return undefined;
  return r.signature.origin === 'openai' ? r.signature.value : encodeReasoning({ text: r.text, signature: r.signature });
}

export function outputText(text: string, annotations: unknown[], logprobs: readonly TokenLogprob[]): Wire {
  return { type: 'output_text', annotations, logprobs: encodeLogprobs(logprobs), text };
}

export function messageItem(id: string, content: Wire[], status: ItemStatus): Wire {
  return { id, type: 'message', status, content, role: 'assistant' };
}

export function toolCallItem(id: string, call: { id: string; name: string; custom?: boolean; signature?: Signature }, args: string, status: ItemStatus): Wire {
  const callId = encodeToolCallId(call.id, call.signature);
  return call.custom
    ? { id, type: 'custom_tool_call', status, call_id: callId, name: call.name, input: args }
    : { id, type: 'function_call', status, arguments: args, call_id: callId, name: call.name };
}

export function reasoningItem(id: string, summary: readonly string[], carried: CarriedReasoning | undefined, opts: OutputOptions): Wire {
  const encrypted = opts.encrypted && carried ? encryptedOf(carried) : undefined;
  return {
    id,
    type: 'reasoning',
    summary: opts.summaries ? summary.filter((t) => t !== '').map((text) => ({ type: 'summary_text', text })) : [],
    ...(encrypted ? { encrypted_content: encrypted } : {}),
  };
}

/** Item id prefixes, as the API uses them. */
/** A compaction the proxy made, as a `compaction` item: our carrier of its summary (src/canonical/carrier.ts). */
export function compactionItem(c: Compaction, ctx: TranslateContext): Wire {
  return { id: ctx.newId('cmp_'), type: 'compaction', encrypted_content: encodeCompaction({ summary: c.summary, origin: c.origin }) };
}

export const ITEM_PREFIX = { message: 'msg_', function: 'fc_', custom: 'ctc_', reasoning: 'rs_' } as const;

/** The output as the store keeps it: every item with its encrypted reasoning, and the ids of those the caller was not shown. */
export interface KeptOutput {
  items: Wire[];
  hidden: string[];
}

/** A reasoning item as the store keeps it: with its encrypted content, whatever the caller asked (the same object when there is none). */
export function keptReasoning(item: Wire, carried: CarriedReasoning | undefined): Wire {
  const encrypted = item['encrypted_content'] === undefined && carried ? encryptedOf(carried) : undefined;
  return encrypted ? { ...item, encrypted_content: encrypted } : item;
}

/**
 * A whole choice's parts → output items, with the choice's kept built-in tool items (from an
 * openai-responses upstream) put back where they were. With `kept`, each item also goes there as
 * the store keeps it (the same ids).
 */
export function outputOf(given: readonly Part[], hosted: readonly HostedItem[], status: ItemStatus, opts: OutputOptions, ctx: TranslateContext, kept?: KeptOutput): Wire[] {
  // A reasoning item Gemini left unsigned (it signs the call after it) carries that call's signature.
  const parts = lendCallSignatures(given);
  const out: Wire[] = [];
  const push = (item: Wire, asKept: Wire = item) => {
    out.push(item);
    kept?.items.push(asKept);
  };
  let message: Wire[] | undefined;
  let pendingTextSignature: Signature | undefined;
  const close = () => {
    if (message) push(messageItem(ctx.newId(ITEM_PREFIX.message), message, status));
    message = undefined;
    if (pendingTextSignature && (opts.encrypted || kept)) {
      const carried = { text: '', signature: pendingTextSignature };
      const item = reasoningItem(ctx.newId(ITEM_PREFIX.reasoning), [], carried, opts);
      if (opts.encrypted) push(item);
      else {
        // Only a caller asking for encrypted reasoning sees it; the store keeps it all the same.
        kept!.items.push(keptReasoning(item, carried));
        kept!.hidden.push(item['id'] as string);
      }
    }
    pendingTextSignature = undefined;
  };
  const reasoning = (p: ReasoningPart) => {
    const item = reasoningItem(ctx.newId(ITEM_PREFIX.reasoning), [p.text], p, opts);
    push(item, kept ? keptReasoning(item, p) : item);
  };
  let h = 0;
  parts.forEach((p, k) => {
    for (; h < hosted.length && hosted[h]!.at <= k; h++) {
      close();
      push(hosted[h]!.item as Wire);
    }
    switch (p.type) {
      case 'text':
        (message ??= []).push(outputText(p.text, encodeAnnotations(p.citations, p.text.length), []));
        if (p.signature) pendingTextSignature = p.signature;
        return;
      case 'refusal':
        (message ??= []).push({ type: 'refusal', refusal: p.text });
        return;
      case 'reasoning':
        close();
        reasoning(p);
        return;
      case 'web-search':
        close();
        push(webSearchItem(p, ctx));
        return;
      case 'tool-call':
        close();
        push(toolCallItem(ctx.newId(p.custom ? ITEM_PREFIX.custom : ITEM_PREFIX.function), p, p.arguments, 'completed'));
        return;
      default:
        return; // images, files, audio and tool results have no place among output items
    }
  });
  close();
  for (; h < hosted.length; h++) push(hosted[h]!.item as Wire);
  return out;
}

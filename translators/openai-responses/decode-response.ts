/**
 * Upstream side: a Response object → canonical `ChatResponse`. Output items in order:
 * `reasoning` → a reasoning part (summaries joined, `encrypted_content` as its OpenAI signature),
 * `message` → text (annotations kept as citations, logprobs) and refusal parts, `function_call` →
 * a tool call, `custom_tool_call` → a freeform tool call with the raw input. Items of built-in
 * tools (web_search_call, code_interpreter_call, …) have no canonical part: they are kept in the
 * choice's extras with their position, for a Responses caller, and ignored by other callers.
 * A `failed` Response is its error.
 */
import * as v from 'valibot';
import {
  decodeToolCallId,
  ProxyError,
  type ChatRequest,
  type ChatResponse,
  type Choice,
  type Part,
  type TokenLogprob,
} from '../../src/canonical/index.ts';
import {
  safeParseAsIs,
} from '../../src/kit/index.ts';
import type { TranslateContext } from '../types.ts';
import { reasoningPart } from './decode-input.ts';
import { errorOfFailedResponse } from './errors.ts';
import { decodeFinishReason } from './finish-reason.ts';
import { decodeLogprobs } from './logprobs.ts';
import { decodeUsage } from './usage.ts';
import { OutputItemSchema, ResponseBodySchema, type ResponsesOutputItem } from './wire.ts';
import { decodeAnnotation } from './citations.ts';
import { decodeWebSearchCall } from './web-search.ts';

/** Built-in tool items of a response, each with the number of canonical parts before it. */
export interface HostedItem {
  at: number;
  item: unknown;
}

/** Canonical parts of one output item (none for items of built-in tools). */
export function partsOfItem(item: ResponsesOutputItem): Part[] | undefined {
  switch (item.type) {
    case 'reasoning':
      return [reasoningPart(item.summary ?? [], item.encrypted_content)];
    case 'message':
      return (item.content ?? []).flatMap((c): Part[] => {
        if (c.type === 'output_text') {
          return [{ type: 'text', text: c.text ?? '', ...(c.annotations && c.annotations.length > 0 ? { citations: c.annotations.map(decodeAnnotation) } : {}) }];
        }
        if (c.type === 'refusal') return [{ type: 'refusal', text: c.refusal ?? '' }];
        return [];
      });
    case 'function_call':
    case 'custom_tool_call': {
      const { id, signature } = decodeToolCallId(item.call_id ?? item.id ?? '');
      return [{
        type: 'tool-call',
        id,
        name: item.name ?? '',
        arguments: (item.type === 'function_call' ? item.arguments : item.input) ?? '',
        ...(item.type === 'custom_tool_call' ? { custom: true as const } : {}),
        ...(signature ? { signature } : {}),
      }];
    }
    default:
      return undefined;
  }
}

export function decodeResponse(body: unknown, req: ChatRequest, ctx: TranslateContext): ChatResponse {
  // Valid as it is (nearly always): no copy.
  const parsed = safeParseAsIs(v.safeParse, ResponseBodySchema, body);
  if (!parsed.success) {
    throw new ProxyError('upstream', 'The upstream returned a body that is not a Response.', { raw: JSON.stringify(body) });
  }
  const r = parsed.output;
  if (r.status === 'failed') throw errorOfFailedResponse(r.error, JSON.stringify(body));
  const content: Part[] = [];
  const hosted: HostedItem[] = [];
  const tokens: TokenLogprob[] = [];
  for (const raw of r.output) {
    const search = decodeWebSearchCall(raw);
    if (search) {
      content.push(search);
      continue;
    }
    const item = v.safeParse(OutputItemSchema, raw);
    const parts = item.success ? partsOfItem(item.output) : undefined;
    if (!parts) {
      hosted.push({ at: content.length, item: raw });
      continue;
    }
    content.push(...parts);
    for (const c of item.success ? (item.output.content ?? []) : []) if (c.logprobs) tokens.push(...(decodeLogprobs(c.logprobs) ?? []));
  }
  const choice: Choice = {
    index: 0,
    content,
    finishReason: decodeFinishReason(r.status, r.incomplete_details?.reason, {
      toolCalls: content.some((p) => p.type === 'tool-call'),
      refusedOnly: content.some((p) => p.type === 'refusal') && !content.some((p) => p.type === 'text'),
    }),
  };
  if (tokens.length > 0) choice.logprobs = { content: tokens };
  if (hosted.length > 0) choice.extras = { dialect: 'openai-responses', fields: { hosted } };
  const res: ChatResponse = {
    id: r.id || ctx.newId('resp_'),
    model: r.model || req.model,
    created: r.created_at ?? Math.floor(ctx.now() / 1000),
    choices: [choice],
  };
  if (r.usage) res.usage = decodeUsage(r.usage);
  return res;
}

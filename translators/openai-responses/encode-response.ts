/**
 * Caller side: canonical `ChatResponse` → a Response object (`object: "response"`), echoing the
 * request settings the SDK types require (tools, tool_choice, text, reasoning, instructions…).
 * The stream encoder builds its `response.created` … `response.completed` objects here too.
 */
import type { ChatRequest, ChatResponse, ProxyError, TokenLogprob, Usage, Warning } from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { responsesExtras } from './decode-request.ts';
import type { HostedItem } from './decode-response.ts';
import { compactionItem, outputOf, outputOptions, type ItemStatus, type KeptOutput } from './encode-output.ts';
import { encodeFormat, encodeReasoning, encodeToolChoice, encodeTools, type Wire } from './encode-settings.ts';
import { responseErrorOf } from './errors.ts';
import { encodeFinishReason, type ResponseEnd } from './finish-reason.ts';
import { encodeLogprobs } from './logprobs.ts';
import type { KeptResponse } from './state.ts';
import { encodeUsage } from './usage.ts';

/**
 * A Response id: an upstream of this dialect's own (`resp_…`: it keeps that response, and the
 * caller names it there), else one of ours. Never made from another vendor's id: the flow hands
 * over none when the proxy keeps the state (an id must not depend on the upstream).
 */
export function responseId(id: string | undefined, ctx: TranslateContext): string {
  return id && id.startsWith('resp_') ? id : ctx.newId('resp_');
}

export interface ResponseHead {
  id: string;
  model: string;
  createdAt: number;
}

const obj = (v: unknown): Wire => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Wire) : {});

/** The request settings a Response echoes, from the canonical request and this dialect's extras. */
function echo(req: ChatRequest): Wire {
  const extras = responsesExtras(req);
  const fields = { ...extras?.hints, ...extras?.fields };
  const system = req.system.flatMap((p) => (p.type === 'text' ? [p.text] : []));
  // Stryker disable next-line ArrayDeclaration: never read; the echo's warnings were the request's, reported when it was encoded
  const unreported: Warning[] = [];
  const reasoning = { effort: null, summary: null, ...(req.reasoning ? encodeReasoning(req.reasoning, unreported) : {}), ...obj(fields['reasoning']) };
  return {
    instructions: system.length > 0 ? system.join('\n\n') : null,
    max_output_tokens: req.maxOutputTokens ?? null,
    parallel_tool_calls: req.parallelToolCalls ?? true,
    previous_response_id: fields['previous_response_id'] ?? null,
    prompt_cache_key: fields['prompt_cache_key'] ?? null,
    reasoning,
    safety_identifier: fields['safety_identifier'] ?? null,
    service_tier: fields['service_tier'] ?? 'default',
    store: fields['store'] ?? true,
    temperature: req.temperature ?? 1,
    text: { format: req.responseFormat ? encodeFormat(req.responseFormat) : { type: 'text' }, verbosity: obj(fields['text'])['verbosity'] ?? 'medium' },
    tool_choice: fields['tool_choice'] ?? (req.toolChoice ? encodeToolChoice(req.toolChoice, req.tools ?? []) : 'auto'),
    tools: encodeTools(req, unreported),
    top_logprobs: req.topLogprobs ?? 0,
    top_p: req.topP ?? 1,
    truncation: fields['truncation'] ?? 'disabled',
    ...(req.user !== undefined ? { user: req.user } : {}),
    metadata: req.metadata ?? {},
  };
}

/**
 * A whole Response object. `end` undefined is a Response still in progress (the stream's
 * `response.created` / `response.in_progress`).
 */
export function responseObject(head: ResponseHead, req: ChatRequest, output: Wire[], end: ResponseEnd | undefined, usage: Usage | undefined): Wire {
  return {
    id: head.id,
    object: 'response',
    created_at: head.createdAt,
    status: end?.status ?? 'in_progress',
    background: false,
    error: end?.status === 'failed' ? { code: end.code, message: end.message } : null,
    incomplete_details: end?.status === 'incomplete' ? { reason: end.reason } : null,
    model: head.model,
    output,
    // Omitted until known: the document types `usage` as an object (the service writes null).
    ...(usage ? { usage: encodeUsage(usage) } : {}),
    ...echo(req),
  };
}

/** How a stream or response that failed with `err` ends. */
export function failedEnd(err: ProxyError): ResponseEnd {
  return { status: 'failed', ...responseErrorOf(err) };
}

/** Put a choice's log probabilities on its first output text. */
function withLogprobs(output: Wire[], tokens: readonly TokenLogprob[]): Wire[] {
  for (const item of output) {
    if (item['type'] !== 'message') continue;
    const text = (item['content'] as Wire[]).find((c) => c['type'] === 'output_text');
    if (text) {
      text['logprobs'] = encodeLogprobs(tokens);
      break;
    }
  }
  return output;
}

function encode(res: ChatResponse, req: ChatRequest, ctx: TranslateContext, kept?: KeptOutput): Wire {
  const choice = res.choices[0];
  const end: ResponseEnd = res.promptBlocked && !choice ? { status: 'incomplete', reason: 'content_filter' } : encodeFinishReason(choice?.finishReason);
  const status: ItemStatus = end.status === 'completed' ? 'completed' : 'incomplete';
  const opts = outputOptions(req);
  const hosted = choice?.extras?.dialect === 'openai-responses' ? ((choice.extras.fields['hosted'] as HostedItem[] | undefined) ?? []) : [];
  let output = choice ? outputOf(choice.content, hosted, status, opts, ctx, kept) : [];
  if (opts.logprobs && choice?.logprobs) output = withLogprobs(output, choice.logprobs.content);
  // A compaction the proxy made before the turn comes first, as the API's server-side compaction does.
  if (req.compacted) output = [compactionItem(req.compacted, ctx), ...output];
  return responseObject({ id: responseId(res.id, ctx), model: res.model, createdAt: res.created }, req, output, end, res.usage);
}

export function encodeResponse(res: ChatResponse, req: ChatRequest, ctx: TranslateContext): unknown {
  return encode(res, req, ctx);
}

/** The Response as the caller gets it, and as the store keeps it (`KeptResponse`, state.ts). */
export function encodeKept(res: ChatResponse, req: ChatRequest, ctx: TranslateContext): { answer: unknown; kept: KeptResponse } {
  const kept: KeptOutput = { items: [], hidden: [] };
  const answer = encode(res, req, ctx, kept);
  return { answer, kept: keptResponse(answer, kept) };
}

/** What is kept of `response`: its output as kept only where that differs from what was shown. */
export function keptResponse(response: Wire, kept: KeptOutput): KeptResponse {
  const shownOutput = response['output'] as Wire[];
  const richer = kept.hidden.length > 0 || kept.items.some((item, i) => item !== shownOutput[i]);
  return { response, ...(richer && { output: kept.items }), ...(kept.hidden.length > 0 && { hidden: kept.hidden }) };
}

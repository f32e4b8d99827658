/**
 * Upstream side: canonical `ChatRequest` → `POST {base}/responses`, stateless by default
 * (`store: false`): the whole conversation goes in `input`, and when reasoning is on,
 * `include: ["reasoning.encrypted_content"]` brings the reasoning back as a signature the next
 * turn can replay. Also: the same-dialect passthrough, `POST /responses/input_tokens`, and
 * `GET /models`.
 */
import {
  jsonBody,
} from '../../src/kit/index.ts';
import {
  cacheControlWarnings,
  extrasFor,
  type ChatRequest,
  type Converted,
  type Warning,
} from '../../src/canonical/index.ts';
import type { TranslateContext, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { INCLUDE_ENCRYPTED, INCLUDE_LOGPROBS } from './decode-request.ts';
import { encodeInput } from './encode-input.ts';
import { encodeFormat, encodeReasoning, encodeToolChoice, encodeTools, reasoningOn, type Wire } from './encode-settings.ts';
import { bearerJsonHeaders } from '../vendor/openai/index.ts';

export function upstreamHeaders(target: UpstreamTarget): Record<string, string> {
  return bearerJsonHeaders(target.apiKey, target.options.headers);
}

export const asObject = (v: unknown): Wire => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Wire) : {});

/** The request body (also the base of a token count). */
export function encodeBody(req: ChatRequest, target: UpstreamTarget): Converted<Wire> {
  const warnings: Warning[] = [];
  const extras = extrasFor(req, 'openai-responses');
  warnings.push(...extras.warnings);
  const { include: extraInclude, text: extraText, reasoning: extraReasoning, ...extraFields } = extras.fields;

  const body: Wire = { ...extraFields, model: target.model };
  const { instructions, input } = encodeInput(req, warnings);
  if (instructions !== undefined) body['instructions'] = instructions;
  body['input'] = input;

  const tools = encodeTools(req, warnings);
  if (tools.length > 0) body['tools'] = tools;
  // A caller's own forced web search (a hint, replayed as written) stands over the neutral choice.
  if (req.toolChoice && !(req.toolChoice.type === 'web' && extraFields['tool_choice'] !== undefined)) {
    if (tools.length > 0 || req.toolChoice.type === 'none' || req.toolChoice.type === 'auto') body['tool_choice'] = encodeToolChoice(req.toolChoice, req.tools ?? []);
    else warnings.push({ code: 'dropped', path: 'toolChoice', detail: 'no tools', lossy: true });
  }
  if (req.parallelToolCalls !== undefined) body['parallel_tool_calls'] = req.parallelToolCalls;
  // Server-side compaction a Responses caller asked for, as it asked (elsewhere the flow makes it).
  if (req.contextManagement?.dialect === 'openai-responses') body['context_management'] = req.contextManagement.raw;

  if (req.maxOutputTokens !== undefined) body['max_output_tokens'] = req.maxOutputTokens;
  if (req.temperature !== undefined) body['temperature'] = req.temperature;
  if (req.topP !== undefined) body['top_p'] = req.topP;
  for (const [key, value] of [['topK', req.topK], ['stop', req.stop], ['seed', req.seed], ['presencePenalty', req.presencePenalty], ['frequencyPenalty', req.frequencyPenalty]] as const) {
    if (value !== undefined) warnings.push({ code: 'dropped', path: key, lossy: true });
  }
  if (req.candidateCount !== undefined && req.candidateCount > 1) warnings.push({ code: 'dropped', path: 'candidateCount', lossy: true });
  if (req.modalities?.some((m) => m !== 'text')) warnings.push({ code: 'dropped', path: 'modalities', detail: req.modalities.join(','), lossy: true });
  warnings.push(...cacheControlWarnings(req));

  const include = new Set<string>(Array.isArray(extraInclude) ? (extraInclude as string[]) : []);
  if (req.logprobs) {
    include.add(INCLUDE_LOGPROBS);
    if (req.topLogprobs !== undefined) {
      if (req.topLogprobs > 20) warnings.push({ code: 'clamped', path: 'topLogprobs', detail: '20' });
      body['top_logprobs'] = Math.min(req.topLogprobs, 20);
    }
  }
  const reasoning = req.reasoning ? encodeReasoning(req.reasoning, warnings) : undefined;
  if (reasoning || extraReasoning) body['reasoning'] = { ...reasoning, ...asObject(extraReasoning) };
  if (reasoningOn(req)) include.add(INCLUDE_ENCRYPTED);
  if (include.size > 0) body['include'] = [...include];

  const text: Wire = { ...asObject(extraText) };
  if (req.responseFormat) text['format'] = encodeFormat(req.responseFormat);
  if (Object.keys(text).length > 0) body['text'] = text;

  if (req.user !== undefined) body['safety_identifier'] = req.user;
  if (req.metadata !== undefined) body['metadata'] = req.metadata;
  const cacheKey = target.options.promptCacheKey;
  if (cacheKey !== undefined && body['prompt_cache_key'] === undefined) body['prompt_cache_key'] = cacheKey;
  body['store'] = typeof extraFields['store'] === 'boolean' ? extraFields['store'] : false;
  if (req.stream) body['stream'] = true;
  else delete body['stream_options'];
  return { value: body, warnings };
}

export function encodeRequest(req: ChatRequest, target: UpstreamTarget, _ctx?: TranslateContext): Converted<UpstreamHttpRequest> {
  const { value, warnings } = encodeBody(req, target);
  return {
    value: { method: 'POST', path: '/responses', headers: upstreamHeaders(target), body: jsonBody(value, 'input', target.sent), stream: req.stream },
    warnings,
  };
}

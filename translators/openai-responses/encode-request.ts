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
  ProxyError,
  type ChatRequest,
  type Converted,
  type Warning,
} from '../../src/canonical/index.ts';
import type { CallerInput, TranslateContext, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { INCLUDE_ENCRYPTED, INCLUDE_LOGPROBS } from './decode-request.ts';
import { encodeInput } from './encode-input.ts';
import { encodeFormat, encodeReasoning, encodeToolChoice, encodeTools, reasoningOn, type Wire } from './encode-settings.ts';
import { bearerJsonHeaders } from '../vendor/openai/index.ts';

export function upstreamHeaders(target: UpstreamTarget): Record<string, string> {
  return bearerJsonHeaders(target.apiKey, target.options.headers);
}

const asObject = (v: unknown): Wire => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Wire) : {});

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
    value: { method: 'POST', path: '/responses', headers: upstreamHeaders(target), body: jsonBody(value, 'input'), stream: req.stream },
    warnings,
  };
}

/** What `POST /responses/input_tokens` takes of a request. */
const COUNT_FIELDS = ['model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning', 'text', 'truncation', 'conversation', 'previous_response_id'];

export function encodeCountTokens(req: ChatRequest, target: UpstreamTarget): UpstreamHttpRequest {
  const { value } = encodeBody(req, target);
  const body: Wire = {};
  for (const key of COUNT_FIELDS) body[key] = value[key]; // unset ones vanish in JSON
  return { method: 'POST', path: '/responses/input_tokens', headers: upstreamHeaders(target), body: JSON.stringify(body), stream: false };
}

export function decodeCountTokens(body: unknown): number {
  const n = asObject(body)['input_tokens'];
  if (!Number.isFinite(n)) throw new ProxyError('upstream', 'The upstream token count has no input_tokens.'); // false for any non-number
  return n as number;
}

/** Caller headers worth forwarding to an OpenAI upstream on the passthrough path. */
const FORWARDED_HEADERS = ['openai-organization', 'openai-project', 'openai-beta'];

/** A response id as exactly one path segment (`.`/`..` and the empty id refused). */
function idSegment(id: string | undefined): string {
  const encoded = encodeURIComponent(id ?? '');
  if (encoded === '' || encoded === '.' || encoded === '..') {
    throw new ProxyError('invalid-request', `The response id '${id ?? ''}' cannot be sent to the upstream.`, { param: 'response_id' });
  }
  return encoded;
}

/**
 * Same dialect both sides: the caller's body byte for byte unless the model is renamed
 * (`store`, `previous_response_id`, `background`, `conversation`, built-in tools all left to the
 * upstream), credentials replaced. The route names what it serves in `params.method`:
 * none → `POST /responses`; `input_tokens` → `POST /responses/input_tokens`; with the response id
 * in `params.id`: `retrieve` → `GET /responses/{id}` (query kept), `delete` →
 * `DELETE /responses/{id}`, `input_items` → `GET /responses/{id}/input_items`, `cancel` →
 * `POST /responses/{id}/cancel`.
 */
/** `encodePassthrough` of a create call whose body is forwarded as bytes (only its `model` renamed). */
export function forwardRequest(input: CallerInput, peeked: { model: string; stream: boolean }, target: UpstreamTarget) {
  if (input.params.method !== undefined) return undefined;
  const bare = { headers: input.headers, params: input.params, query: input.query, body: peeked };
  const { body: _, ...request } = encodePassthrough(bare, '', target);
  return { request, model: peeked.model === target.model ? undefined : target.model };
}

export function encodePassthrough(input: CallerInput, rawBody: string, target: UpstreamTarget): UpstreamHttpRequest {
  const headers = upstreamHeaders(target);
  for (const name of FORWARDED_HEADERS) {
    const value = input.headers[name];
    if (value !== undefined && headers[name] === undefined) headers[name] = value;
  }
  const query = new URLSearchParams(input.query).toString();
  const withQuery = (path: string) => (query ? `${path}?${query}` : path);
  const { 'content-type': _json, ...getHeaders } = headers;
  switch (input.params.method) {
    case 'retrieve':
      return { method: 'GET', path: withQuery(`/responses/${idSegment(input.params.id)}`), headers: getHeaders, stream: input.query.stream === 'true' };
    case 'input_items':
      return { method: 'GET', path: withQuery(`/responses/${idSegment(input.params.id)}/input_items`), headers: getHeaders, stream: false };
    case 'delete':
      return { method: 'DELETE', path: `/responses/${idSegment(input.params.id)}`, headers: getHeaders, stream: false };
    case 'cancel':
      return { method: 'POST', path: `/responses/${idSegment(input.params.id)}/cancel`, headers: getHeaders, stream: false };
    default:
      break;
  }
  const body = input.body !== null && typeof input.body === 'object' && !Array.isArray(input.body) ? (input.body as Wire) : undefined;
  const count = input.params.method === 'input_tokens';
  const compact = input.params.method === 'compact';
  // A session's key for the prompt cache when the caller sent none (not to a token count).
  const cacheKey = !count && body && body['prompt_cache_key'] === undefined ? target.options.promptCacheKey : undefined;
  const out = !body || (body['model'] === target.model && cacheKey === undefined) ? rawBody : JSON.stringify({ ...body, model: target.model, ...(cacheKey !== undefined && { prompt_cache_key: cacheKey }) });
  return {
    method: 'POST',
    path: count ? '/responses/input_tokens' : compact ? '/responses/compact' : '/responses',
    headers,
    body: out,
    stream: !count && body?.['stream'] === true,
  };
}

export function encodeModelListRequest(target: UpstreamTarget): UpstreamHttpRequest {
  const { 'content-type': _json, ...headers } = upstreamHeaders(target);
  return { method: 'GET', path: '/models', headers, stream: false };
}

/** The upstream's model list: `data[].id` (OpenAI), or `models[].slug` (Codex's catalogue shape). */
export function decodeModelList(body: unknown): string[] {
  const obj = asObject(body);
  const data = Array.isArray(obj['data']) ? (obj['data'] as unknown[]).map((m) => asObject(m)['id']) : [];
  const models = Array.isArray(obj['models']) ? (obj['models'] as unknown[]).map((m) => asObject(m)['slug'] ?? asObject(m)['id']) : [];
  return [...new Set([...data, ...models].filter((id): id is string => typeof id === 'string'))];
}

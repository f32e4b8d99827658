/** Token counting: `POST /responses/input_tokens` (the caller's route and an upstream's endpoint). */
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import type { UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { asObject, encodeBody, upstreamHeaders } from './encode-request.ts';
import type { Wire } from './encode-settings.ts';

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

/** `POST /v1/responses/input_tokens`. */
export function encodeCountTokensResponse(inputTokens: number): unknown {
  return { object: 'response.input_tokens', input_tokens: inputTokens };
}

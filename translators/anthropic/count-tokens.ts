/**
 * `POST /v1/messages/count_tokens`: the create body cut to the fields the endpoint takes, or, where
 * the host counts an `invoke-model` body (Bedrock), the whole create body in base64.
 */
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import { utf8ToBase64 } from '../../src/kit/index.ts';
import type { UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { encodeBody } from './encode-request.ts';
import { callerBetas, forHost, upstreamHeaders } from './host.ts';

/** Fields `count_tokens` accepts (it rejects generation settings such as max_tokens). */
const COUNT_FIELDS = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'output_config', 'mcp_servers', 'context_management'];

export function encodeCountTokens(req: ChatRequest, target: UpstreamTarget): UpstreamHttpRequest {
  const { value: full } = encodeBody({ ...req, stream: false }, target);
  const { betas, query } = callerBetas(req);
  if (target.options.countTokensBody === 'invoke-model') {
    // The create body as the host takes it, counted as a whole (UpstreamOptions.countTokensBody).
    const [body, headers] = forHost(full, upstreamHeaders(target, undefined, betas), target);
    return {
      method: 'POST',
      path: `/v1/messages/count_tokens${query}`,
      headers,
      body: JSON.stringify({ input: { invokeModel: { body: utf8ToBase64(JSON.stringify(body)) } } }),
      stream: false,
    };
  }
  const fields: Record<string, unknown> = {};
  // Stryker disable next-line ConditionalExpression: an undefined field is left out of the JSON body all the same
  for (const key of COUNT_FIELDS) if (full[key] !== undefined) fields[key] = full[key];
  const [body, headers] = forHost(fields, upstreamHeaders(target, undefined, betas), target, true);
  return {
    method: 'POST',
    path: `/v1/messages/count_tokens${query}`,
    headers,
    body: JSON.stringify(body),
    stream: false,
  };
}

/** `input_tokens`, or `inputTokens` where the count was asked as `invoke-model` (Bedrock CountTokens). */
export function decodeCountTokens(body: unknown): number {
  // Any other value has neither field (a string's or a number's properties are undefined too).
  const o = body as { input_tokens?: unknown; inputTokens?: unknown } | null | undefined;
  const n = o?.input_tokens ?? o?.inputTokens;
  // False for anything but a finite number.
  if (!Number.isFinite(n)) {
    throw new ProxyError('upstream', 'Anthropic count_tokens response has no input_tokens');
  }
  return n as number;
}

export function encodeCountTokensResponse(inputTokens: number): unknown {
  return { input_tokens: inputTokens };
}

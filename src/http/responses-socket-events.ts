/**
 * The messages a Responses WebSocket sends of its own (src/http/responses-socket.ts): an `error`
 * event as the service sends one over a socket, a route's error reply as one, and the answer to a
 * warm-up (`generate: false`).
 */
import { isJsonObject as isRecord } from '../kit/index.ts';

type Wire = Record<string, unknown>;

/** An `error` event as the service sends it over a socket: the HTTP status and the error, nested and at the top. */
export function socketError(status: number, error: { type?: string; code?: string | null; message: string; param?: string | null }, headers?: Record<string, string>): string {
  const e = { type: error.type ?? 'invalid_request_error', code: error.code ?? null, message: error.message, param: error.param ?? null };
  return JSON.stringify({ type: 'error', status, code: e.code, message: e.message, param: e.param, error: e, ...(headers && { headers }), sequence_number: 0 });
}


/** A reply that is not a stream (an error the route answered) as the socket's `error` event. */
export function errorEventOf(status: number, text: string, headers: Record<string, string>): string {
  const error = (safeJson(text) as { error?: Wire } | undefined)?.error;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const retry = headers['retry-after'];
  return socketError(
    status,
    { type: str(error?.['type']) ?? undefined, code: str(error?.['code']), message: str(error?.['message']) ?? `The request failed (${status}).`, param: str(error?.['param']) },
    retry ? { 'retry-after': retry } : undefined,
  );
}

/**
 * The answer to a warm-up (`generate: false`): `response.created` and `response.completed` for a
 * response with no output and no usage, echoing the request's settings as a response object does.
 */
export function warmupEvents(body: unknown, id: string, nowMs: number): Wire[] {
  const b = isRecord(body) ? body : {};
  const echo = (k: string, fallback: unknown) => (b[k] !== undefined ? b[k] : fallback);
  const response = (status: string, usage: unknown): Wire => ({
    id,
    object: 'response',
    created_at: Math.floor(nowMs / 1000),
    status,
    error: null,
    incomplete_details: null,
    instructions: echo('instructions', null),
    max_output_tokens: echo('max_output_tokens', null),
    model: echo('model', null),
    output: [],
    parallel_tool_calls: echo('parallel_tool_calls', true),
    previous_response_id: echo('previous_response_id', null),
    reasoning: echo('reasoning', null),
    store: echo('store', true),
    temperature: echo('temperature', null),
    text: echo('text', { format: { type: 'text' } }),
    tool_choice: echo('tool_choice', 'auto'),
    tools: echo('tools', []),
    top_p: echo('top_p', null),
    truncation: echo('truncation', 'disabled'),
    usage,
    metadata: echo('metadata', {}),
  });
  const usage = { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };
  return [
    { type: 'response.created', sequence_number: 0, response: response('in_progress', null) },
    { type: 'response.completed', sequence_number: 1, response: response('completed', usage) },
  ];
}

/** JSON text parsed, or undefined when it is not JSON. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

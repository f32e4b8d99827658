/**
 * Shared pieces of the Responses end-to-end suites: per upstream dialect, scripted answers in
 * that dialect's own wire (text, a tool call, a 429 with a retry delay, a stream that fails
 * midway) and readers for what the mock upstream received (the tools, the tool results).
 */
import { fixtureReply, responsesReply, type MockReply, type ReceivedRequest } from '../support/mock-upstream.ts';

export interface UpstreamCase {
  /** The upstream's config name and the route that reaches it. */
  name: 'openai' | 'anthropic' | 'gemini' | 'responses';
  model: string;
  /** The upstream path a call of this dialect goes to. */
  path: RegExp;
  text(text: string, stream: boolean): MockReply;
  /** One tool call: JSON `args` (a function) as the upstream says it. */
  toolCall(name: string, args: Record<string, unknown>, callId: string, stream: boolean): MockReply;
  /** 429 telling to retry after 7 seconds, in the upstream's own way. */
  rateLimited(): MockReply;
  /** Some text, then the stream breaks. */
  failingStream(): MockReply;
  /** The tools the upstream got: name → the JSON Schema of its parameters. */
  toolsSent(body: any): Record<string, any>;
  /** The tool result the upstream got for `callId`, as text. */
  toolResultSent(body: any, callId: string): string | undefined;
}

/** Upstream ids differ per answer, as real ones do (the Responses id is made from them). */
let answers = 0;
const nextId = (prefix: string) => `${prefix}_mock${++answers}`;

const sse = (events: Array<[string | undefined, unknown]>): MockReply => ({
  headers: { 'content-type': 'text/event-stream' },
  chunks: events.map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`),
});
const json = (body: unknown, status = 200, headers: Record<string, string> = {}): MockReply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

let chunkId = nextId('chatcmpl');
const openaiChunk = (delta: unknown, finish: string | null = null, usage?: unknown) => ({
  id: chunkId,
  object: 'chat.completion.chunk',
  created: 1_767_000_000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...(usage ? { usage } : {}),
});
const openaiUsage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

const openai: UpstreamCase = {
  name: 'openai',
  model: 'to-openai',
  path: /^\/v1\/chat\/completions$/,
  text: (text, stream) =>
    (chunkId = nextId('chatcmpl')) && stream
      ? sse([
          [undefined, openaiChunk({ role: 'assistant', content: '' })],
          [undefined, openaiChunk({ content: text.slice(0, 3) })],
          [undefined, openaiChunk({ content: text.slice(3) })],
          [undefined, openaiChunk({}, 'stop')],
          [undefined, { ...openaiChunk({}), choices: [], usage: openaiUsage }],
          [undefined, '[DONE]'],
        ])
      : json({
          id: chunkId,
          object: 'chat.completion',
          created: 1_767_000_000,
          model: 'gpt-4o-mini',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: openaiUsage,
        }),
  toolCall: (name, args, callId, stream) => {
    const a = JSON.stringify(args);
    chunkId = nextId('chatcmpl');
    return stream
      ? sse([
          [undefined, openaiChunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: callId, type: 'function', function: { name, arguments: '' } }] })],
          [undefined, openaiChunk({ tool_calls: [{ index: 0, function: { arguments: a.slice(0, 5) } }] })],
          [undefined, openaiChunk({ tool_calls: [{ index: 0, function: { arguments: a.slice(5) } }] })],
          [undefined, openaiChunk({}, 'tool_calls')],
          [undefined, { ...openaiChunk({}), choices: [], usage: openaiUsage }],
          [undefined, '[DONE]'],
        ])
      : json({
          id: chunkId,
          object: 'chat.completion',
          created: 1_767_000_000,
          model: 'gpt-4o-mini',
          choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name, arguments: a } }] }, finish_reason: 'tool_calls' }],
          usage: openaiUsage,
        });
  },
  rateLimited: () =>
    json({ error: { message: 'Rate limit reached for gpt-4o-mini. Please try again in 7s.', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, 429, { 'retry-after': '7' }),
  failingStream: () => ({ ...sse([[undefined, openaiChunk({ role: 'assistant', content: 'Hel' })]]), destroy: true }),
  toolsSent: (b) => Object.fromEntries((b.tools ?? []).map((t: any) => [t.function.name, t.function.parameters])),
  toolResultSent: (b, id) => b.messages.find((m: any) => m.role === 'tool' && m.tool_call_id === id)?.content,
};

const anthropicMessage = (content: unknown[], stop: string, id = nextId('msg')) => ({
  id,
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 11, output_tokens: 7 },
});
const anthropicStream = (block: Record<string, unknown>, deltas: unknown[], stop: string): MockReply =>
  sse([
    ['message_start', { type: 'message_start', message: { ...anthropicMessage([], stop), stop_reason: null, usage: { input_tokens: 11, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: block }],
    ...deltas.map((delta): [string, unknown] => ['content_block_delta', { type: 'content_block_delta', index: 0, delta }]),
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 7 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);

const anthropic: UpstreamCase = {
  name: 'anthropic',
  model: 'to-anthropic',
  path: /^\/v1\/messages$/,
  text: (text, stream) =>
    stream
      ? anthropicStream({ type: 'text', text: '' }, [{ type: 'text_delta', text: text.slice(0, 3) }, { type: 'text_delta', text: text.slice(3) }], 'end_turn')
      : json(anthropicMessage([{ type: 'text', text }], 'end_turn')),
  toolCall: (name, args, callId, stream) => {
    const a = JSON.stringify(args);
    return stream
      ? anthropicStream({ type: 'tool_use', id: callId, name, input: {} }, [{ type: 'input_json_delta', partial_json: a.slice(0, 5) }, { type: 'input_json_delta', partial_json: a.slice(5) }], 'tool_use')
      : json(anthropicMessage([{ type: 'tool_use', id: callId, name, input: args }], 'tool_use'));
  },
  rateLimited: () => json({ type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit.' } }, 429, { 'retry-after': '7' }),
  failingStream: () => fixtureReply('anthropic', 'stream-error-overloaded-midstream.sse'),
  toolsSent: (b) => Object.fromEntries((b.tools ?? []).map((t: any) => [t.name, t.input_schema])),
  toolResultSent: (b, id) => {
    for (const m of b.messages) {
      for (const p of Array.isArray(m.content) ? m.content : []) {
        if (p.type === 'tool_result' && p.tool_use_id === id) return typeof p.content === 'string' ? p.content : p.content.map((c: any) => c.text).join('');
      }
    }
    return undefined;
  },
};

const geminiChunk = (parts: unknown[], finish?: string) => ({
  candidates: [{ content: { role: 'model', parts }, ...(finish ? { finishReason: finish } : {}), index: 0 }],
  ...(finish ? { usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 } } : {}),
  modelVersion: 'gemini-2.5-flash',
});
const geminiSse = (chunks: unknown[]): MockReply => ({
  headers: { 'content-type': 'text/event-stream' },
  chunks: chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`),
});

const gemini: UpstreamCase = {
  name: 'gemini',
  model: 'to-gemini',
  path: /^\/v1beta\/models\/gemini-2\.5-flash:(generateContent|streamGenerateContent\?alt=sse)$/,
  text: (text, stream) =>
    stream ? geminiSse([geminiChunk([{ text: text.slice(0, 3) }]), geminiChunk([{ text: text.slice(3) }], 'STOP')]) : json(geminiChunk([{ text }], 'STOP')),
  toolCall: (name, args, _callId, stream) =>
    stream ? geminiSse([geminiChunk([{ functionCall: { name, args } }], 'STOP')]) : json(geminiChunk([{ functionCall: { name, args } }], 'STOP')),
  rateLimited: () =>
    json(
      {
        error: {
          code: 429,
          message: 'You exceeded your current quota.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }],
        },
      },
      429,
    ),
  failingStream: () => ({ ...geminiSse([geminiChunk([{ text: 'Hel' }])]), destroy: true }),
  toolsSent: (b) => Object.fromEntries((b.tools ?? []).flatMap((t: any) => t.functionDeclarations ?? []).map((f: any) => [f.name, f.parametersJsonSchema ?? f.parameters])),
  toolResultSent: (b, _id) => {
    for (const c of b.contents) for (const p of c.parts) if (p.functionResponse) return JSON.stringify(p.functionResponse.response);
    return undefined;
  },
};

const responses: UpstreamCase = {
  name: 'responses',
  model: 'to-responses',
  path: /^\/v1\/responses$/,
  text: (text, stream) => responsesReply({ id: nextId('resp'), items: [{ type: 'message', text }] }, stream),
  toolCall: (name, args, callId, stream) => responsesReply({ id: nextId('resp'), items: [{ type: 'function_call', name, arguments: JSON.stringify(args), callId }] }, stream),
  rateLimited: () =>
    json({ error: { message: 'Rate limit reached for gpt-5-mini. Please try again in 7s.', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, 429, { 'retry-after': '7' }),
  failingStream: () =>
    responsesReply({ items: [{ type: 'message', text: 'Hello' }, { type: 'message', text: 'never' }], failAfter: { items: 1, code: 'server_error', message: 'The server had an error.' } }, true),
  toolsSent: (b) => Object.fromEntries((b.tools ?? []).map((t: any) => [t.name, t.type === 'custom' ? { custom: t.format } : t.parameters])),
  toolResultSent: (b, id) => b.input.find((i: any) => (i.type === 'function_call_output' || i.type === 'custom_tool_call_output') && i.call_id === id)?.output,
};

export const UPSTREAMS: UpstreamCase[] = [openai, anthropic, gemini, responses];

/** Codex's freeform `apply_patch` (its shape; the grammar is ours). */
export const applyPatchTool = {
  type: 'custom' as const,
  name: 'apply_patch',
  description: 'Edit files with a patch. FREEFORM: send the patch itself, not JSON.',
  format: {
    type: 'grammar' as const,
    syntax: 'lark' as const,
    definition: 'start: "*** Begin Patch" LF hunk+ "*** End Patch" LF?\nhunk: /(.|\\n)+?/\n%import common.LF',
  },
};

export const PATCH = '*** Begin Patch\n*** Update File: src/greet.ts\n@@\n-  return "Hello, " + name;\n+  return `Grüß dich, ${name} 👋`;\n*** End Patch\n';

export const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Weather for a place',
  strict: false,
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false },
};

/** The upstream request of a test (the first one on the path of that dialect). */
export function sentTo(requests: ReceivedRequest[], u: UpstreamCase): ReceivedRequest {
  const got = requests.find((r) => u.path.test(r.url));
  if (!got) throw new Error(`nothing reached ${u.name}: ${requests.map((r) => r.url).join(', ')}`);
  return got;
}

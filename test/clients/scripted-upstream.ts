/**
 * Scripted model turns for the real-client runs: a mock upstream that answers in its own dialect's
 * wire (JSON or stream, as the proxy asked), picking the turn by how many tool results the request
 * already carries — so the client's tool loop, not a request counter, drives the script.
 */
import type { MockHandler, MockReply, ReceivedRequest } from '../support/mock-upstream.ts';

export type Dialect = 'openai' | 'anthropic' | 'gemini' | 'openai-responses';

/**
 * One model turn: call a tool (arguments as an object), call a freeform tool with raw input (a
 * Responses upstream only: `custom_tool_call`), or answer with text.
 */
export type Turn = ({ tool: string; args: Record<string, unknown> } | { custom: string; input: string } | { text: string }) & {
  /** Signed reasoning before the turn: an Anthropic thinking block, or a Gemini thought with its signature (ignored elsewhere). */
  thinking?: { text: string; signature: string };
};

/** What the proxy sent, in the upstream's dialect: is it a stream, and the tool results it carries. */
export function isStream(dialect: Dialect, req: ReceivedRequest): boolean {
  return dialect === 'gemini' ? req.url.includes(':streamGenerateContent') : req.json?.stream === true;
}

/** The tool results in a request, as `{id, output}` in order (Gemini's carry the function name as id). */
export function toolResults(dialect: Dialect, body: any): Array<{ id: string; output: string }> {
  const out: Array<{ id: string; output: string }> = [];
  const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
  if (dialect === 'openai') {
    for (const m of body?.messages ?? []) if (m.role === 'tool') out.push({ id: m.tool_call_id, output: text(m.content) });
  } else if (dialect === 'anthropic') {
    for (const m of body?.messages ?? [])
      if (Array.isArray(m.content)) for (const b of m.content) if (b.type === 'tool_result') out.push({ id: b.tool_use_id, output: text(b.content) });
  } else if (dialect === 'gemini') {
    for (const c of body?.contents ?? []) for (const p of c.parts ?? []) if (p.functionResponse) out.push({ id: p.functionResponse.name, output: text(p.functionResponse.response) });
  } else {
    for (const i of Array.isArray(body?.input) ? body.input : [])
      if (i.type === 'function_call_output' || i.type === 'custom_tool_call_output') out.push({ id: i.call_id, output: text(i.output) });
  }
  return out;
}

/** The tool calls replayed in a request's history, as `{name, args}` (a freeform call's raw input as `args`). */
export function toolCalls(dialect: Dialect, body: any): Array<{ name: string; args: unknown }> {
  const parse = (s: string): unknown => {
    try {
      return JSON.parse(s);
    } catch {
      return s;
    }
  };
  if (dialect === 'openai')
    return (body?.messages ?? []).flatMap((m: any) => (m.tool_calls ?? []).map((c: any) => ({ name: c.function.name, args: parse(c.function.arguments) })));
  if (dialect === 'anthropic')
    return (body?.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : []).filter((b: any) => b.type === 'tool_use').map((b: any) => ({ name: b.name, args: b.input })));
  if (dialect === 'gemini')
    return (body?.contents ?? []).flatMap((c: any) => (c.parts ?? []).filter((p: any) => p.functionCall).map((p: any) => ({ name: p.functionCall.name, args: p.functionCall.args })));
  return (Array.isArray(body?.input) ? body.input : [])
    .filter((i: any) => i.type === 'function_call' || i.type === 'custom_tool_call')
    .map((i: any) => ({ name: i.name, args: i.type === 'custom_tool_call' ? i.input : parse(i.arguments) }));
}

/** The reasoning signatures replayed in a request's history (Anthropic thinking, Gemini thought signatures). */
export function signatures(dialect: Dialect, body: any): string[] {
  if (dialect === 'anthropic')
    return (body?.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : []).filter((b: any) => b.type === 'thinking').map((b: any) => b.signature));
  if (dialect === 'gemini') return (body?.contents ?? []).flatMap((c: any) => (c.parts ?? []).filter((p: any) => p.thoughtSignature).map((p: any) => p.thoughtSignature));
  return [];
}

/** The Anthropic thinking blocks replayed in a request's history, text and signature. */
export function thinkingBlocks(body: any): Array<{ text: string; signature: string }> {
  return (body?.messages ?? []).flatMap((m: any) =>
    (Array.isArray(m.content) ? m.content : []).filter((b: any) => b.type === 'thinking').map((b: any) => ({ text: b.thinking, signature: b.signature })),
  );
}

/** The tool names a request offers (function names, whatever the dialect). */
export function toolNames(dialect: Dialect, body: any): string[] {
  if (dialect === 'openai') return (body?.tools ?? []).map((t: any) => t.function?.name);
  if (dialect === 'anthropic') return (body?.tools ?? []).map((t: any) => t.name);
  if (dialect === 'gemini') return (body?.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((f: any) => f.name));
  return (body?.tools ?? []).map((t: any) => t.name ?? t.type);
}

/** The JSON Schema of tool `name`'s parameters in a request, as the dialect carries it (undefined if not offered). */
export function toolParameters(dialect: Dialect, body: any, name: string): any {
  if (dialect === 'openai') return (body?.tools ?? []).find((t: any) => t.function?.name === name)?.function.parameters;
  if (dialect === 'anthropic') return (body?.tools ?? []).find((t: any) => t.name === name)?.input_schema;
  if (dialect === 'gemini') {
    const f = (body?.tools ?? []).flatMap((t: any) => t.functionDeclarations ?? []).find((d: any) => d.name === name);
    return f?.parameters ?? f?.parametersJsonSchema;
  }
  return (body?.tools ?? []).find((t: any) => t.name === name)?.parameters;
}

/**
 * A handler for `startMockUpstream().reply(…)`: turn k answers the request carrying k tool
 * results; past the script's end, the last turn repeats. `turns` may depend on the request.
 */
export function scripted(dialect: Dialect, turns: Turn[] | ((req: ReceivedRequest) => Turn[])): MockHandler {
  return (req) => {
    if (dialect === 'gemini' && req.method === 'GET') return { status: 404, body: '{}' };
    const script = typeof turns === 'function' ? turns(req) : turns;
    const k = Math.min(toolResults(dialect, req.json).length, script.length - 1);
    return reply(dialect, script[k]!, isStream(dialect, req), k + 1);
  };
}

const sse = (events: Array<[string | null, unknown]>): MockReply => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  chunks: events.map(([name, data]) => `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`),
});
const json = (body: unknown): MockReply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Turn `turn` in `dialect`'s wire; `n` makes its ids unique within a conversation. */
export function reply(dialect: Dialect, turn: Turn, stream: boolean, n: number): MockReply {
  const callId = `call_${dialect.replace('-', '_')}_${n}`;
  if ('custom' in turn && dialect !== 'openai-responses') throw new Error(`a ${dialect} model has no freeform tools: script a one-string function call`);
  const args = 'tool' in turn ? JSON.stringify(turn.args) : 'custom' in turn ? turn.input : '';
  const text = 'text' in turn ? turn.text : '';
  const half = Math.floor(args.length / 2);
  if (dialect === 'openai') {
    const base = { id: `chatcmpl-${n}`, created: 1_765_000_000, model: 'gpt-4o-mini' };
    const usage = { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 };
    const call = 'tool' in turn ? { id: callId, type: 'function', function: { name: turn.tool, arguments: args } } : null;
    const finish = call ? 'tool_calls' : 'stop';
    if (!stream) {
      const message = call ? { role: 'assistant', content: null, tool_calls: [call] } : { role: 'assistant', content: text };
      return json({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage });
    }
    const chunk = (delta: unknown, finish_reason: string | null = null) => [null, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] }] as [null, unknown];
    const body = call
      ? [
          chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: call.function.name, arguments: '' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }),
        ]
      : textPieces(turn).map((t, i) => chunk(i === 0 ? { role: 'assistant', content: t } : { content: t }));
    return sse([...body, chunk({}, finish), [null, { ...base, object: 'chat.completion.chunk', choices: [], usage }], [null, '[DONE]']]);
  }
  if (dialect === 'anthropic') {
    const main = 'tool' in turn ? { type: 'tool_use', id: `toolu_${n}`, name: turn.tool, input: turn.args } : { type: 'text', text };
    const blocks = [...(turn.thinking ? [{ type: 'thinking', thinking: turn.thinking.text, signature: turn.thinking.signature }] : []), main];
    const stop = 'tool' in turn ? 'tool_use' : 'end_turn';
    const msg = { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', stop_sequence: null };
    if (!stream) return json({ ...msg, content: blocks, stop_reason: stop, usage: { input_tokens: 20, output_tokens: 8 } });
    const events: Array<[string, unknown]> = [['message_start', { type: 'message_start', message: { ...msg, content: [], stop_reason: null, usage: { input_tokens: 20, output_tokens: 1 } } }]];
    const block = (index: number, start: unknown, deltas: unknown[]) =>
      events.push(
        ['content_block_start', { type: 'content_block_start', index, content_block: start }],
        ...deltas.map((delta) => ['content_block_delta', { type: 'content_block_delta', index, delta }] as [string, unknown]),
        ['content_block_stop', { type: 'content_block_stop', index }],
      );
    if (turn.thinking)
      block(0, { type: 'thinking', thinking: '', signature: '' }, [
        { type: 'thinking_delta', thinking: turn.thinking.text },
        { type: 'signature_delta', signature: turn.thinking.signature },
      ]);
    const at = turn.thinking ? 1 : 0;
    if ('tool' in turn) block(at, { ...main, input: {} }, [args.slice(0, half), args.slice(half)].map((p) => ({ type: 'input_json_delta', partial_json: p })));
    else block(at, { type: 'text', text: '' }, textPieces(turn).map((t) => ({ type: 'text_delta', text: t })));
    events.push(
      ['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 8 } }],
      ['message_stop', { type: 'message_stop' }],
    );
    return sse(events);
  }
  if (dialect === 'gemini') {
    const usageMetadata = { promptTokenCount: 20, candidatesTokenCount: 8, totalTokenCount: 28 };
    const cand = (parts: unknown[], finish?: string) => ({ candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: finish } : {}) }], usageMetadata, modelVersion: 'gemini-2.5-flash' });
    const thought = turn.thinking ? [{ text: turn.thinking.text, thought: true }] : [];
    const signed = turn.thinking ? { thoughtSignature: turn.thinking.signature } : {};
    if ('tool' in turn) {
      const call = { functionCall: { name: turn.tool, args: turn.args }, ...signed };
      return stream ? sse([...(thought.length ? [[null, cand(thought)] as [null, unknown]] : []), [null, cand([call], 'STOP')]]) : json(cand([...thought, call], 'STOP'));
    }
    if (!stream) return json(cand([...thought, { text, ...signed }], 'STOP'));
    const pieces = textPieces(turn);
    return sse([
      ...(thought.length ? [[null, cand(thought)] as [null, unknown]] : []),
      ...pieces.map((t, i) => [null, cand([{ text: t, ...(i === 0 ? signed : {}) }], i === pieces.length - 1 ? 'STOP' : undefined)] as [null, unknown]),
    ]);
  }
  return responsesReply(turn, stream, n, callId, args);
}

function textPieces(turn: Turn): string[] {
  if (!('text' in turn)) throw new Error('not a text turn');
  const text = turn.text;
  const cut = Math.max(1, Math.floor(text.length / 2));
  return [text.slice(0, cut), text.slice(cut)];
}

/** A Responses API answer, shaped like the recorded fixtures (JSON, or the full event sequence). */
function responsesReply(turn: Turn, stream: boolean, n: number, callId: string, args: string): MockReply {
  const text = 'text' in turn ? turn.text : '';
  const id = `resp_mock_${n}`;
  const usage = { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 8, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 28 };
  const item: Record<string, unknown> & { id: string } =
    'tool' in turn
      ? { id: `fc_mock_${n}`, type: 'function_call', status: 'completed', arguments: args, call_id: callId, name: turn.tool }
      : 'custom' in turn
        ? { id: `ctc_mock_${n}`, type: 'custom_tool_call', status: 'completed', call_id: callId, input: turn.input, name: turn.custom }
        : { id: `msg_mock_${n}`, type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text }], role: 'assistant' };
  const response = (status: string, output: unknown[], u: unknown) => ({
    id, object: 'response', created_at: 1_765_000_000, status, background: false, error: null, incomplete_details: null, instructions: null,
    max_output_tokens: null, model: 'gpt-5-mini', output, parallel_tool_calls: true, previous_response_id: null, reasoning: { effort: null, summary: null },
    store: true, temperature: 1, text: { format: { type: 'text' } }, tool_choice: 'auto', tools: [], top_p: 1, truncation: 'disabled', usage: u, user: null, metadata: {},
  });
  if (!stream) return json(response('completed', [item], usage));
  let seq = 0;
  const ev = (type: string, fields: Record<string, unknown>) => [type, { type, sequence_number: seq++, ...fields }] as [string, unknown];
  const events = [ev('response.created', { response: response('in_progress', [], null) }), ev('response.in_progress', { response: response('in_progress', [], null) })];
  const at = { item_id: item.id, output_index: 0 };
  if ('tool' in turn) {
    events.push(ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } }));
    const half = Math.floor(args.length / 2);
    for (const delta of [args.slice(0, half), args.slice(half)]) events.push(ev('response.function_call_arguments.delta', { ...at, delta }));
    events.push(ev('response.function_call_arguments.done', { ...at, arguments: args }));
  } else if ('custom' in turn) {
    events.push(ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', input: '' } }));
    const half = Math.floor(args.length / 2);
    for (const delta of [args.slice(0, half), args.slice(half)]) events.push(ev('response.custom_tool_call_input.delta', { ...at, delta }));
    events.push(ev('response.custom_tool_call_input.done', { ...at, input: args }));
  } else {
    events.push(ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }));
    const part = { type: 'output_text', annotations: [], logprobs: [], text: '' };
    events.push(ev('response.content_part.added', { ...at, content_index: 0, part }));
    for (const delta of textPieces(turn)) events.push(ev('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] }));
    events.push(ev('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] }));
    events.push(ev('response.content_part.done', { ...at, content_index: 0, part: { ...part, text } }));
  }
  events.push(ev('response.output_item.done', { output_index: 0, item }));
  events.push(ev('response.completed', { response: response('completed', [item], usage) }));
  return sse(events);
}

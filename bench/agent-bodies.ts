/**
 * Agent-sized traffic for the bench, built programmatically and deterministically (seeded): one
 * conversation — a 12 KB system prompt, 20 tool schemas, then turns of assistant text with a tool
 * call and the tool's result (file contents, command output; escapes, newlines, a little non-ASCII)
 * until the body reaches the asked size — rendered in each dialect's own request shape; and the
 * upstream answers: one agent turn as JSON, and streams of N events whose bulk is tool-call
 * argument deltas (text deltas for Gemini, which streams a function call whole).
 */

export type Dialect = 'openai' | 'anthropic' | 'gemini' | 'responses';

/** mulberry32: a small seeded PRNG, so every run builds the same bytes (the turn memo's tests draw from it too). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a of to and in is for on with that file function return const let value error test path line ' +
  'read write update config request response stream model tool call result output input buffer ' +
  'parse string number object array index length module import export class interface type async ' +
  'await promise handler server client upstream caller dialect event token message content'
).split(' ');
const CODE = [
  'export function $1(input: string): number {',
  '  const parts = input.split("\\n").map((l) => l.trim());',
  "  if (!parts.length) throw new Error('empty input: ' + input);",
  '  return parts.reduce((n, p) => n + p.length, 0); // café → naïve',
  '}',
  '  for (let i = 0; i < items.length; i++) total += items[i].size;',
  '  console.log(`${name}: ${JSON.stringify({ ok: true, path: "C:\\\\tmp" })}`);',
  '\tawait fs.promises.writeFile(path, data, "utf8");',
];

class Gen {
  private r: () => number;
  constructor(seed: number) {
    this.r = rng(seed);
  }
  int(n: number) {
    return Math.floor(this.r() * n);
  }
  words(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(WORDS[this.int(WORDS.length)]!);
    return out.join(' ');
  }
  /** Roughly `bytes` of source-like text (quotes, backslashes, tabs, newlines, some non-ASCII). */
  code(bytes: number): string {
    let s = '';
    while (s.length < bytes) s += CODE[this.int(CODE.length)]!.replace('$1', this.words(1)) + '\n';
    return s;
  }
  prose(bytes: number): string {
    let s = '';
    while (s.length < bytes) s += this.words(12) + '.\n';
    return s;
  }
}

interface ToolDef {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
interface Turn {
  user?: string;
  text: string;
  call: { id: string; name: string; args: Record<string, unknown> };
  result: string;
}
export interface Conversation {
  system: string;
  tools: ToolDef[];
  first: string;
  turns: Turn[];
}

function tools(g: Gen): ToolDef[] {
  const out: ToolDef[] = [];
  for (let i = 0; i < 20; i++) {
    const props: Record<string, unknown> = {};
    for (let p = 0; p < 4 + g.int(4); p++) {
      props[`arg_${p}_${g.words(1)}`] = p % 3 === 0 ? { type: 'integer', description: g.words(8) } : p % 3 === 1 ? { type: 'array', items: { type: 'string' }, description: g.words(6) } : { type: 'string', description: g.words(8), enum: p === 2 ? ['a', 'b', 'c'] : undefined };
    }
    out.push({ name: `tool_${i}_${g.words(1)}`, description: g.prose(60), parameters: { type: 'object', properties: props, required: Object.keys(props).slice(0, 2) } });
  }
  return out;
}

/** A conversation whose rendering is about `bytes` long (the turns grow until it is). */
export function conversation(bytes: number, seed = 21): Conversation {
  const g = new Gen(seed);
  const c: Conversation = { system: g.prose(12 * 1024), tools: tools(g), first: g.prose(400), turns: [] };
  let size = c.system.length + JSON.stringify(c.tools).length + c.first.length + 200;
  for (let i = 0; size < bytes; i++) {
    const tool = c.tools[g.int(c.tools.length)]!;
    const resultBytes = [200, 800, 2000, 6000][g.int(4)]!;
    const turn: Turn = {
      text: g.prose(60 + g.int(200)),
      call: { id: `call_${String(i).padStart(6, '0')}_${g.int(1e9).toString(36)}`, name: tool.name, args: { path: `src/${g.words(1)}/${g.words(1)}.ts`, pattern: g.words(3), limit: g.int(500) } },
      result: g.int(3) ? g.code(resultBytes) : g.prose(resultBytes),
    };
    if (i % 25 === 24) turn.user = g.prose(200);
    c.turns.push(turn);
    size += JSON.stringify(turn).length + 120;
  }
  return c;
}

/** The conversation as `dialect`'s request body (Gemini: the model is in the path). */
export function render(dialect: Dialect, c: Conversation, model: string, stream: boolean): Record<string, unknown> {
  if (dialect === 'anthropic') {
    const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: c.first }] }];
    for (const t of c.turns) {
      messages.push({ role: 'assistant', content: [{ type: 'text', text: t.text }, { type: 'tool_use', id: t.call.id, name: t.call.name, input: t.call.args }] });
      const content: unknown[] = [{ type: 'tool_result', tool_use_id: t.call.id, content: t.result }];
      if (t.user) content.push({ type: 'text', text: t.user });
      messages.push({ role: 'user', content });
    }
    return {
      model,
      max_tokens: 8192,
      system: [{ type: 'text', text: c.system }],
      tools: c.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })),
      messages,
      ...(stream ? { stream: true } : {}),
    };
  }
  if (dialect === 'openai') {
    const messages: unknown[] = [
      { role: 'system', content: c.system },
      { role: 'user', content: c.first },
    ];
    for (const t of c.turns) {
      messages.push({ role: 'assistant', content: t.text, tool_calls: [{ id: t.call.id, type: 'function', function: { name: t.call.name, arguments: JSON.stringify(t.call.args) } }] });
      messages.push({ role: 'tool', tool_call_id: t.call.id, content: t.result });
      if (t.user) messages.push({ role: 'user', content: t.user });
    }
    return {
      model,
      messages,
      tools: c.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })),
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
  }
  if (dialect === 'responses') {
    const input: unknown[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: c.first }] }];
    for (const t of c.turns) {
      input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t.text }] });
      input.push({ type: 'function_call', call_id: t.call.id, name: t.call.name, arguments: JSON.stringify(t.call.args) });
      input.push({ type: 'function_call_output', call_id: t.call.id, output: t.result });
      if (t.user) input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: t.user }] });
    }
    return {
      model,
      instructions: c.system,
      input,
      tools: c.tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters })),
      store: false,
      ...(stream ? { stream: true } : {}),
    };
  }
  const contents: unknown[] = [{ role: 'user', parts: [{ text: c.first }] }];
  for (const t of c.turns) {
    contents.push({ role: 'model', parts: [{ text: t.text }, { functionCall: { name: t.call.name, args: t.call.args } }] });
    const parts: unknown[] = [{ functionResponse: { name: t.call.name, response: { content: t.result } } }];
    if (t.user) parts.push({ text: t.user });
    contents.push({ role: 'user', parts });
  }
  return {
    systemInstruction: { parts: [{ text: c.system }] },
    contents,
    tools: [{ functionDeclarations: c.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) }],
  };
}

// ---------------------------------------------------------------------------------------------
// Upstream answers

const ARGS = JSON.stringify({ path: 'src/flows/chat.ts', old_string: 'const decoded = caller.decodeRequest(call.input, scope);', new_string: 'const decoded = decodeOnce(call);', replace_all: false });

/** One agent turn (a sentence, then a tool call) as `dialect`'s non-stream answer. */
export function jsonAnswer(dialect: Dialect): string {
  const text = 'I will update the flow so the request is decoded once.';
  const usage = { in: 52_000, out: 180 };
  if (dialect === 'openai')
    return JSON.stringify({
      id: 'chatcmpl-bench', object: 'chat.completion', created: 1764200000, model: 'gpt-bench',
      choices: [{ index: 0, message: { role: 'assistant', content: text, tool_calls: [{ id: 'call_bench_1', type: 'function', function: { name: 'edit_file', arguments: ARGS } }] }, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: usage.in, completion_tokens: usage.out, total_tokens: usage.in + usage.out },
    });
  if (dialect === 'anthropic')
    return JSON.stringify({
      id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-bench',
      content: [{ type: 'text', text }, { type: 'tool_use', id: 'toolu_bench_1', name: 'edit_file', input: JSON.parse(ARGS) }],
      stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: usage.in, output_tokens: usage.out },
    });
  if (dialect === 'responses')
    return JSON.stringify({
      id: 'resp_bench', object: 'response', created_at: 1764200000, status: 'completed', model: 'gpt-bench',
      output: [
        { type: 'message', id: 'msg_bench', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] },
        { type: 'function_call', id: 'fc_bench', call_id: 'call_bench_1', name: 'edit_file', arguments: ARGS, status: 'completed' },
      ],
      usage: { input_tokens: usage.in, output_tokens: usage.out, total_tokens: usage.in + usage.out },
    });
  return JSON.stringify({
    candidates: [{ content: { role: 'model', parts: [{ text }, { functionCall: { name: 'edit_file', args: JSON.parse(ARGS) } }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: usage.in, candidatesTokenCount: usage.out, totalTokenCount: usage.in + usage.out },
    modelVersion: 'gemini-bench',
  });
}

/** `n` argument fragments of a long JSON argument (an edit with a big replacement). */
function argDeltas(n: number): string[] {
  const g = new Gen(7);
  const out = ['{"path": "src/flows/chat.ts", "new_string": "'];
  for (let i = 1; i < n - 1; i++) out.push(JSON.stringify(g.words(3) + (i % 9 === 0 ? '\n' : ' ')).slice(1, -1));
  out.push('"}');
  return out;
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/** `dialect`'s stream of `n` events: a little text, then one tool call streamed in argument deltas. */
export function streamAnswer(dialect: Dialect, n: number): string[] {
  const text = ['I will', ' update', ' the flow.'];
  if (dialect === 'openai') {
    const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1764200000, model: 'gpt-bench' };
    const chunk = (delta: unknown, finish: string | null = null) => sse({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
    const head = [chunk({ role: 'assistant', content: '' }), ...text.map((t) => chunk({ content: t })), chunk({ tool_calls: [{ index: 0, id: 'call_bench_1', type: 'function', function: { name: 'edit_file', arguments: '' } }] })];
    const tail = [chunk({}, 'tool_calls'), sse({ ...base, choices: [], usage: { prompt_tokens: 52000, completion_tokens: n, total_tokens: 52000 + n } }), 'data: [DONE]\n\n'];
    const args = argDeltas(n - head.length - tail.length).map((a) => chunk({ tool_calls: [{ index: 0, function: { arguments: a } }] }));
    return [...head, ...args, ...tail];
  }
  if (dialect === 'anthropic') {
    const head = [
      sse({ type: 'message_start', message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-bench', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 52000, output_tokens: 1 } } }, 'message_start'),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      ...text.map((t) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } }, 'content_block_delta')),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_bench_1', name: 'edit_file', input: {} } }, 'content_block_start'),
    ];
    const tail = [
      sse({ type: 'content_block_stop', index: 1 }, 'content_block_stop'),
      sse({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: n } }, 'message_delta'),
      sse({ type: 'message_stop' }, 'message_stop'),
    ];
    const args = argDeltas(n - head.length - tail.length).map((a) => sse({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: a } }, 'content_block_delta'));
    return [...head, ...args, ...tail];
  }
  if (dialect === 'responses') {
    const resp = (status: string, output: unknown[]) => ({ id: 'resp_bench', object: 'response', created_at: 1764200000, status, model: 'gpt-bench', output, usage: status === 'completed' ? { input_tokens: 52000, output_tokens: n, total_tokens: 52000 + n } : null });
    const msg = { type: 'message', id: 'msg_bench', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: text.join(''), annotations: [] }] };
    const deltas = argDeltas(n - 11 - text.length); // 11 + the text deltas are the other events
    const fc = { type: 'function_call', id: 'fc_bench', call_id: 'call_bench_1', name: 'edit_file', arguments: deltas.join(''), status: 'completed' };
    let seq = 0;
    const ev = (type: string, rest: Record<string, unknown>) => sse({ type, sequence_number: seq++, ...rest }, type);
    return [
      ev('response.created', { response: resp('in_progress', []) }),
      ev('response.in_progress', { response: resp('in_progress', []) }),
      ev('response.output_item.added', { output_index: 0, item: { ...msg, status: 'in_progress', content: [] } }),
      ev('response.content_part.added', { item_id: 'msg_bench', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
      ...text.map((t) => ev('response.output_text.delta', { item_id: 'msg_bench', output_index: 0, content_index: 0, delta: t })),
      ev('response.output_text.done', { item_id: 'msg_bench', output_index: 0, content_index: 0, text: text.join('') }),
      ev('response.content_part.done', { item_id: 'msg_bench', output_index: 0, content_index: 0, part: msg.content[0] }),
      ev('response.output_item.done', { output_index: 0, item: msg }),
      ev('response.output_item.added', { output_index: 1, item: { ...fc, arguments: '', status: 'in_progress' } }),
      ...deltas.map((d) => ev('response.function_call_arguments.delta', { item_id: 'fc_bench', output_index: 1, delta: d })),
      ev('response.function_call_arguments.done', { item_id: 'fc_bench', output_index: 1, arguments: fc.arguments }),
      ev('response.output_item.done', { output_index: 1, item: fc }),
      ev('response.completed', { response: resp('completed', [msg, fc]) }),
    ];
  }
  // Gemini streams a function call whole: the events are text chunks, then the call.
  const g = new Gen(9);
  const chunk = (parts: unknown[], finish?: string) =>
    sse({ candidates: [{ content: { role: 'model', parts }, ...(finish ? { finishReason: finish } : {}), index: 0 }], usageMetadata: { promptTokenCount: 52000, candidatesTokenCount: 1, totalTokenCount: 52001 }, modelVersion: 'gemini-bench' });
  const out: string[] = [];
  for (let i = 0; i < n - 1; i++) out.push(chunk([{ text: g.words(3) + ' ' }]));
  out.push(chunk([{ functionCall: { name: 'edit_file', args: JSON.parse(ARGS) } }], 'STOP'));
  return out;
}

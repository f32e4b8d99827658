/**
 * A scriptable upstream on 127.0.0.1 for end-to-end tests: replays fixtures (JSON or SSE, in
 * chunks if asked), records every request it receives, and can misbehave on demand.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixtureText } from './fixtures.ts';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json?: any;
  /** Resolves when the connection of this request's response has closed (either side). */
  closed: Promise<void>;
}

export interface MockReply {
  status?: number;
  headers?: Record<string, string>;
  /** Whole body (bytes for binary media). */
  body?: string | Uint8Array;
  /** Body written in these pieces (text, or bytes for binary framings), with `delayMs` between them. */
  chunks?: Array<string | Uint8Array>;
  delayMs?: number;
  /** Never answer (hang) — for timeout tests. */
  hang?: boolean;
  /** Destroy the socket after writing what was given. */
  destroy?: boolean;
}

export type MockHandler = (req: ReceivedRequest, n: number) => MockReply | Promise<MockReply>;

export interface MockUpstream {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Set the handler for the following requests. */
  reply(handler: MockHandler | MockReply): void;
  close(): Promise<void>;
}

/** A reply replaying a fixture: `.sse` as text/event-stream, else JSON; status from `error-NNN-` names. */
export function fixtureReply(dialect: string, name: string, extra: Partial<MockReply> = {}): MockReply {
  const text = fixtureText(dialect, name);
  const status = /^error-(\d{3})-/.exec(name)?.[1];
  const sse = name.endsWith('.sse');
  return {
    status: status ? Number(status) : 200,
    headers: { 'content-type': sse ? 'text/event-stream' : 'application/json' },
    ...(sse && !extra.body ? { chunks: splitSse(text) } : { body: text }),
    ...extra,
  };
}

/** Split an SSE body into its events (each chunk one event), as a real server flushes them. */
export function splitSse(text: string): string[] {
  const parts = text.split(/(?<=\r?\n\r?\n)/);
  return parts.filter((p) => p.length > 0);
}

export async function startMockUpstream(): Promise<MockUpstream> {
  let handler: MockHandler = () => ({ status: 500, body: '{"error":"no reply scripted"}' });
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: any;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const closed = new Promise<void>((r) => res.once('close', () => r()));
      const rec: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json, closed };
      requests.push(rec);
      const reply = await handler(rec, requests.length);
      if (reply.hang) return;
      res.writeHead(reply.status ?? 200, reply.headers ?? { 'content-type': 'application/json' });
      if (reply.chunks) {
        for (const c of reply.chunks) {
          if (res.destroyed) return;
          res.write(c);
          if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        }
        if (reply.destroy) {
          // Let what was written reach the client before the connection breaks.
          await new Promise((r) => setTimeout(r, 20));
          return void res.destroy();
        }
        res.end();
      } else {
        if (reply.destroy) {
          res.write(reply.body ?? '');
          return void res.destroy();
        }
        res.end(reply.body ?? '');
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    reply(h) {
      handler = typeof h === 'function' ? h : () => h;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/**
 * A wire-accurate OpenAI Responses upstream answer, scripted by its output items: the JSON body,
 * or the SSE stream as the service frames it (`event:` + `data:` with the same `type`,
 * `sequence_number` from 0 up by one, `response.created` → `response.in_progress` → per item
 * `output_item.added`, its part and delta events, `output_item.done` with the complete item →
 * one terminal `response.completed` / `response.incomplete` / `response.failed`), shaped after
 * `openai/resources/responses/responses.d.ts` and translators/openai-responses/__fixtures__.
 */
export type ResponsesMockItem =
  | { type: 'message'; text: string }
  | { type: 'function_call'; name: string; arguments: string; callId: string }
  | { type: 'custom_tool_call'; name: string; input: string; callId: string }
  | { type: 'reasoning'; summary: string[]; encrypted?: string };

export interface ResponsesMockScript {
  id?: string;
  model?: string;
  items: ResponsesMockItem[];
  usage?: { input: number; cached?: number; output: number; reasoning?: number };
  /** `incomplete` with `max_output_tokens`. */
  incomplete?: boolean;
  /** Streams only: after this many output items, `response.failed` with this error instead. */
  failAfter?: { items: number; code: string; message: string };
}

const RESPONSES_CREATED_AT = 1_767_000_000;

/** Split text in up to `n` pieces (so deltas are really incremental). */
function pieces(text: string, n = 3): string[] {
  if (text.length <= 1) return [text];
  const size = Math.ceil(text.length / n);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function responsesItemId(item: ResponsesMockItem, i: number): string {
  const prefix = { message: 'msg', function_call: 'fc', custom_tool_call: 'ctc', reasoning: 'rs' }[item.type];
  return `${prefix}_mock${i}`;
}

/** The complete output item, as `output_item.done` and the response's `output` carry it. */
function responsesItem(item: ResponsesMockItem, i: number): Record<string, unknown> {
  const id = responsesItemId(item, i);
  switch (item.type) {
    case 'message':
      return { id, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: item.text }] };
    case 'function_call':
      return { id, type: 'function_call', status: 'completed', call_id: item.callId, name: item.name, arguments: item.arguments };
    case 'custom_tool_call':
      return { id, type: 'custom_tool_call', status: 'completed', call_id: item.callId, name: item.name, input: item.input };
    case 'reasoning':
      return { id, type: 'reasoning', summary: item.summary.map((text) => ({ type: 'summary_text', text })), ...(item.encrypted ? { encrypted_content: item.encrypted } : {}) };
  }
}

function responsesUsage(s: ResponsesMockScript) {
  const u = s.usage ?? { input: 11, output: 7 };
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cached ?? 0 },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
    total_tokens: u.input + u.output,
  };
}

/** The Response object; `status` in_progress (no output, no usage) for the opening events. */
function responsesObject(s: ResponsesMockScript, status: 'in_progress' | 'completed' | 'incomplete' | 'failed', output: unknown[], error?: { code: string; message: string }) {
  const done = status !== 'in_progress';
  return {
    id: s.id ?? 'resp_mock_1',
    object: 'response',
    created_at: RESPONSES_CREATED_AT,
    status,
    background: false,
    error: error ?? null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: null,
    max_output_tokens: null,
    model: s.model ?? 'gpt-5-mini-2025-08-07',
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: done && status !== 'failed' ? responsesUsage(s) : null,
    user: null,
    metadata: {},
  };
}

/** The JSON body of a finished Response. */
export function responsesJson(s: ResponsesMockScript): Record<string, unknown> {
  return responsesObject(s, s.incomplete ? 'incomplete' : 'completed', s.items.map(responsesItem));
}

/** The SSE events of a streamed Response, each `{type, sequence_number, …}`. */
export function responsesEvents(s: ResponsesMockScript): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const add = (type: string, fields: Record<string, unknown>) => out.push({ type, sequence_number: out.length, ...fields });
  add('response.created', { response: responsesObject(s, 'in_progress', []) });
  add('response.in_progress', { response: responsesObject(s, 'in_progress', []) });
  const done: unknown[] = [];
  for (const [i, item] of s.items.entries()) {
    if (s.failAfter && i >= s.failAfter.items) break;
    const full = responsesItem(item, i);
    const item_id = full.id;
    const at = { item_id, output_index: i };
    switch (item.type) {
      case 'message': {
        add('response.output_item.added', { output_index: i, item: { id: item_id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
        add('response.content_part.added', { ...at, content_index: 0, part: { type: 'output_text', annotations: [], logprobs: [], text: '' } });
        for (const delta of pieces(item.text)) add('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] });
        add('response.output_text.done', { ...at, content_index: 0, text: item.text, logprobs: [] });
        add('response.content_part.done', { ...at, content_index: 0, part: { type: 'output_text', annotations: [], logprobs: [], text: item.text } });
        break;
      }
      case 'function_call':
        add('response.output_item.added', { output_index: i, item: { ...full, status: 'in_progress', arguments: '' } });
        for (const delta of pieces(item.arguments)) add('response.function_call_arguments.delta', { ...at, delta });
        add('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments });
        break;
      case 'custom_tool_call':
        add('response.output_item.added', { output_index: i, item: { ...full, status: 'in_progress', input: '' } });
        for (const delta of pieces(item.input)) add('response.custom_tool_call_input.delta', { ...at, delta });
        add('response.custom_tool_call_input.done', { ...at, input: item.input });
        break;
      case 'reasoning':
        add('response.output_item.added', { output_index: i, item: { id: item_id, type: 'reasoning', summary: [], ...(item.encrypted ? { encrypted_content: item.encrypted } : {}) } });
        item.summary.forEach((text, summary_index) => {
          add('response.reasoning_summary_part.added', { ...at, summary_index, part: { type: 'summary_text', text: '' } });
          for (const delta of pieces(text)) add('response.reasoning_summary_text.delta', { ...at, summary_index, delta });
          add('response.reasoning_summary_text.done', { ...at, summary_index, text });
          add('response.reasoning_summary_part.done', { ...at, summary_index, part: { type: 'summary_text', text } });
        });
        break;
    }
    add('response.output_item.done', { output_index: i, item: full });
    done.push(full);
  }
  if (s.failAfter) add('response.failed', { response: responsesObject(s, 'failed', done, { code: s.failAfter.code, message: s.failAfter.message }) });
  else if (s.incomplete) add('response.incomplete', { response: responsesObject(s, 'incomplete', done) });
  else add('response.completed', { response: responsesObject(s, 'completed', done) });
  return out;
}

/** The same as SSE frames (`event:` + `data:`), one chunk per event as the service flushes them. */
export function responsesSseChunks(s: ResponsesMockScript): string[] {
  return responsesEvents(s).map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
}

/** A mock reply: the stream when the request asked for one, else the JSON body. */
export function responsesReply(s: ResponsesMockScript, stream: boolean): MockReply {
  return stream
    ? { headers: { 'content-type': 'text/event-stream; charset=utf-8' }, chunks: responsesSseChunks(s) }
    : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(responsesJson(s)) };
}

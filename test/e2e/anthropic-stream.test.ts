/**
 * Every OpenAI and Gemini stream fixture, through Interlingua to an Anthropic-dialect caller: the
 * SSE body must follow the real service's grammar (checkAnthropicStream), carry the upstream's
 * text, tool calls, stop reason and usage, and both SDK generations must assemble it.
 */
import { describe, expect, it } from 'vitest';
import { fixtureText, parseSse } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { TARGETS, useHarness } from '../support/proxy.ts';
import { SDKS, anthropicHeaders, fixtureStreamAnswer, type UpstreamDialect } from './helpers-anthropic.ts';

interface AnthropicStreamSummary {
  events: Array<{ event: string; data: any }>;
  blocks: Array<{ type: string; text: string; json: string; signature: string; id?: string; name?: string }>;
  stopReason: string | null | undefined;
  usage: any;
  error?: any;
}

/**
 * Check an Anthropic SSE body against the real service's grammar and summarize it: message_start
 * first; blocks opened in index order from 0, one at a time, each closed; deltas of the block's
 * own kind; then message_delta (stop_reason, usage) and message_stop — or an `error` event last.
 */
function checkAnthropicStream(body: string): AnthropicStreamSummary {
  const events = parseSse(body).map((e) => ({ event: e.event ?? 'message', data: JSON.parse(e.data) }));
  const fail = (msg: string) => {
    throw new Error(`${msg}\n${events.map((e) => `${e.event} ${JSON.stringify(e.data).slice(0, 160)}`).join('\n')}`);
  };
  const blocks: AnthropicStreamSummary['blocks'] = [];
  let open: number | undefined;
  let stopReason: string | null | undefined;
  let usage: any;
  let sawDelta = false;
  let error: any;
  events.forEach((e, i) => {
    if (e.event !== e.data.type) fail(`event ${e.event} carries data.type ${e.data.type}`);
    if (error) fail('events after error');
    // An upstream failure before anything was generated may be the only event.
    if (i === 0 && e.event !== 'message_start' && e.event !== 'error') fail('first event is not message_start');
    switch (e.event) {
      case 'message_start':
        if (i !== 0) fail('message_start twice');
        usage = e.data.message.usage;
        if (typeof usage?.input_tokens !== 'number') fail('message_start without usage.input_tokens');
        break;
      case 'ping':
        break;
      case 'content_block_start': {
        if (open !== undefined) fail(`block ${e.data.index} opened while ${open} is open`);
        if (e.data.index !== blocks.length) fail(`block index ${e.data.index}, expected ${blocks.length}`);
        if (sawDelta) fail('block after message_delta');
        const b = e.data.content_block;
        blocks.push({ type: b.type, text: b.text ?? b.thinking ?? '', json: '', signature: b.signature ?? '', id: b.id, name: b.name });
        open = e.data.index;
        break;
      }
      case 'content_block_delta': {
        if (open !== e.data.index) fail(`delta for block ${e.data.index} while ${open} is open`);
        const b = blocks[open!]!;
        const d = e.data.delta;
        const allowed: Record<string, string[]> = {
          text: ['text_delta', 'citations_delta'],
          tool_use: ['input_json_delta'],
          thinking: ['thinking_delta', 'signature_delta'],
        };
        if (!allowed[b.type]?.includes(d.type)) fail(`${d.type} in a ${b.type} block`);
        if (d.type === 'text_delta') b.text += d.text;
        if (d.type === 'thinking_delta') b.text += d.thinking;
        if (d.type === 'signature_delta') b.signature += d.signature;
        if (d.type === 'input_json_delta') b.json += d.partial_json;
        break;
      }
      case 'content_block_stop':
        if (open !== e.data.index) fail(`stop for block ${e.data.index} while ${open} is open`);
        open = undefined;
        break;
      case 'message_delta':
        if (open !== undefined) fail('message_delta with a block open');
        if (sawDelta) fail('message_delta twice');
        sawDelta = true;
        stopReason = e.data.delta.stop_reason;
        if (typeof e.data.usage?.output_tokens !== 'number') fail('message_delta without usage.output_tokens');
        usage = { ...usage, ...e.data.usage };
        break;
      case 'message_stop':
        if (!sawDelta) fail('message_stop without message_delta');
        if (i !== events.length - 1) fail('events after message_stop');
        break;
      case 'error':
        error = e.data.error;
        break;
      default:
        fail(`unknown event ${e.event}`);
    }
  });
  if (!error && events.at(-1)?.event !== 'message_stop') fail('stream does not end with message_stop');
  if (stopReason !== 'max_tokens') for (const b of blocks) if (b.type === 'tool_use' && b.json.trim()) JSON.parse(b.json);
  return { events, blocks, stopReason, usage, ...(error ? { error } : {}) };
}

interface Expect {
  stop: string | null;
  /** The upstream reported usage (so the caller's must be non-zero). */
  usage?: boolean;
  error?: boolean;
}

const OPENAI: Record<string, Expect> = {
  'stream-text-basic.sse': { stop: 'end_turn', usage: true },
  'stream-text-no-usage.sse': { stop: 'end_turn' },
  'stream-include-usage-obfuscation.sse': { stop: 'end_turn', usage: true },
  'stream-logprobs.sse': { stop: 'end_turn' },
  'stream-finish-length.sse': { stop: 'max_tokens' },
  'stream-tool-call-single.sse': { stop: 'tool_use' },
  'stream-parallel-tool-calls.sse': { stop: 'tool_use' },
  'stream-refusal.sse': { stop: 'refusal' },
  'stream-refusal-logprobs.sse': { stop: 'refusal' },
  'stream-structured-output-json-schema.sse': { stop: 'end_turn' },
  'azure-stream-prompt-filter-results-reasoning.sse': { stop: 'end_turn' },
  'stream-error-first-chunk-server-error.sse': { stop: null, error: true },
};

const GEMINI: Record<string, Expect> = {
  'stream-text-basic.sse': { stop: 'end_turn', usage: true },
  'stream-finish-max-tokens.sse': { stop: 'max_tokens', usage: true },
  'stream-gemini3-text-thought-signature.sse': { stop: 'end_turn', usage: true },
  'stream-gemini3-tool-call.sse': { stop: 'tool_use', usage: true },
  'stream-function-call-no-index.sse': { stop: 'tool_use', usage: true },
  'stream-tool-call-thought-signature.sse': { stop: 'tool_use', usage: true },
  'stream-tool-result-followup.sse': { stop: 'end_turn', usage: true },
  'multi-turn-after-function-call.sse': { stop: 'tool_use', usage: true },
  'vertex-stream-thought-parallel-streamed-args.sse': { stop: 'tool_use', usage: true },
  'stream-candidate-prohibited-content.sse': { stop: 'refusal' },
  'stream-prompt-blocked-prohibited-content.sse': { stop: 'refusal' },
  'stream-malformed-function-call-finish-message.sse': { stop: null, error: true },
};

/** Function calls in a stream fixture (name and whole arguments), in order. */
function fixtureCalls(dialect: UpstreamDialect, name: string): Array<{ name: string; input: unknown }> {
  const calls: Array<{ name: string; args: string; partial?: Record<string, string> }> = [];
  for (const e of parseSse(fixtureText(dialect, name))) {
    if (!e.data.startsWith('{')) continue;
    const d = JSON.parse(e.data);
    if (dialect === 'openai-chat') {
      for (const tc of d.choices?.[0]?.delta?.tool_calls ?? []) {
        if (tc.function?.name) calls[tc.index] = { name: tc.function.name, args: '' };
        calls[tc.index]!.args += tc.function?.arguments ?? '';
      }
    } else {
      for (const p of d.candidates?.[0]?.content?.parts ?? []) {
        if (p.functionCall?.name) calls.push({ name: p.functionCall.name, args: JSON.stringify(p.functionCall.args ?? {}) });
        // Vertex streamed arguments: string pieces by JSON path (`$.key`).
        for (const pa of p.functionCall?.partialArgs ?? []) {
          const last = calls.at(-1)!;
          last.partial ??= {};
          const key = pa.jsonPath.slice(2);
          last.partial[key] = (last.partial[key] ?? '') + pa.stringValue;
        }
      }
    }
  }
  return calls.map((c) => ({ name: c.name, input: { ...(c.args.trim() ? JSON.parse(c.args) : {}), ...c.partial } }));
}

const CASES = [
  ...Object.entries(OPENAI).map(([file, exp]) => ({ model: 'to-openai', dialect: 'openai-chat' as const, file, exp })),
  ...Object.entries(GEMINI).map(([file, exp]) => ({ model: 'to-gemini', dialect: 'gemini' as const, file, exp })),
];

describe.each(TARGETS)('%s: OpenAI / Gemini streams → Anthropic SSE grammar', (target) => {
  const h = useHarness(target);

  it.each(CASES)('$model: $file', async ({ model, dialect, file, exp }) => {
    h.mock.reply(fixtureReply(dialect, file));
    const res = await fetch(`${h.proxy.url}/v1/messages`, {
      method: 'POST',
      headers: anthropicHeaders(),
      body: JSON.stringify({ model, max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'Go' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const s = checkAnthropicStream(await res.text());
    if (dialect === 'openai-chat') expect(h.mock.requests[0]!.json.stream_options).toEqual({ include_usage: true });

    if (exp.error) {
      expect(s.error?.type).toMatch(/_error$/);
      return;
    }
    expect(s.error).toBeUndefined();
    expect(s.stopReason).toBe(exp.stop);
    const text = s.blocks.filter((b) => b.type === 'text').map((b) => b.text).join('');
    expect(text).toBe(fixtureStreamAnswer(dialect, file));
    const calls = s.blocks.filter((b) => b.type === 'tool_use');
    expect(calls.map((b) => ({ name: b.name, input: b.json.trim() ? JSON.parse(b.json) : {} }))).toEqual(fixtureCalls(dialect, file));
    expect(new Set(calls.map((b) => b.id)).size).toBe(calls.length);
    if (exp.usage) {
      expect(s.usage.input_tokens).toBeGreaterThan(0);
      expect(s.usage.output_tokens).toBeGreaterThan(0);
    }
  });

  it.each(SDKS)('$name assembles a parallel-tool-call stream from OpenAI', async (sdk) => {
    h.mock.reply(fixtureReply('openai-chat', 'stream-parallel-tool-calls.sse'));
    const client = sdk.make(h.proxy.url);
    const final = await client.messages
      .stream({ model: 'to-openai', max_tokens: 256, messages: [{ role: 'user', content: 'Weather in two cities' }] })
      .finalMessage();
    const uses = final.content.filter((b) => b.type === 'tool_use');
    expect(uses.map((u) => (u.type === 'tool_use' ? { name: u.name, input: u.input } : null))).toEqual(
      fixtureCalls('openai-chat', 'stream-parallel-tool-calls.sse'),
    );
    expect(final.stop_reason).toBe('tool_use');
  });

  it.each(SDKS)('$name: a passthrough stream whose last event lacks its blank line still ends with message_stop', async (sdk) => {
    // Captured Anthropic stream ending without the final blank line.
    expect(fixtureText('anthropic', 'stream-text-basic.sse').endsWith('\n\n')).toBe(false);
    h.mock.reply(fixtureReply('anthropic', 'stream-text-basic.sse'));
    const client = sdk.make(h.proxy.url);
    const events: string[] = [];
    const stream = client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
    stream.on('streamEvent', (e: { type: string }) => events.push(e.type));
    const final = await stream.finalMessage();
    expect(events.at(-1)).toBe('message_stop');
    expect(final.stop_reason).toBe('end_turn');
    expect(final.content.map((b) => (b.type === 'text' ? b.text : '')).join('')).toBe(fixtureStreamAnswer('anthropic', 'stream-text-basic.sse'));
  });
});

/**
 * Gemini signs a call, not the thought before it. Through a caller whose reasoning block has a
 * signature field of its own — Anthropic `thinking.signature`, Responses `encrypted_content`
 * (asked for), an Interactions `thought` step — that field is never empty: it shows the call's
 * signature (src/canonical/lent-signatures.ts), JSON and stream alike, and the caller's next turn
 * decodes to what Gemini answered: the thought unsigned, the call signed.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Part, StreamFrame } from '../../src/canonical/index.ts';
import { registry } from '../../translators/index.ts';
import type { ChatCaller } from '../../translators/types.ts';
import { testContext } from '../support/fixtures.ts';

const SIG = 'R0VNSU5JLVNJRy0x';
const thought = { text: 'Let me think.', thought: true };
const call = { functionCall: { name: 'get_weather', args: { city: 'Lisbon' } }, thoughtSignature: SIG };
const candidate = (parts: unknown[], finishReason?: string) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
  usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 10 },
  modelVersion: 'gemini-2.5-flash',
});

const gemini = registry.chatUpstreams.gemini;
const weather = { type: 'object', properties: { city: { type: 'string' } } };

interface Case {
  caller: ChatCaller;
  /** Turn 1 as the caller sends it. */
  request: (stream: boolean) => Record<string, unknown>;
  headers?: Record<string, string>;
  /** What the reasoning block's signature field holds in an answer (JSON), or in a stream's frames. */
  signatureField: (answer: any) => unknown;
  streamSignature: (frames: StreamFrame[]) => unknown;
  /** The answer the stream's frames make whole. */
  answerOf: (frames: StreamFrame[]) => any;
  /** Turn 2: turn 1's answer sent back, then the tool's result. */
  next: (turn1: Record<string, unknown>, answer: any) => Record<string, unknown>;
}

const data = (frames: StreamFrame[]) => frames.map((f) => (f.data === '[DONE]' ? {} : JSON.parse(f.data)));

const CASES: Case[] = [
  {
    caller: registry.chatCallers.anthropic,
    headers: { 'anthropic-version': '2023-06-01' },
    request: (stream) => ({ model: 'm', max_tokens: 2000, stream, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'Weather?' }], tools: [{ name: 'get_weather', input_schema: weather }] }),
    signatureField: (a) => a.content.find((b: any) => b.type === 'thinking').signature,
    streamSignature: (frames) => data(frames).find((d) => d.delta?.type === 'signature_delta')?.delta.signature,
    answerOf: (frames) => {
      const blocks: any[] = [];
      for (const d of data(frames)) {
        if (d.type === 'content_block_start') blocks[d.index] = { ...d.content_block, json: '' };
        if (d.type === 'content_block_delta' && d.delta.type === 'thinking_delta') blocks[d.index].thinking += d.delta.thinking;
        if (d.type === 'content_block_delta' && d.delta.type === 'signature_delta') blocks[d.index].signature += d.delta.signature;
        if (d.type === 'content_block_delta' && d.delta.type === 'input_json_delta') blocks[d.index].json += d.delta.partial_json;
      }
      return { content: blocks.map(({ json, ...b }) => (b.type === 'tool_use' ? { ...b, input: JSON.parse(json) } : b)) };
    },
    next: (t1, a) => {
      const id = a.content.find((b: any) => b.type === 'tool_use').id;
      return { ...t1, stream: false, messages: [...(t1.messages as unknown[]), { role: 'assistant', content: a.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'sunny' }] }] };
    },
  },
  {
    caller: registry.chatCallers['openai-responses'],
    request: (stream) => ({ model: 'm', stream, store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'low' }, input: 'Weather?', tools: [{ type: 'function', name: 'get_weather', parameters: weather }] }),
    signatureField: (a) => a.output.find((i: any) => i.type === 'reasoning').encrypted_content,
    streamSignature: (frames) => data(frames).find((d) => d.type === 'response.output_item.done' && d.item.type === 'reasoning')?.item.encrypted_content,
    answerOf: (frames) => data(frames).find((d) => d.type === 'response.completed').response,
    next: (t1, a) => {
      const callId = a.output.find((i: any) => i.type === 'function_call').call_id;
      return { ...t1, stream: false, input: [{ role: 'user', content: 'Weather?' }, ...a.output, { type: 'function_call_output', call_id: callId, output: 'sunny' }] };
    },
  },
  {
    caller: registry.chatCallers['gemini-interactions'],
    request: (stream) => ({ model: 'm', stream, store: false, input: 'Weather?', generation_config: { thinking_summaries: 'auto' }, tools: [{ type: 'function', name: 'get_weather', parameters: weather }] }),
    signatureField: (a) => a.steps.filter((s: any) => s.type === 'thought').map((s: any) => s.signature),
    streamSignature: (frames) => data(frames).filter((d) => d.delta?.type === 'thought_signature').map((d) => d.delta.signature),
    answerOf: (frames) => {
      const collect = registry.chatCallers['gemini-interactions'].state!.collect!();
      return frames.map(collect).find((x) => x !== undefined);
    },
    next: (t1, a) => {
      const fc = a.steps.find((s: any) => s.type === 'function_call');
      return { ...t1, stream: false, input: [{ type: 'user_input', content: [{ type: 'text', text: 'Weather?' }] }, ...a.steps, { type: 'function_result', call_id: fc.id, name: fc.name, result: 'sunny' }] };
    },
  },
];

function decode(c: Case, body: Record<string, unknown>): ChatRequest {
  return c.caller.decodeRequest({ body, headers: c.headers ?? {}, params: {}, query: {} }, testContext()).value;
}

/** Turn 2's replayed model turn, as canonical parts. */
function replayed(req: ChatRequest): Part[] {
  return req.messages.find((m) => m.role === 'assistant')!.content;
}

const expected = (parts: Part[]) => {
  expect(parts.map((p) => p.type)).toEqual(['reasoning', 'tool-call']);
  expect(parts[0]).toEqual({ type: 'reasoning', text: 'Let me think.' });
  expect(parts[1]).toMatchObject({ type: 'tool-call', name: 'get_weather', signature: { origin: 'gemini', value: SIG } });
};

describe.each(CASES)('Gemini upstream, $caller.id caller: the thought shows the call’s signature', (c) => {
  it('JSON: the reasoning field is not empty, and turn 2 decodes to what Gemini answered', () => {
    const t1 = c.request(false);
    const req = decode(c, t1);
    const res = gemini.decodeResponse(candidate([thought, call], 'STOP'), req, testContext());
    const answer = c.caller.encodeResponse(res, req, testContext()) as any;
    const field = c.signatureField(answer);
    expect(field).toBeTruthy();
    expect(JSON.stringify(field)).not.toBe('[]');
    if (c.caller.id === 'gemini-interactions') expect(answer.steps.map((s: any) => s.type)).toEqual(['thought', 'function_call']);
    expected(replayed(decode(c, c.next(t1, answer))));
  });

  it('stream: the same, the thought’s end held until the call shows its signature', () => {
    const t1 = c.request(true);
    const req = decode(c, t1);
    const dec = gemini.createStreamDecoder(req, testContext());
    const enc = c.caller.createStreamEncoder(req, testContext());
    const chunks = [candidate([thought]), candidate([call], 'STOP')];
    const events = [...chunks.flatMap((ch) => dec.push({ data: JSON.stringify(ch) })), ...dec.finish()];
    const frames = [...events.flatMap((e) => enc.push(e)), ...enc.finish()];
    const field = c.streamSignature(frames);
    expect(field).toBeTruthy();
    expect(JSON.stringify(field)).not.toBe('[]');
    const answer = c.answerOf(frames);
    if (c.caller.id === 'gemini-interactions') expect(answer.steps.map((s: any) => s.type)).toEqual(['thought', 'function_call']);
    expected(replayed(decode(c, c.next(t1, answer))));
  });
});

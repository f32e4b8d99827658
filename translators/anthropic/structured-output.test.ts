import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeRequest } from './encode-request.ts';
import { createStreamDecoder } from './stream-decoder.ts';
import { JSON_TOOL, usesJsonTool } from './structured-output.ts';

const objectSchema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] };
const arraySchema = { type: 'array', items: { type: 'integer' } };
const req = (schema: Record<string, unknown>, over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gpt-4o',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }],
  stream: false,
  responseFormat: { type: 'json-schema', name: 'answer', schema },
  ...over,
});
const target = (model: string) => ({ name: 'c', baseUrl: 'https://api.anthropic.com', model, apiKey: 'k', options: {} });
const bodyOf = (r: ChatRequest, model: string) =>
  JSON.parse(encodeRequest(r, target(model), testContext()).value.body as string) as Record<string, any>;

const sse = (events: Array<Record<string, unknown>>): SseEvent[] =>
  events.map((e) => ({ event: e.type as string, data: JSON.stringify(e) }));
const toolStream = (partials: string[]) =>
  sse([
    { type: 'message_start', message: { id: 'msg_1', model: 'claude-3-5-haiku', usage: { input_tokens: 5, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: JSON_TOOL, input: {} } },
    ...partials.map((p) => ({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: p } })),
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } },
    { type: 'message_stop' },
  ]);

describe('anthropic structured output', () => {
  it('native output_config for current models, forced tool for legacy ones', () => {
    expect(usesJsonTool('claude-sonnet-4-5')).toBe(false);
    expect(usesJsonTool('claude-opus-4-1')).toBe(false);
    expect(usesJsonTool('claude-3-5-haiku-latest')).toBe(true);
    expect(usesJsonTool('claude-sonnet-4-20250514')).toBe(true);
    expect(bodyOf(req(objectSchema), 'claude-sonnet-4-5').output_config).toEqual({ format: { type: 'json_schema', schema: objectSchema } });
    const legacy = bodyOf(req(arraySchema), 'claude-3-5-haiku-latest');
    expect(legacy.output_config).toBeUndefined();
    expect(legacy.tools).toEqual([
      { name: JSON_TOOL, description: expect.any(String), input_schema: { type: 'object', properties: { value: arraySchema }, required: ['value'] } },
    ]);
    expect(legacy.tool_choice).toEqual({ type: 'tool', name: JSON_TOOL });
  });

  it('the tool answer comes back as text with a stop finish', () => {
    const body = {
      id: 'msg_1',
      type: 'message',
      model: 'claude-3-5-haiku',
      content: [{ type: 'tool_use', id: 'toolu_1', name: JSON_TOOL, input: { value: [1, 2] } }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 5, output_tokens: 9 },
    };
    const res = decodeResponse(body, req(arraySchema), testContext());
    expect(res.choices[0]!.content).toEqual([{ type: 'text', text: '[1,2]' }]);
    expect(res.choices[0]!.finishReason.unified).toBe('stop');
    // Without a structured-output request the same block stays a tool call.
    const plain = decodeResponse(body, req(arraySchema, { responseFormat: undefined }), testContext());
    expect(plain.choices[0]!.content[0]!.type).toBe('tool-call');
  });

  it('streams: object schemas stream as text, wrapped ones arrive whole', () => {
    const run = (schema: Record<string, unknown>, partials: string[]) => {
      const d = createStreamDecoder(req(schema, { stream: true }), testContext());
      return [...toolStream(partials).flatMap((e) => d.push(e)), ...d.finish()];
    };
    const obj = run(objectSchema, ['', '{"a"', ': 1}']);
    expect(obj.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual(['{"a"', ': 1}']);
    expect(obj.some((e) => e.type.startsWith('tool-call'))).toBe(false);
    expect(obj.find((e) => e.type === 'finish')).toEqual({ type: 'finish', reason: { unified: 'stop', raw: 'tool_use' } });
    const arr = run(arraySchema, ['{"value": [1', ', 2]}']);
    expect(arr.filter((e) => e.type === 'text-delta')).toEqual([{ type: 'text-delta', text: '[1,2]' }]);
    expect(arr.map((e) => e.type)).toEqual(['message-start', 'usage', 'text-start', 'text-delta', 'text-end', 'finish', 'usage']);
  });
});

/**
 * A list where a JSON object must be, sent by the official SDKs: each gets its own error type and
 * words naming the field, and nothing reaches the upstream (valibot had copied `[1]` as `{"0": 1}`).
 * Every field of every dialect: test/cross-dialect/objects-not-lists.test.ts.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';
import { apiErrorOf, genai, rejection } from './helpers-gemini.ts';

describe.each(TARGETS)('%s: the SDKs send a list where an object must be', (target) => {
  const h = useHarness(target);
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeAll(() => {
    openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
  });
  const list = [] as unknown as Record<string, unknown>;

  it('openai chat.completions: tools[0].function.parameters, and an integer given a string', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: list } }];
    const e = await rejection(openai.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'hi' }], tools }));
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect((e as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('tools[0].function.parameters');
    expect((e as Error).message).toContain("expected an object, but got an array instead");
    const n = await rejection(openai.chat.completions.create({ model: 'to-anthropic', messages: [{ role: 'user', content: 'hi' }], n: 'two' as unknown as number }));
    expect(n).toBeInstanceOf(OpenAI.BadRequestError);
    expect((n as Error).message).toContain("Invalid type for 'n': expected an integer, but got a string instead.");
    expect(h.mock.requests).toEqual([]);
  });

  it('openai responses: tools[0].parameters', async () => {
    const e = await rejection(openai.responses.create({ model: 'to-anthropic', input: 'hi', tools: [{ type: 'function', name: 'f', parameters: list, strict: false }] }));
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect((e as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('tools[0].parameters');
    expect(h.mock.requests).toEqual([]);
  });

  it('anthropic messages: tools[0].input_schema and a tool_use input', async () => {
    const schema = await rejection(anthropic.messages.create({ model: 'to-openai', max_tokens: 9, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'f', input_schema: list as never }] }));
    expect(schema).toBeInstanceOf(Anthropic.BadRequestError);
    expect((schema as Error).message).toContain('tools.0.input_schema: Input should be a valid dictionary');
    const input = await rejection(
      anthropic.messages.create({
        model: 'to-openai',
        max_tokens: 9,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: [1] }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] },
        ],
      }),
    );
    expect(input).toBeInstanceOf(Anthropic.BadRequestError);
    expect((input as Error).message).toContain('messages.1.content.0.input: Input should be a valid dictionary');
    expect(h.mock.requests).toEqual([]);
  });

  it('@google/genai generateContent: functionCall.args', async () => {
    const e = await rejection(
      genai(h.proxy.url).models.generateContent({
        model: 'to-openai',
        contents: [
          { role: 'user', parts: [{ text: 'hi' }] },
          { role: 'model', parts: [{ functionCall: { name: 'f', args: list } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] },
        ],
      }),
    );
    const { status, body } = apiErrorOf(e);
    expect(status).toBe(400);
    expect(body.error.message).toBe("Invalid value at 'contents[1].parts[0].functionCall.args': must be an object ({ … })");
    expect(h.mock.requests).toEqual([]);
  });
});

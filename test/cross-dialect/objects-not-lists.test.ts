/**
 * A field that must be a JSON object, sent as a list, is the caller's mistake in every dialect: a
 * 400 in the caller's own words naming the field, and nothing sent upstream. (valibot's record and
 * object take a list and copy it as an object: `[1]` went upstream as `{"0": 1}`, `[]` as `{}`.)
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { e2eConfig, INBOUND_KEY } from '../support/proxy.ts';

const sent: string[] = [];
const app = createApp({
  config: parseConfig(e2eConfig('http://127.0.0.1:9', {})),
  fetch: async (url) => {
    sent.push(String(url));
    return new Response('{}', { status: 500 });
  },
});
const headers = { authorization: `Bearer ${INBOUND_KEY}`, 'x-api-key': INBOUND_KEY, 'x-goog-api-key': INBOUND_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };
async function post(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const r = await app.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}
const hi = [{ role: 'user', content: 'hi' }];
const gemini = (model: string) => `/v1beta/models/${model}:generateContent`;
const call = (args: unknown) => ({ role: 'model', parts: [{ functionCall: { name: 'f', args } }] });
const reply = (response: unknown) => ({ role: 'user', parts: [{ functionResponse: { name: 'f', response } }] });

describe('a list where an object must be', () => {
  it.each([
    ['OpenAI tools[].function.parameters', '/v1/chat/completions', { model: 'to-anthropic', messages: hi, tools: [{ type: 'function', function: { name: 'f', parameters: [] } }] }, "Invalid type for 'tools[0].function.parameters': expected an object, but got an array instead."],
    ['Responses tools[].parameters', '/v1/responses', { model: 'to-anthropic', input: 'hi', tools: [{ type: 'function', name: 'f', parameters: [1] }] }, "Invalid type for 'tools[0].parameters': expected an object, but got an array instead."],
    ['Anthropic tools[].input_schema', '/v1/messages', { model: 'to-openai', max_tokens: 9, messages: hi, tools: [{ name: 'f', input_schema: [] }] }, 'tools.0.input_schema: Input should be a valid dictionary'],
    ['Anthropic tool_use input', '/v1/messages', { model: 'to-openai', max_tokens: 9, messages: [...hi, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: [1] }] }] }, 'messages.1.content.0.input: Input should be a valid dictionary'],
    ['Gemini functionCall.args', gemini('to-openai'), { contents: [{ role: 'user', parts: [{ text: 'hi' }] }, call([1]), reply({ a: 1 })] }, "Invalid value at 'contents[1].parts[0].functionCall.args': must be an object ({ … })"],
    ['Gemini functionResponse.response', gemini('to-openai'), { contents: [{ role: 'user', parts: [{ text: 'hi' }] }, call({ a: 1 }), reply([1])] }, "Invalid value at 'contents[2].parts[0].functionResponse.response': must be an object ({ … })"],
    ['Gemini functionDeclarations[].parameters', gemini('to-openai'), { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ functionDeclarations: [{ name: 'f', parameters: [] }] }] }, "Invalid value at 'tools[0].functionDeclarations[0].parameters': must be an object ({ … })"],
    ['Interactions function_call arguments', '/v1beta/interactions', { model: 'to-openai', input: [{ type: 'user_input', content: [{ type: 'text', text: 'hi' }] }, { type: 'function_call', id: 'c1', name: 'f', arguments: [] }] }, "Invalid value at 'input[1].arguments': expected an object, got a list."],
    ['Interactions tools[].parameters', '/v1beta/interactions', { model: 'to-openai', input: 'hi', tools: [{ type: 'function', name: 'f', parameters: [] }] }, "Invalid value at 'tools[0].parameters': expected an object, got a list."],
  ])('%s: a 400 naming it, nothing sent', async (_name, path, body, message) => {
    sent.length = 0;
    const { status, json } = await post(path, body);
    expect(status).toBe(400);
    expect(JSON.stringify(json)).toContain(JSON.stringify(message).slice(1, -1));
    expect(sent).toEqual([]);
  });

  it('an object there still goes through (and a string tool_use input, as before)', async () => {
    sent.length = 0;
    expect((await post('/v1/chat/completions', { model: 'to-anthropic', messages: hi, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] })).status).not.toBe(400);
    expect((await post(gemini('to-openai'), { contents: [{ role: 'user', parts: [{ text: 'hi' }] }, call({ a: [1] }), reply({ r: [] })] })).status).not.toBe(400);
    expect((await post('/v1/messages', { model: 'to-openai', max_tokens: 9, messages: [...hi, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: '{"a":1}' }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] }] })).status).not.toBe(400);
    expect(sent.length).toBe(3);
  });
});

/**
 * A caller's malformed Messages request: a 400 naming the field, in the real API's words.
 * One case per rule, so a rule that stops being checked (or checks the wrong bound) is noticed.
 */
import { describe, expect, it } from 'vitest';
import { decodeRequest } from './decode-request.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const H = { 'anthropic-version': '2023-06-01' };

const msgs = [{ role: 'user', content: 'hi' }];

const ok = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: msgs };

const decode = (body: unknown) => decodeRequest({ body, headers: H, params: {}, query: {} });

const userBlock = (block: unknown) => ({ ...ok, messages: [{ role: 'user', content: [block] }] });

const cases: Array<[string, unknown, string, string]> = [
  ['body not an object', 'x', '', 'Input should be a valid dictionary'],
  ['model empty', { ...ok, model: '' }, 'model', 'String should have at least 1 character'],
  ['model not a string', { ...ok, model: 5 }, 'model', 'Input should be a valid string'],
  ['max_tokens a string', { ...ok, max_tokens: '5' }, 'max_tokens', 'Input should be a valid number'],
  ['messages not a list', { ...ok, messages: {} }, 'messages', 'Input should be a valid list'],
  ['messages empty', { ...ok, messages: [] }, 'messages', 'at least one message is required'],
  ['content a number', { ...ok, messages: [{ role: 'user', content: 1 }] }, 'messages.0.content', 'Input should be a valid string or list'],
  ['system a number', { ...ok, system: 1 }, 'system', 'Input should be a valid string or list'],
  ['system an image', { ...ok, system: [{ type: 'image', source: { type: 'url', url: 'https://x' } }] }, 'system.0.type', "Input should be 'text'"],
  ['stop_sequences of numbers', { ...ok, stop_sequences: [1] }, 'stop_sequences.0', 'Input should be a valid string'],
  ['stream a string', { ...ok, stream: 'yes' }, 'stream', 'Input should be a valid boolean'],
  ['temperature below 0', { ...ok, temperature: -0.1 }, 'temperature', 'Input should be greater than or equal to 0'],
  ['top_p above 1', { ...ok, top_p: 1.1 }, 'top_p', 'Input should be less than or equal to 1'],
  ['top_p below 0', { ...ok, top_p: -0.1 }, 'top_p', 'Input should be greater than or equal to 0'],
  ['top_k a float', { ...ok, top_k: 1.5 }, 'top_k', 'Input should be a valid integer'],
  ['metadata a string', { ...ok, metadata: 'x' }, 'metadata', 'Input should be a valid dictionary'],
  ['thinking without type', { ...ok, thinking: {} }, 'thinking.type', 'Field required'],
  ['tool_choice unknown', { ...ok, tool_choice: { type: 'some' } }, 'tool_choice.type', "Input tag found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'"],
  ['tool_choice tool with empty name', { ...ok, tool_choice: { type: 'tool', name: '' } }, 'tool_choice.name', 'String should have at least 1 character'],
  ['tool_choice parallel flag a string', { ...ok, tool_choice: { type: 'auto', disable_parallel_tool_use: 'no' } }, 'tool_choice.disable_parallel_tool_use', 'Input should be a valid boolean'],
  ['tools not a list', { ...ok, tools: {} }, 'tools', 'Input should be a valid list'],
  ['tool type a number', { ...ok, tools: [{ type: 5, name: 'f', input_schema: {} }] }, 'tools.0.type', 'Input should be a valid string'],
  ['tool name too long', { ...ok, tools: [{ name: 'f'.repeat(65), input_schema: {} }] }, 'tools.0.name', 'String should have at most 64 characters'],
  ['tool name empty', { ...ok, tools: [{ name: '', input_schema: {} }] }, 'tools.0.name', 'String should have at least 1 character'],
  ['output_config a string', { ...ok, output_config: 'x' }, 'output_config', 'Input should be a valid dictionary'],
  ['output_config.format of another type', { ...ok, output_config: { format: { type: 'xml', schema: {} } } }, 'output_config.format.type', 'must be "json_schema"'],
  ['image source unknown', userBlock({ type: 'image', source: { type: 'ftp' } }), 'messages.0.content.0.source.type', "Input tag found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'"],
  ['document source unknown', userBlock({ type: 'document', source: { type: 'ftp' } }), 'messages.0.content.0.source.type', "Input tag found using 'type' does not match any of the expected tags: 'base64', 'text', 'url', 'file', 'content'"],
  ['tool_result content a number', userBlock({ type: 'tool_result', tool_use_id: 't', content: 3 }), 'messages.0.content.0.content', 'Input should be a valid string or list'],
  ['tool_use without id', userBlock({ type: 'tool_use', name: 'f', input: {} }), 'messages.0.content.0.id', 'Field required'],
  ['block without type', userBlock({ text: 'x' }), 'messages.0.content.0.type', 'Field required'],
];

describe('anthropic caller: request validation', () => {
  it.each(cases)('%s', (_name, body, param, reason) => {
    const err = proxyErrorOf(() => decode(body));
    expect(err.kind).toBe('invalid-request');
    expect(err.status).toBe(400);
    if (param) {
      expect(err.param).toBe(param);
      expect(err.message.startsWith(`${param}: ${reason}`)).toBe(true);
    } else {
      expect(err.message.startsWith(reason)).toBe(true);
    }
  });

  it.each([
    ['temperature 0 and 1', { temperature: 0, top_p: 1, top_k: 1 }],
    ['top_p 0', { top_p: 0 }],
    ['model of 256 characters', { model: 'm'.repeat(256) }],
    ['tool name of 64 characters', { tools: [{ name: 'f'.repeat(64), input_schema: {} }] }],
    ['nulls for optional fields', { system: null, metadata: null, stop_sequences: null, stream: null, temperature: null, top_k: null, top_p: null, thinking: null, tool_choice: null, tools: null, output_config: null }],
  ])('the bounds themselves are accepted: %s', (_name, extra) => {
    expect(() => decode({ ...ok, ...extra })).not.toThrow();
  });
});

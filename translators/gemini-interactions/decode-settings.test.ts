import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeGenerationConfig, decodeResponseFormat, decodeToolChoice } from './decode-settings.ts';

const decode = (body: Record<string, unknown>) => decodeRequest({ body: { model: 'm', input: 'x', ...body }, headers: {}, params: {}, query: {} }).value;
const schema = { type: 'object', properties: { a: { type: 'string' } } };

describe('tool_choice → canonical', () => {
  it.each([
    ['auto', { type: 'auto' }],
    ['validated', { type: 'auto' }],
    ['any', { type: 'required' }],
    ['none', { type: 'none' }],
    [{ allowed_tools: {} }, { type: 'auto' }],
    [{ allowed_tools: { mode: 'any' } }, { type: 'required' }],
    [{ allowed_tools: { mode: 'validated', tools: [] } }, { type: 'auto' }],
    [{ allowed_tools: { mode: 'none', tools: ['a'] } }, { type: 'none' }],
    [{ allowed_tools: { tools: ['a'] } }, { type: 'allowed', names: ['a'], mode: 'auto' }],
    [{ allowed_tools: { mode: 'validated', tools: ['a', 'b'] } }, { type: 'allowed', names: ['a', 'b'], mode: 'auto' }],
    [{ allowed_tools: { mode: 'any', tools: ['a'] } }, { type: 'tool', name: 'a' }],
    [{ allowed_tools: { mode: 'any', tools: ['a', 'b'] } }, { type: 'allowed', names: ['a', 'b'], mode: 'required' }],
  ])('%j', (choice, expected) => {
    expect(decodeToolChoice(choice)).toEqual(expected);
  });
});

describe('response_format → canonical format, output modalities, and the caller’s own kept when canonical cannot say it all', () => {
  it.each([
    ['plain text', { type: 'text' }, { responseFormat: { type: 'text' } }],
    ['text/plain', { type: 'text', mime_type: 'text/plain' }, { responseFormat: { type: 'text' } }],
    ['json', { type: 'text', mime_type: 'application/json' }, { responseFormat: { type: 'json' } }],
    ['json with a schema', { type: 'text', mime_type: 'application/json', schema }, { responseFormat: { type: 'json-schema', schema } }],
    ['another text mime type: no canonical format, kept raw', { type: 'text', mime_type: 'text/x.enum' }, { raw: { type: 'text', mime_type: 'text/x.enum' } }],
    ['a field canonical lacks: kept raw', { type: 'text', language: 'fr' }, { responseFormat: { type: 'text' }, raw: { type: 'text', language: 'fr' } }],
    ['image output', { type: 'image', aspect_ratio: '1:1' }, { modalities: ['image'], raw: { type: 'image', aspect_ratio: '1:1' } }],
    ['audio output', { type: 'audio' }, { modalities: ['audio'], raw: { type: 'audio' } }],
    ['another output kind', { type: 'video' }, { raw: { type: 'video' } }],
    ['a list of one text format says all', [{ type: 'text', mime_type: 'application/json', schema }], { responseFormat: { type: 'json-schema', schema } }],
    ['a list of one inexact text format', [{ type: 'text', mime_type: 'text/x.enum' }], { raw: [{ type: 'text', mime_type: 'text/x.enum' }] }],
    ['two text formats: the last, kept raw', [{ type: 'text' }, { type: 'text', mime_type: 'application/json' }], { responseFormat: { type: 'json' }, raw: [{ type: 'text' }, { type: 'text', mime_type: 'application/json' }] }],
    ['text and image', [{ type: 'text' }, { type: 'image' }], { responseFormat: { type: 'text' }, modalities: ['text', 'image'], raw: [{ type: 'text' }, { type: 'image' }] }],
    ['audio alone in a list', [{ type: 'audio' }], { modalities: ['audio'], raw: [{ type: 'audio' }] }],
    ['another kind alone in a list', [{ type: 'video' }], { raw: [{ type: 'video' }] }],
    ['text and another kind', [{ type: 'text' }, { type: 'video' }], { responseFormat: { type: 'text' }, raw: [{ type: 'text' }, { type: 'video' }] }],
  ])('%s', (_name, format, expected) => {
    expect(decodeResponseFormat(format)).toEqual(expected);
  });

  it('a format that is neither an object nor a list, or a schema on plain text, is a 400 naming it', () => {
    expect(() => decodeResponseFormat('json')).toThrow(new ProxyError('invalid-request', "Invalid value at 'response_format': expected an object or a list.", { param: 'response_format' }));
    try {
      decodeResponseFormat([{ type: 'text' }, { type: 'text', schema }]);
      expect.unreachable();
    } catch (e) {
      expect((e as ProxyError).param).toBe('response_format[1].mime_type');
      expect((e as ProxyError).message).toBe("Invalid value at 'response_format[1].mime_type': a 'schema' needs mime_type 'application/json'.");
    }
  });
});

describe('generation_config and function tools: what canonical has no home for rides along', () => {
  it('unknown generation_config keys become extras, null ones are dropped', () => {
    expect(decode({ generation_config: { temperature: 0.5, speech_config: { voice: 'Kore' }, candidate_count: null } }).extras).toEqual({
      dialect: 'gemini-interactions',
      fields: { 'generation_config.speech_config': { voice: 'Kore' } },
    });
  });

  it('a function tool’s own extra fields ride in its extras, the known ones do not', () => {
    expect(decode({ tools: [{ type: 'function', name: 'f', description: 'd', parameters: schema, strict: true }, { type: 'function', name: 'g' }] }).tools).toEqual([
      { name: 'f', description: 'd', parameters: schema, extras: { dialect: 'gemini-interactions', fields: { strict: true } } },
      { name: 'g' },
    ]);
  });
});

describe('hosted tools → canonical', () => {
  it('Google Search and URL context are also web tools (a search, a page read); the other built-ins are not', () => {
    expect(decode({ tools: [{ type: 'google_search' }, { type: 'url_context' }, { type: 'code_execution' }] }).nativeTools).toStrictEqual([
      { dialect: 'gemini', definition: { googleSearch: {} }, path: 'tools[0]', web: { kind: 'search' } },
      { dialect: 'gemini', definition: { urlContext: {} }, path: 'tools[1]', web: { kind: 'fetch' } },
      { dialect: 'gemini', definition: { codeExecution: {} }, path: 'tools[2]' },
    ]);
  });
});

describe('decodeRequest: the whole request’s fields', () => {
  it('a plain request carries no extras; background false and null fields are nothing; stream asks for usage', () => {
    const plain = decode({ background: false, previous_interaction_id: null, agent: null, agent_config: null, stream: true, system_instruction: '' });
    expect(plain).toEqual({ model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], stream: true, streamUsage: true });
    expect(decode({ stream: false })).not.toHaveProperty('streamUsage');
  });

  it('hints alone make extras with empty fields; sampling, seed and stop decoded', () => {
    const req = decode({ store: false, generation_config: { seed: 7, stop_sequences: ['END'], temperature: 0, max_output_tokens: 9, thinking_level: 'high' } });
    expect(req.extras).toEqual({ dialect: 'gemini-interactions', fields: {}, hints: { store: false } });
    expect([req.seed, req.stop, req.temperature, req.maxOutputTokens, req.reasoning]).toEqual([7, ['END'], 0, 9, { effort: 'high' }]);
  });

  it('a kept response_format with no other field makes extras without hints', () => {
    expect(decode({ response_format: { type: 'video' } }).extras).toEqual({ dialect: 'gemini-interactions', fields: { response_format: { type: 'video' } } });
  });
});

describe('what a request does not set stays unset', () => {
  it('only hosted tools: no function list; only functions: no hosted list; a function without description or parameters has neither', () => {
    const hosted = decode({ tools: [{ type: 'google_search' }] });
    expect(hosted).not.toHaveProperty('tools');
    const fns = decode({ tools: [{ type: 'function', name: 'g' }] });
    expect(fns).not.toHaveProperty('nativeTools');
    expect(fns.tools).toStrictEqual([{ name: 'g' }]);
    expect(decode({ tools: [{ type: 'function', name: 'g', description: null, parameters: null }] }).tools).toStrictEqual([{ name: 'g' }]);
  });

  it('a generation_config of one setting sets that one alone (no reasoning without a thinking field)', () => {
    expect(decodeGenerationConfig({ temperature: 0.5 })).toStrictEqual({ temperature: 0.5, extras: {} });
    expect(decodeGenerationConfig({ thinking_summaries: 'none' })).toStrictEqual({ reasoning: { includeThoughts: false }, extras: {} });
    expect(decodeGenerationConfig({ thinking_level: 'low', max_output_tokens: null })).toStrictEqual({ reasoning: { effort: 'low' }, extras: {} });
    expect(decode({ generation_config: { seed: 1 } })).not.toHaveProperty('reasoning');
  });

  it('a list format of text alone sets no modalities; a text entry of another type no format', () => {
    expect(decodeResponseFormat([{ type: 'text', mime_type: 'application/json' }])).toStrictEqual({ responseFormat: { type: 'json' } });
    expect(decodeResponseFormat([{ type: 'text', mime_type: 'text/csv' }, { type: 'image' }])).toStrictEqual({ modalities: ['text', 'image'], raw: [{ type: 'text', mime_type: 'text/csv' }, { type: 'image' }] });
    expect(decode({ response_format: [{ type: 'text' }] })).not.toHaveProperty('modalities');
  });
});

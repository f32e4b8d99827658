/**
 * A Responses caller's settings → canonical, and what rides along in extras (fields for a
 * Responses upstream, hints that only tune).
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import { decodeRequest, responsesExtras } from './decode-request.ts';

const decode = (body: unknown) => decodeRequest({ body, headers: {}, params: {}, query: {} });
const base = { model: 'gpt-5.1', input: 'hi' };

describe('decodeRequest: settings', () => {
  it.each([[null], [[base]], ['{"model":"m"}'], [5]])('a body that is no JSON object (%j) is a 400', (body) => {
    expect(() => decode(body)).toThrow(expect.objectContaining({ kind: 'invalid-request', message: 'We could not parse the JSON body of your request. The body must be a JSON object.' }));
  });

  it('a bare request is the model, the input and nothing else: no extras, not streaming', () => {
    // Absent, not undefined: a canonical request says only what the caller said.
    expect(decode(base)).toStrictEqual({ value: { model: 'gpt-5.1', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false }, warnings: [] });
    const nulls = { ...base, instructions: null, tools: null, tool_choice: null, parallel_tool_calls: null, max_output_tokens: null, temperature: null, top_p: null, top_logprobs: null, reasoning: null, text: null, include: null, stream: null, metadata: null, user: null, safety_identifier: null, store: null };
    expect(decode(nulls).value).toStrictEqual(decode(base).value);
  });

  it('sampling and limits; stream with usage; instructions as the system prompt', () => {
    const { value } = decode({ ...base, instructions: 'Be brief.', parallel_tool_calls: true, max_output_tokens: 100, temperature: 0, top_p: 0, stream: true });
    expect(value).toMatchObject({ system: [{ type: 'text', text: 'Be brief.' }], parallelToolCalls: true, maxOutputTokens: 100, temperature: 0, topP: 0, stream: true, streamUsage: true });
    expect(decode({ ...base, stream: false }).value).not.toHaveProperty('streamUsage');
  });

  it('formats: json_schema with a description, without strict; no format is none', () => {
    expect(decode({ ...base, text: { format: { type: 'json_schema', name: 'n', schema: { type: 'object' }, description: 'd', strict: null } } }).value.responseFormat).toEqual({ type: 'json-schema', name: 'n', schema: { type: 'object' }, description: 'd' });
    expect(decode({ ...base, text: { format: { type: 'json_schema', name: 'n', schema: {}, description: null, strict: false } } }).value.responseFormat).toStrictEqual({ type: 'json-schema', name: 'n', schema: {}, strict: false });
    expect(decode({ ...base, text: { format: { type: 'text' } } }).value.responseFormat).toEqual({ type: 'text' });
    expect(decode({ ...base, text: { verbosity: 'high' } }).value).not.toHaveProperty('responseFormat');
    expect(() => decode({ ...base, text: { format: { type: 'yaml' } } })).toThrow(expect.objectContaining({ param: 'text.format.type' }));
  });

  it.each([
    [{ effort: 'low' }, { effort: 'low' }, []],
    [{ effort: 'minimal', summary: 'auto' }, { effort: 'minimal', includeThoughts: true }, []],
    [{ effort: 'max' }, { effort: 'high' }, [{ code: 'approximated', path: 'reasoning.effort', detail: 'max→high' }]],
    [{ effort: null, generate_summary: 'concise' }, { includeThoughts: true }, []],
    [{}, {}, []],
  ] as const)('reasoning %j → %j', (reasoning, expected, warnings) => {
    const out = decode({ ...base, reasoning });
    expect(out.value.reasoning).toEqual(expected);
    expect(out.warnings).toEqual(warnings);
  });

  it('user: user first, else safety_identifier; both given, the safety identifier rides as a hint', () => {
    expect(decode({ ...base, user: 'u' }).value).toMatchObject({ user: 'u' });
    expect(decode({ ...base, user: 'u' }).value).not.toHaveProperty('extras');
    expect(decode({ ...base, safety_identifier: 's' }).value.user).toBe('s');
    expect(decode({ ...base, user: 'u', safety_identifier: 's' }).value).toMatchObject({ user: 'u', extras: { dialect: 'openai-responses', fields: {}, hints: { safety_identifier: 's' } } });
    expect(decode({ ...base, metadata: { a: 'b' } }).value.metadata).toEqual({ a: 'b' });
  });
});

describe('decodeRequest: extras', () => {
  const extrasOf = (body: Record<string, unknown>) => responsesExtras(decode({ ...base, ...body }).value);

  it('top_logprobs without the logprobs include is a hint, not a setting', () => {
    const { value } = decode({ ...base, top_logprobs: 5 });
    expect(value).not.toHaveProperty('logprobs');
    expect(value).not.toHaveProperty('topLogprobs');
    expect(value.extras).toEqual({ dialect: 'openai-responses', fields: {}, hints: { top_logprobs: 5 } });
    expect(decode({ ...base, include: ['message.output_text.logprobs'] }).value).toMatchObject({ logprobs: true });
    expect(decode({ ...base, include: ['message.output_text.logprobs'] }).value).not.toHaveProperty('topLogprobs');
  });

  it('the encrypted-reasoning include alone makes extras with nothing else', () => {
    expect(extrasOf({ include: ['reasoning.encrypted_content'] })).toEqual({ dialect: 'openai-responses', fields: {}, encryptedReasoning: true });
    expect(extrasOf({ include: [] })).toBeUndefined();
  });

  it.each([
    [{ effort: 'high', summary: 'auto' }, undefined],
    [{ effort: 'max' }, { effort: 'max' }],
    [{ summary: 'concise' }, { summary: 'concise' }],
    [{ summary: 'detailed' }, { summary: 'detailed' }],
    [{ generate_summary: 'auto' }, { generate_summary: 'auto' }],
    [{ effort: 'low', context: 'keep' }, { effort: 'low', context: 'keep' }],
  ] as const)('reasoning %j is kept whole as a hint when canonical cannot say it all: %j', (reasoning, hint) => {
    expect(extrasOf({ reasoning })?.hints?.['reasoning']).toEqual(hint);
  });

  it('fields and hints: stateful fields for the upstream, tuning ones as hints, decoded ones and nulls in neither', () => {
    expect(extrasOf({ store: true, service_tier: 'flex', truncation: 'auto', previous_response_id: 'resp_0', prompt: { id: 'p' }, conversation: null, temperature: 1, text: { verbosity: 'low' } })).toEqual({
      dialect: 'openai-responses',
      fields: { previous_response_id: 'resp_0', prompt: { id: 'p' } },
      hints: { store: true, service_tier: 'flex', truncation: 'auto', text: { verbosity: 'low' } },
    });
  });

  it('another dialect’s extras are not this dialect’s', () => {
    const req = { extras: { dialect: 'anthropic', fields: {} } } as Pick<ChatRequest, 'extras'>;
    expect(responsesExtras(req)).toBeUndefined();
    expect(responsesExtras({})).toBeUndefined();
  });
});

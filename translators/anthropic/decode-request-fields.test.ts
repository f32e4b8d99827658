/** What a caller's request becomes: fields kept for an Anthropic upstream, tools, turns, betas. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import type { CallerInput } from '../types.ts';
import { deepFreeze } from '../../src/kit/index.ts';
import { betasOf, checkThinkingBudget, decodeRequest } from './decode-request.ts';
import { jsonToolDefinition, jsonToolMode, usesJsonTool } from './structured-output.ts';

const H = { 'anthropic-version': '2023-06-01' };
const msgs = [{ role: 'user', content: 'hi' }];
const ok = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: msgs };
const input = (body: unknown, headers: Record<string, string> = H, query: Record<string, string> = {}): CallerInput => ({ body, headers, params: {}, query });
const decode = (body: Record<string, unknown>, headers?: Record<string, string>, query?: Record<string, string>) =>
  decodeRequest(input({ ...ok, ...body }, headers, query));

describe('anthropic caller: fields kept for an Anthropic upstream', () => {
  it('a plain request has no extras and no warnings', () => {
    const { value, warnings } = decode({});
    expect(value).toEqual({ model: 'claude-sonnet-4-5', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, maxOutputTokens: 1024 });
    expect(warnings).toEqual([]);
  });

  it('unknown body fields and metadata beyond user_id are kept; undefined values are not', () => {
    const { value } = decode({ container: 'c', context_management: { edits: [] }, metadata: { user_id: 'u', tenant: 't' }, mcp_servers: undefined });
    expect(value.user).toBe('u');
    expect(value.extras).toEqual({ dialect: 'anthropic', fields: { container: 'c', metadata: { tenant: 't' } } });
    // Context editing has its canonical home, its wire object kept for an Anthropic upstream.
    expect(value.contextManagement).toEqual({ dialect: 'anthropic', edits: [], raw: { edits: [] } });
    expect(decode({ metadata: { user_id: 'u' } }).value.extras).toBeUndefined();
    expect(decode({ metadata: {} }).value.user).toBeUndefined();
  });

  it('betas: ?beta=true kept only with betas; betasOf splits, trims and joins both headers', () => {
    expect(decode({}, { ...H, 'anthropic-beta': 'x-1' }, { beta: 'true' }).value.extras?.fields).toEqual({ 'anthropic-beta': ['x-1'], '?beta': 'true' });
    expect(decode({}, { ...H, 'anthropic-beta': 'x-1' }, { beta: 'false' }).value.extras?.fields).toEqual({ 'anthropic-beta': ['x-1'] });
    expect(decode({}, H, { beta: 'true' }).value.extras).toBeUndefined();
    expect(betasOf({ 'anthropic-beta': ' a , ,b', 'compat-beta': 'c' })).toEqual(['a', 'b', 'c']);
    expect(betasOf({ 'compat-beta': 'c' })).toEqual(['c']);
    expect(betasOf({})).toEqual([]);
  });

  it('stream is true only when the caller says true', () => {
    expect(decode({ stream: true }).value.stream).toBe(true);
    expect(decode({ stream: false }).value.stream).toBe(false);
    expect(decode({ stream: null }).value.stream).toBe(false);
  });

  it('temperature, top_p and top_k of 0-ish values are kept (not mistaken for absent)', () => {
    const { value } = decode({ temperature: 0, top_p: 0, top_k: 1 });
    expect(value).toMatchObject({ temperature: 0, topP: 0, topK: 1 });
    expect(decode({ stop_sequences: [] }).value.stop).toEqual([]);
  });
});

describe('anthropic caller: tools', () => {
  it('custom tools: description, strict, cache and unknown fields (as tool extras) kept', () => {
    const { value } = decode({
      tools: [
        { type: 'custom', name: 'f', description: 'does f', input_schema: { type: 'object' }, strict: false, cache_control: { type: 'ephemeral', ttl: '1h' }, defer_loading: true, input_examples: undefined },
        { name: 'g', input_schema: { type: 'object' }, description: '' },
      ],
    });
    expect(value.tools).toEqual([
      { name: 'f', description: 'does f', parameters: { type: 'object' }, strict: false, cache: { ttl: '1h' }, extras: { dialect: 'anthropic', fields: { defer_loading: true } } },
      { name: 'g', parameters: { type: 'object' } },
    ]);
    expect(value.nativeTools).toBeUndefined();
  });

  it('built-in tools are native Anthropic tools, kept whole; no custom tools then', () => {
    const bash = { type: 'bash_20250124', name: 'bash' };
    const { value } = decode({ tools: [bash] });
    expect(value.nativeTools).toEqual([{ dialect: 'anthropic', definition: bash, path: 'tools[0]' }]);
    expect(value.tools).toBeUndefined();
  });

  it('disable_parallel_tool_use true turns parallel calls off; false leaves them alone', () => {
    expect(decode({ tool_choice: { type: 'auto', disable_parallel_tool_use: true } }).value.parallelToolCalls).toBe(false);
    expect(decode({ tool_choice: { type: 'auto', disable_parallel_tool_use: false } }).value).not.toHaveProperty('parallelToolCalls');
    expect(decode({ tool_choice: { type: 'none' } }).value).not.toHaveProperty('parallelToolCalls');
  });
});

describe('anthropic caller: turns', () => {
  it('consecutive same-role turns are one turn; system turns join the system prompt in order', () => {
    const { value } = decode(
      {
        system: 'First.',
        messages: [
          { role: 'user', content: 'a' },
          { role: 'system', content: [{ type: 'text', text: 'Second.' }] },
          { role: 'user', content: 'b' },
          { role: 'assistant', content: 'c' },
          { role: 'assistant', content: 'd' },
        ],
      },
      { 'anthropic-version': '2026-10-21' },
    );
    expect(value.system).toEqual([{ type: 'text', text: 'First.' }, { type: 'text', text: 'Second.' }]);
    expect(value.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'c' }, { type: 'text', text: 'd' }] },
    ]);
  });

  it('an empty assistant turn is allowed only last; an empty user turn last is refused', () => {
    expect(() => decode({ messages: [{ role: 'assistant', content: [] }, { role: 'user', content: 'x' }] })).toThrow(
      expect.objectContaining({ param: 'messages.0' }),
    );
    expect(() => decode({ messages: [{ role: 'user', content: 'x' }, { role: 'user', content: [] }] })).toThrow(expect.objectContaining({ param: 'messages.1' }));
  });

  it('compat-version is enough; anthropic-version is enough; a count_tokens call by its other name needs no max_tokens', () => {
    expect(() => decodeRequest(input(ok, { 'compat-version': 'x' }))).not.toThrow();
    const { value } = decodeRequest({ body: { model: 'm', messages: msgs }, headers: H, params: { method: 'countTokens' }, query: {} });
    expect(value.maxOutputTokens).toBeUndefined();
  });
});

describe('structured output: which models get the json_response tool', () => {
  it.each([
    ['claude-3-5-sonnet-latest', true],
    ['claude-instant-1.2', true],
    ['claude-2.1', true],
    ['claude-opus-4-0', true],
    ['claude-sonnet-4-20250514', true],
    ['claude-sonnet-4-5', false],
    ['claude-opus-4-1', false],
    ['my-claude-3', false],
  ])('%s → %s', (model, legacy) => {
    expect(usesJsonTool(model)).toBe(legacy);
  });

  it('object schemas are the tool input as they are; others are wrapped in {value}; the description is the caller’s or ours', () => {
    expect(jsonToolDefinition({ type: 'json-schema', name: 'x', schema: { properties: { a: {} } }, description: 'mine' })).toEqual({
      name: 'json_response',
      description: 'mine',
      input_schema: { properties: { a: {} } },
    });
    const wrapped = jsonToolDefinition({ type: 'json-schema', name: 'x', schema: { type: 'array' } });
    expect(wrapped.input_schema).toEqual({ type: 'object', properties: { value: { type: 'array' } }, required: ['value'] });
    expect(wrapped.description).toMatch(/final answer/);
    const req = (over: Partial<ChatRequest>) => ({ ...over }) as Pick<ChatRequest, 'responseFormat' | 'tools'>;
    expect(jsonToolMode(req({ responseFormat: { type: 'json' } }))).toBeUndefined();
    expect(jsonToolMode(req({ responseFormat: { type: 'json-schema', name: 'x', schema: { type: 'string' } } }))).toEqual({ wrapped: true });
    expect(jsonToolMode(req({ responseFormat: { type: 'json-schema', name: 'x', schema: { type: 'object' } }, tools: [{ name: 'json_response' }] }))).toBeUndefined();
  });
});

describe('anthropic caller: fields left out when absent', () => {
  it('absent, null or undefined settings add no field at all', () => {
    const plain = { model: 'claude-sonnet-4-5', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
    expect(decode({ temperature: null, top_p: null, top_k: null, mcp_servers: undefined }).value).toStrictEqual({ ...plain, maxOutputTokens: 1024 });
    const counted = decodeRequest({ body: { model: 'claude-sonnet-4-5', messages: msgs }, headers: H, params: { method: 'count_tokens' }, query: {} });
    expect(counted.value).toStrictEqual(plain);
    expect(decode({ thinking: { type: 'between_tools' } }).value).toStrictEqual({ ...plain, maxOutputTokens: 1024, extras: { dialect: 'anthropic', fields: { thinking: { type: 'between_tools' } } } });
  });

  it('a tool with no strict and an undefined extra field has neither', () => {
    const { value } = decode({ tools: [{ name: 'f', input_schema: { type: 'object' }, defer_loading: undefined }] });
    expect(value.tools).toStrictEqual([{ name: 'f', parameters: { type: 'object' } }]);
  });

  it('a system turn inside messages is checked at its own path', () => {
    expect(() => decode({ messages: [{ role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://i' } }] }, ...msgs] })).toThrow('messages.0.content.0.type');
  });
});

describe('anthropic caller: decoded turns kept', () => {
  it('a message not frozen whole is decoded afresh and left unfrozen', () => {
    const { value } = decode({});
    expect(Object.isFrozen(value.messages[0])).toBe(false);
  });

  it('a frozen message whose decoding warns is decoded, and warns, each time', () => {
    const doc = { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' }, context: 'c' }] };
    deepFreeze(doc);
    for (let i = 0; i < 2; i++) expect(decode({ messages: [doc] }).warnings).toEqual([{ code: 'dropped', path: 'messages.0.content.1.context' }]);
  });
});

describe('checkThinkingBudget', () => {
  const req = (budgetTokens: number | undefined, maxOutputTokens: number | undefined): ChatRequest => ({
    model: 'm',
    system: [],
    messages: [],
    stream: false,
    ...(budgetTokens !== undefined && { reasoning: { budgetTokens } }),
    ...(maxOutputTokens !== undefined && { maxOutputTokens }),
  });

  it('only a positive budget must stay under max_tokens', () => {
    expect(() => checkThinkingBudget(req(0, 0))).not.toThrow();
    expect(() => checkThinkingBudget(req(-1, -5))).not.toThrow();
    expect(() => checkThinkingBudget(req(2000, undefined))).not.toThrow();
    expect(() => checkThinkingBudget(req(undefined, 5))).not.toThrow();
    expect(() => checkThinkingBudget(req(2000, 2001))).not.toThrow();
    expect(() => checkThinkingBudget(req(1, 1))).toThrow('max_tokens: `max_tokens` must be greater than `thinking.budget_tokens`');
  });
});

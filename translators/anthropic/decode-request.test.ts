import { describe, expect, it } from 'vitest';
import { encodeSignature, encodeToolCallId, ProxyError } from '../../src/canonical/index.ts';
import { fixtureJson } from '../../test/support/fixtures.ts';
import type { CallerInput } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { deepFreeze } from '../../src/kit/index.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const H = { 'anthropic-version': '2023-06-01' };
const input = (body: unknown, headers: Record<string, string> = H, params: Record<string, string> = {}): CallerInput => ({
  body,
  headers,
  params,
  query: {},
});
const base = { model: 'claude-sonnet-4-5', max_tokens: 1024 };
const decode = (body: unknown, headers?: Record<string, string>) => decodeRequest(input(body, headers));

describe('anthropic decodeRequest: fixtures', () => {
  const names = [
    'error-400-invalid-request.request.json',
    'image-input.request.json',
    'server-tool-web-search-citations.request.json',
    'stream-structured-output-json-schema.request.json',
    'stream-tool-result-followup.request.json',
    'stream-tool-use.request.json',
    'structured-output-json-schema.request.json',
    'text-then-tool-use.request.json',
    'tool-result-followup.request.json',
    'tool-use-single.request.json',
  ];
  it.each(names)('decodes %s', (name) => {
    const { value } = decode(fixtureJson('anthropic', name));
    expect(value.model).toMatch(/^claude-/);
    expect(value.maxOutputTokens).toBe(1024);
    expect(value.messages.length).toBeGreaterThan(0);
  });

  it('tool-result-followup: tool_use and tool_result parts, tools', () => {
    const { value } = decode(fixtureJson('anthropic', 'tool-result-followup.request.json'));
    expect(value.stream).toBe(false);
    expect(value.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(value.messages[1]!.content).toEqual([
      { type: 'tool-call', id: 'toolu_013DU6hV4C1M8dJ32ybQFAFi', name: 'get_weather', arguments: '{"location":"SF","units":"c"}' },
    ]);
    expect(value.messages[2]!.content).toEqual([
      {
        type: 'tool-result',
        callId: 'toolu_013DU6hV4C1M8dJ32ybQFAFi',
        content: [{ type: 'text', text: '{"location": "SF", "temperature": "20\\u00b0C", "condition": "Sunny"}' }],
      },
    ]);
    expect(value.tools?.[0]?.name).toBe('get_weather');
    expect(value.tools?.[0]?.parameters?.required).toEqual(['location', 'units']);
    expect(value.tools?.[0]?.description).toBeUndefined();
  });

  it('consecutive user turns (error-400 request) are merged', () => {
    const { value } = decode(fixtureJson('anthropic', 'error-400-invalid-request.request.json'));
    expect(value.messages).toHaveLength(1);
    expect(value.messages[0]!.content.map((p) => p.type)).toEqual(['text', 'tool-result']);
  });

  it('image input: base64 source', () => {
    const { value } = decode(fixtureJson('anthropic', 'image-input.request.json'));
    const img = value.messages[0]!.content[1]!;
    expect(img).toMatchObject({ type: 'image', source: { type: 'base64', mediaType: 'image/jpeg' } });
  });

  it('structured output: output_config.format → json-schema response format', () => {
    const { value } = decode(fixtureJson('anthropic', 'stream-structured-output-json-schema.request.json'));
    expect(value.stream).toBe(true);
    expect(value.responseFormat).toEqual({ type: 'json-schema', schema: { type: 'array', items: { type: 'integer' } } });
    expect(value.extras).toBeUndefined();
  });

  it('web search server tool → nativeTools', () => {
    const { value } = decode(fixtureJson('anthropic', 'server-tool-web-search-citations.request.json'));
    expect(value.tools).toBeUndefined();
    expect(value.nativeTools).toEqual([
      { dialect: 'anthropic', definition: { type: 'web_search_20250305', name: 'web_search' }, path: 'tools[0]', web: { kind: 'search' } },
    ]);
  });
});

describe('anthropic decodeRequest: fields', () => {
  it('requires anthropic-version (or compat-version)', () => {
    const err = proxyErrorOf(() => decode(base, {}));
    expect(err.kind).toBe('invalid-request');
    expect(err.message).toBe('anthropic-version: header is required');
    expect(() => decode({ ...base, messages: [{ role: 'user', content: 'hi' }] }, { 'compat-version': '2026-10-21' })).not.toThrow();
  });

  it('every body field', () => {
    const { value } = decode({
      ...base,
      max_tokens: 4096,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hi' }],
      metadata: { user_id: 'u-1' },
      stop_sequences: ['END'],
      stream: true,
      temperature: 0.5,
      top_k: 40,
      top_p: 0.9,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      tools: [{ name: 'f', description: 'd', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
      service_tier: 'auto',
    });
    expect(value).toMatchObject({
      model: 'claude-sonnet-4-5',
      maxOutputTokens: 4096,
      system: [{ type: 'text', text: 'Be brief.', cache: {} }],
      user: 'u-1',
      stop: ['END'],
      stream: true,
      temperature: 0.5,
      topK: 40,
      topP: 0.9,
      reasoning: { enabled: true, budgetTokens: 1024, includeThoughts: true },
      toolChoice: { type: 'required' },
      parallelToolCalls: false,
      tools: [{ name: 'f', description: 'd', parameters: { type: 'object' }, cache: {} }],
      extras: { dialect: 'anthropic', fields: { service_tier: 'auto' } },
    });
  });

  it('thinking disabled / adaptive, tool_choice tool / none / auto', () => {
    const msgs = [{ role: 'user', content: 'x' }];
    expect(decode({ ...base, messages: msgs, thinking: { type: 'disabled' } }).value.reasoning).toEqual({ enabled: false });
    expect(decode({ ...base, messages: msgs, thinking: { type: 'adaptive' } }).value.reasoning).toEqual({ enabled: true, budgetTokens: -1, includeThoughts: true });
    // Thoughts are returned unless display is omitted (Gemini upstreams are asked for them).
    expect(decode({ ...base, messages: msgs, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024, display: 'omitted' } }).value.reasoning).toEqual({ enabled: true, budgetTokens: 1024, includeThoughts: false });
    expect(decode({ ...base, messages: msgs, tool_choice: { type: 'tool', name: 'f' } }).value.toolChoice).toEqual({ type: 'tool', name: 'f' });
    expect(decode({ ...base, messages: msgs, tool_choice: { type: 'none' } }).value.toolChoice).toEqual({ type: 'none' });
    const auto = decode({ ...base, messages: msgs, tool_choice: { type: 'auto' } }).value;
    expect(auto.toolChoice).toEqual({ type: 'auto' });
    expect(auto.parallelToolCalls).toBeUndefined();
  });

  it('system turns inside messages (SDK 1.x) become canonical system', () => {
    const { value } = decode(
      { ...base, messages: [{ role: 'system', content: 'Rules.' }, { role: 'user', content: 'hi' }] },
      { 'anthropic-version': '2026-10-21' },
    );
    expect(value.system).toEqual([{ type: 'text', text: 'Rules.' }]);
    expect(value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('betas are kept in extras for an Anthropic upstream', () => {
    const { value } = decode(
      { ...base, messages: [{ role: 'user', content: 'hi' }] },
      { ...H, 'anthropic-beta': 'a-1, b-2', 'compat-beta': 'c-3' },
    );
    expect(value.extras?.fields['anthropic-beta']).toEqual(['a-1', 'b-2', 'c-3']);
  });

  it('blocks: document sources, thinking, redacted, carriers, cache_control', () => {
    const gem = { origin: 'gemini' as const, value: 'g-sig' };
    const { value, warnings } = decode({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' }, title: 'T' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } },
            { type: 'document', source: { type: 'url', url: 'https://x/a.pdf' } },
            { type: 'image', source: { type: 'url', url: 'https://x/a.png' }, cache_control: { type: 'ephemeral' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'EqQB' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'thinking', thinking: 'g', signature: encodeSignature(gem) },
            { type: 'text', text: 'answer' },
            { type: 'thinking', thinking: '', signature: encodeSignature(gem) },
            { type: 'tool_use', id: encodeToolCallId('call_1', gem), name: 'f', input: {} },
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: encodeToolCallId('call_1', gem), content: [{ type: 'text', text: 'ok' }], is_error: true }] },
      ],
    });
    const [u, a, t] = value.messages;
    expect(u!.content).toEqual([
      { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, title: 'T' },
      { type: 'file', source: { type: 'base64', mediaType: 'text/plain', data: 'aMOpbGxv' } },
      { type: 'file', source: { type: 'url', url: 'https://x/a.pdf', mediaType: 'application/pdf' } },
      { type: 'image', source: { type: 'url', url: 'https://x/a.png' }, cache: {} },
    ]);
    expect(a!.content).toEqual([
      { type: 'reasoning', text: 'hmm', signature: { origin: 'anthropic', value: 'EqQB' } },
      { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'opaque' } },
      { type: 'reasoning', text: 'g', signature: gem },
      { type: 'text', text: 'answer', signature: gem },
      { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{}', signature: gem },
      {
        type: 'web-search',
        id: 'srvtoolu_1',
        kind: 'search',
        results: [],
        raw: { dialect: 'anthropic', value: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }] },
      },
    ]);
    expect(t!.content).toEqual([
      { type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'ok' }], isError: true },
    ]);
    expect(warnings).not.toContainEqual(expect.objectContaining({ path: 'messages.1.content.6' }));
  });
});

describe('anthropic decodeRequest: validation errors like the real API', () => {
  const msgs = [{ role: 'user', content: 'hi' }];
  const cases: Array<[string, unknown, string]> = [
    ['missing max_tokens', { model: 'm', messages: msgs }, 'max_tokens: Field required'],
    ['missing model', { max_tokens: 1, messages: msgs }, 'model: Field required'],
    ['missing messages', { ...base }, 'messages: Field required'],
    ['empty text block', { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, 'messages.0.content.0.text: text content blocks must be non-empty'],
    ['temperature > 1', { ...base, messages: msgs, temperature: 1.5 }, 'temperature: Input should be less than or equal to 1'],
    ['max_tokens 0', { ...base, max_tokens: 0, messages: msgs }, 'max_tokens: Input should be greater than or equal to 1'],
    ['max_tokens float', { ...base, max_tokens: 1.5, messages: msgs }, 'max_tokens: Input should be a valid integer'],
    ['top_k 0', { ...base, messages: msgs, top_k: 0 }, 'top_k: Input should be greater than 0'],
    ['long model', { ...base, model: 'x'.repeat(257), messages: msgs }, 'model: String should have at most 256 characters'],
    ['long user id', { ...base, messages: msgs, metadata: { user_id: 'x'.repeat(257) } }, 'metadata.user_id: String should have at most 256 characters'],
    ['small budget', { ...base, messages: msgs, thinking: { type: 'enabled', budget_tokens: 1000 } }, 'thinking.budget_tokens: Input should be greater than or equal to 1024'],
    ['bad role', { ...base, messages: [{ role: 'tool', content: 'x' }] }, "messages.0.role: Input should be 'user', 'assistant' or 'system'"],
    ['tool name required', { ...base, messages: msgs, tool_choice: { type: 'tool' } }, 'tool_choice.name: Field required'],
    ['custom tool without schema', { ...base, messages: msgs, tools: [{ name: 'f' }] }, 'tools.0.input_schema: Field required'],
    ['empty user turn', { ...base, messages: [{ role: 'user', content: [] }] }, 'messages.0: all messages must have non-empty content except for the optional final assistant message'],
    ['unknown block', { ...base, messages: [{ role: 'user', content: [{ type: 'video' }] }] }, "messages.0.content.0.type: Input tag 'video'"],
  ];
  it.each(cases)('%s', (_name, body, message) => {
    const err = proxyErrorOf(() => decode(body));
    expect(err.kind).toBe('invalid-request');
    expect(err.status).toBe(400);
    expect(err.message.startsWith(message)).toBe(true);
    expect(err.param).toBeTruthy();
  });

  it('budget must be below max_tokens', () => {
    const err = proxyErrorOf(() => decode({ ...base, max_tokens: 2000, messages: msgs, thinking: { type: 'enabled', budget_tokens: 2000 } }));
    expect(err.message).toContain('`max_tokens` must be greater than `thinking.budget_tokens`');
  });

  it.each([null, [], 42, 'x', { messages: null }, { ...base, messages: [null] }, { ...base, messages: [{ role: 'user', content: [null] }] }, { ...base, messages: msgs, tools: [null] }, { ...base, messages: msgs, thinking: 'yes' }])(
    'never a TypeError for %j',
    (body) => {
      expect(proxyErrorOf(() => decode(body)).kind).toBe('invalid-request');
    },
  );

  it('count_tokens bodies need no max_tokens', () => {
    const { value } = decodeRequest(input({ model: 'm', messages: msgs }, H, { method: 'count_tokens' }));
    expect(value.maxOutputTokens).toBeUndefined();
  });

  it('a final empty assistant turn (prefill) is allowed', () => {
    const { value } = decode({ ...base, messages: [...msgs, { role: 'assistant', content: '' }] });
    expect(value.messages[1]).toEqual({ role: 'assistant', content: [] });
  });
});

describe('anthropic decodeRequest: fuzz', () => {
  it('any JSON either decodes or throws invalid-request', async () => {
    const fc = (await import('fast-check')).default;
    const block = fc.oneof(
      fc.anything(),
      fc.record(
        {
          type: fc.constantFrom('text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'server_tool_use', 'x'),
          text: fc.anything(),
          source: fc.oneof(fc.anything(), fc.record({ type: fc.constantFrom('base64', 'url', 'text', 'file', 'content'), data: fc.anything(), url: fc.anything(), content: fc.anything() }, { requiredKeys: [] })),
          id: fc.anything(),
          name: fc.anything(),
          input: fc.anything(),
          tool_use_id: fc.anything(),
          content: fc.anything(),
          thinking: fc.anything(),
          signature: fc.anything(),
          data: fc.anything(),
          cache_control: fc.anything(),
        },
        { requiredKeys: ['type'] },
      ),
    );
    const body = fc.record(
      {
        model: fc.oneof(fc.string(), fc.anything()),
        max_tokens: fc.oneof(fc.integer(), fc.anything()),
        messages: fc.oneof(
          fc.anything(),
          fc.array(fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'tool'), content: fc.oneof(fc.string(), fc.array(block)) }, { requiredKeys: [] })),
        ),
        system: fc.anything(),
        tools: fc.oneof(fc.anything(), fc.array(fc.record({ type: fc.anything(), name: fc.anything(), input_schema: fc.anything() }, { requiredKeys: [] }))),
        tool_choice: fc.anything(),
        thinking: fc.anything(),
        metadata: fc.anything(),
        output_config: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(body, (b) => {
        try {
          decode(b);
        } catch (e) {
          if (!(e instanceof ProxyError) || e.kind !== 'invalid-request') throw e;
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('anthropic decodeRequest: messages the turn memo kept', () => {
  const body = () => ({
    model: 'claude-x',
    max_tokens: 10,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'read a.ts' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'reading' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export {}' }] },
    ],
  });

  it('decodes a message frozen whole once, to what an unfrozen one decodes to, and keeps it frozen', () => {
    const kept = body();
    for (const m of kept.messages) deepFreeze(m);
    const first = decodeRequest(input(kept)).value;
    const again = decodeRequest(input({ ...kept, messages: [...kept.messages] })).value;
    expect(first).toStrictEqual(decodeRequest(input(body())).value);
    expect(again.messages[1]!.content).toBe(first.messages[1]!.content);
    expect(Object.isFrozen(first.messages[1]!.content[1])).toBe(true);
    // An unfrozen message (no memo) is decoded every time.
    const plain = body();
    expect(decodeRequest(input(plain)).value.messages[1]!.content).not.toBe(decodeRequest(input(plain)).value.messages[1]!.content);
  });

  it('gives a kept message the same frozen canonical message turn after turn', () => {
    const kept = body();
    for (const m of kept.messages) deepFreeze(m);
    const first = decodeRequest(input(kept)).value;
    const next = decodeRequest(input({ ...kept, messages: [...kept.messages, { role: 'assistant', content: 'done' }] })).value;
    expect(next.messages.slice(0, 3)).toStrictEqual(first.messages);
    for (let i = 0; i < 3; i++) expect(next.messages[i]).toBe(first.messages[i]);
    expect(Object.isFrozen(first.messages[0])).toBe(true);
  });

  it('merges a kept message with the next same-role one into a new message, leaving the kept one as it was', () => {
    const kept = body();
    for (const m of kept.messages) deepFreeze(m);
    const alone = decodeRequest(input(kept)).value.messages[2]!;
    const merged = decodeRequest(input({ ...kept, messages: [...kept.messages, { role: 'user', content: 'and b.ts' }] })).value;
    expect(merged.messages).toHaveLength(3);
    expect(merged.messages[2]!.content.map((p) => p.type)).toEqual(['tool-result', 'text']);
    expect(alone.content.map((p) => p.type)).toEqual(['tool-result']);
    expect(decodeRequest(input(kept)).value.messages[2]).toBe(alone);
  });
});

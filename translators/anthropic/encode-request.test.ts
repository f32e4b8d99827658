import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest, type Warning } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import type { CallerInput, UpstreamTarget } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeCountTokens, encodeCountTokens } from './count-tokens.ts';
import { encodeRequest, JSON_INSTRUCTION } from './encode-request.ts';
import { encodePassthrough } from './passthrough.ts';

const target = (over: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  name: 'claude',
  model: 'claude-sonnet-4-5',
  apiKey: 'sk-ant-test',
  options: {},
  ...over,
});
const H = { 'anthropic-version': '2023-06-01' };
const callerInput = (body: unknown, headers: Record<string, string> = H): CallerInput => ({ body, headers, params: {}, query: {} });
const base: ChatRequest = { model: 'gpt-4o', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

function encode(req: Partial<ChatRequest>, t = target()) {
  const { value, warnings } = encodeRequest({ ...base, ...req }, t, testContext());
  return { http: value, body: JSON.parse(value.body as string) as Record<string, any>, warnings };
}
const has = (warnings: Warning[], code: Warning['code'], path: string) =>
  warnings.some((w) => w.code === code && w.path === path);

/** The fixture body as our encoder writes it: string contents as one text block, no `caller`. */
function normalize(body: Record<string, any>) {
  const blocks = (c: unknown): any[] => (typeof c === 'string' ? [{ type: 'text', text: c }] : (c as any[]));
  return {
    ...body,
    messages: body.messages.map((m: any) => ({
      role: m.role,
      content: blocks(m.content).map(({ caller: _c, ...b }: any) => b),
    })),
    ...(body.tools
      ? { tools: body.tools.map((t: any) => (t.description === '' ? { name: t.name, input_schema: t.input_schema } : t)) }
      : {}),
  };
}

describe('anthropic encodeRequest: request fixtures round-trip', () => {
  const names = [
    'tool-result-followup.request.json',
    'stream-tool-result-followup.request.json',
    'stream-tool-use.request.json',
    'tool-use-single.request.json',
    'text-then-tool-use.request.json',
    'image-input.request.json',
    'structured-output-json-schema.request.json',
    'stream-structured-output-json-schema.request.json',
    'server-tool-web-search-citations.request.json',
  ];
  it.each(names)('%s: decode → encode gives the same body', (name) => {
    const wire = fixtureJson('anthropic', name);
    const { value: req } = decodeRequest(callerInput(wire));
    const { value, warnings } = encodeRequest(req, target({ model: wire.model }), testContext());
    expect(JSON.parse(value.body as string)).toEqual(normalize(wire));
    expect(warnings).toEqual([]);
  });

  it('error-400-invalid-request.request.json: consecutive user turns merge, tool_result first', () => {
    const wire = fixtureJson('anthropic', 'error-400-invalid-request.request.json');
    const { value } = encodeRequest(decodeRequest(callerInput(wire)).value, target(), testContext());
    const body = JSON.parse(value.body as string);
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0].content.map((b: { type: string }) => b.type)).toEqual(['tool_result', 'text']);
  });
});

describe('anthropic encodeRequest', () => {
  it('url, headers, betas, credentials', () => {
    const { http } = encode(
      { extras: { dialect: 'anthropic', fields: { 'anthropic-beta': ['b-caller', 'b-conf'] } } },
      target({ options: { anthropicBeta: ['b-conf'], anthropicVersion: '2026-10-21', headers: { 'x-extra': '1' } } }),
    );
    expect(http.method).toBe('POST');
    expect(http.path).toBe('/v1/messages');
    expect(http.stream).toBe(false);
    expect(http.headers).toEqual({
      'x-extra': '1',
      'content-type': 'application/json',
      'anthropic-version': '2026-10-21',
      'x-api-key': 'sk-ant-test',
      'anthropic-beta': 'b-conf,b-caller',
    });
    expect(encode({}).http.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('max_tokens: caller, route default, 4096', () => {
    expect(encode({ maxOutputTokens: 77 }).body.max_tokens).toBe(77);
    expect(encode({}, target({ options: { defaultMaxTokens: 1234 } })).body.max_tokens).toBe(1234);
    expect(encode({}).body.max_tokens).toBe(4096);
  });

  it('system anywhere → system; string when plain, blocks with cache_control', () => {
    expect(encode({ system: [{ type: 'text', text: 'S' }] }).body.system).toBe('S');
    expect(
      encode({ system: [{ type: 'text', text: 'A', cache: {} }, { type: 'text', text: ' ' }] }).body.system,
    ).toEqual([{ type: 'text', text: 'A', cache_control: { type: 'ephemeral' } }]);
    const json = encode({ system: [{ type: 'text', text: 'S' }], responseFormat: { type: 'json' } });
    expect(json.body.system).toEqual([{ type: 'text', text: 'S' }, { type: 'text', text: JSON_INSTRUCTION }]);
    expect(has(json.warnings, 'approximated', 'responseFormat')).toBe(true);
  });

  it('turns: merged, tool results first, no empty text, tool-only assistant turn', () => {
    const { body, warnings } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '  ' },
            { type: 'tool-call', id: 'call_1', name: 'w', arguments: '{"c":"SF"}' },
            { type: 'tool-call', id: 'call:2', name: 'w', arguments: 'not json' },
          ],
        },
        { role: 'user', content: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'sunny' }] }] },
        { role: 'user', content: [{ type: 'text', text: 'and?' }, { type: 'tool-result', callId: 'call:2', content: [], isError: true }] },
        { role: 'user', content: [{ type: 'text', text: '' }] },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_1', name: 'w', input: { c: 'SF' } },
          { type: 'tool_use', id: 'call_2', name: 'w', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'sunny' },
          { type: 'tool_result', tool_use_id: 'call_2', is_error: true },
          { type: 'text', text: 'and?' },
        ],
      },
    ]);
    expect(has(warnings, 'approximated', 'messages[1].content[2].arguments')).toBe(true);
    expect(has(warnings, 'dropped', 'messages[4]')).toBe(true);
  });

  it('media: url image, data URL inlined, pdf and text documents; audio refused', () => {
    const { body } = encode({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'url', url: 'https://x/a.png' } },
            { type: 'image', source: { type: 'url', url: 'data:image/png;base64,iVBOR' }, cache: {} },
            { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, filename: 'a.pdf' },
            { type: 'file', source: { type: 'base64', mediaType: 'text/plain', data: 'aMOpbGxv' } },
            { type: 'file', source: { type: 'file-id', id: 'file_1' } },
          ],
        },
      ],
    });
    expect(body.messages[0].content).toEqual([
      { type: 'image', source: { type: 'url', url: 'https://x/a.png' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' }, cache_control: { type: 'ephemeral' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' }, title: 'a.pdf' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } },
      { type: 'document', source: { type: 'file', file_id: 'file_1' } },
    ]);
    const audio = () => encode({ messages: [{ role: 'user', content: [{ type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' } }] }] });
    expect(audio).toThrow(ProxyError);
    expect(audio).toThrow(/audio/);
    expect(() => encode({ modalities: ['text', 'audio'] })).toThrow(ProxyError);
  });

  it('reasoning parts: Anthropic signatures replayed, foreign ones dropped', () => {
    const { body, warnings } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'mine', signature: { origin: 'anthropic', value: 'EqQB' } },
            { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'opaque' } },
            { type: 'reasoning', text: 'theirs', signature: { origin: 'gemini', value: 'g' } },
            { type: 'reasoning', text: 'unsigned' },
            { type: 'text', text: 'a', signature: { origin: 'gemini', value: 'g2' } },
            { type: 'tool-call', id: 'c1', name: 'f', arguments: '{}', signature: { origin: 'gemini', value: 'g3' } },
          ],
        },
      ],
    });
    expect(body.messages[1].content).toEqual([
      { type: 'thinking', thinking: 'mine', signature: 'EqQB' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'a' },
      { type: 'tool_use', id: 'c1', name: 'f', input: {} },
    ]);
    expect(has(warnings, 'signature-not-replayed', 'messages[1].content[2]')).toBe(true);
    expect(has(warnings, 'signature-not-replayed', 'messages[1].content[4].signature')).toBe(true);
    expect(has(warnings, 'signature-not-replayed', 'messages[1].content[5].signature')).toBe(true);
    expect(has(warnings, 'dropped', 'messages[1].content[3]')).toBe(true);
  });

  it('thinking: effort table, budget limits, disabled, adaptive', () => {
    expect(encode({ reasoning: { effort: 'low' } }).body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 4096 });
    expect(encode({ reasoning: { effort: 'medium' } }).body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 8192 }, max_tokens: 8192 + 4096 });
    expect(encode({ reasoning: { effort: 'high' }, maxOutputTokens: 10000 }).body).toMatchObject({ thinking: { budget_tokens: 5000 }, max_tokens: 10000 });
    const small = encode({ reasoning: { effort: 'minimal' }, maxOutputTokens: 500 });
    expect(small.body).toMatchObject({ thinking: { budget_tokens: 1024 }, max_tokens: 1524 });
    expect(has(small.warnings, 'clamped', 'maxOutputTokens')).toBe(true);
    const tiny = encode({ reasoning: { budgetTokens: 100 } });
    expect(tiny.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(has(tiny.warnings, 'clamped', 'reasoning.budgetTokens')).toBe(true);
    expect(encode({ reasoning: { enabled: false } }).body.thinking).toEqual({ type: 'disabled' });
    expect(encode({ reasoning: { budgetTokens: -1 } }).body.thinking).toEqual({ type: 'adaptive' });
    expect(encode({ reasoning: { includeThoughts: true } }).body.thinking).toBeUndefined();
  });

  it('sampling: temperature clamped to 1, thinking drops incompatible knobs, dropped knobs warn', () => {
    const a = encode({ temperature: 1.7, topP: 0.5, topK: 5, stop: ['X'], seed: 1, presencePenalty: 1, frequencyPenalty: 1, logprobs: true, user: 'u' }, target({ model: 'claude-sonnet-4-20250514' }));
    expect(a.body).toMatchObject({ temperature: 1, top_p: 0.5, top_k: 5, stop_sequences: ['X'], metadata: { user_id: 'u' } });
    for (const p of ['seed', 'presencePenalty', 'frequencyPenalty', 'logprobs']) expect(has(a.warnings, 'dropped', p)).toBe(true);
    expect(has(a.warnings, 'clamped', 'temperature')).toBe(true);
    const t = encode({ temperature: 0.2, topK: 5, topP: 0.5, reasoning: { effort: 'low' } });
    expect(t.body.temperature).toBeUndefined();
    expect(t.body.top_k).toBeUndefined();
    expect(t.body.top_p).toBeUndefined();
  });

  it('tools and tool_choice', () => {
    const tools = [{ name: 'f', description: 'd', parameters: { type: 'object', properties: { a: { type: 'string' } } }, cache: {} }, { name: 'g' }];
    const a = encode({ tools, toolChoice: { type: 'required' }, parallelToolCalls: false });
    expect(a.body.tools).toEqual([
      { name: 'f', description: 'd', input_schema: { type: 'object', properties: { a: { type: 'string' } } }, cache_control: { type: 'ephemeral' } },
      { name: 'g', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(a.body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(encode({ tools, toolChoice: { type: 'none' } }).body.tool_choice).toEqual({ type: 'none' });
    expect(encode({ tools, toolChoice: { type: 'tool', name: 'g' } }).body.tool_choice).toEqual({ type: 'tool', name: 'g' });
    expect(encode({ tools }).body.tool_choice).toBeUndefined();
    const allowed = encode({ tools, toolChoice: { type: 'allowed', names: ['f'], mode: 'required' } });
    expect(allowed.body.tool_choice).toEqual({ type: 'any' });
    expect(has(allowed.warnings, 'approximated', 'toolChoice')).toBe(true);
    expect(encode({ tools, toolChoice: { type: 'tool', name: 'g' }, reasoning: { effort: 'low' } }).body.tool_choice).toEqual({ type: 'auto' });
    expect(encode({ toolChoice: { type: 'required' } }).body.tool_choice).toBeUndefined();
    const native = encode({ nativeTools: [{ dialect: 'gemini', definition: { googleSearch: {} } }, { dialect: 'anthropic', definition: { type: 'bash_20250124', name: 'bash' } }] });
    expect(native.body.tools).toEqual([{ type: 'bash_20250124', name: 'bash' }]);
    expect(has(native.warnings, 'dropped', 'nativeTools[0]')).toBe(true);
  });

  it('structured output: native output_config.format', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'], additionalProperties: false };
    expect(encode({ responseFormat: { type: 'json-schema', name: 'x', schema, strict: true } }).body.output_config).toEqual({ format: { type: 'json_schema', schema } });
  });

  it('extras: replayed for Anthropic, dropped with warnings from other dialects', () => {
    expect(encode({ extras: { dialect: 'anthropic', fields: { service_tier: 'auto', container: 'c1' } } }).body).toMatchObject({ service_tier: 'auto', container: 'c1' });
    const other = encode({ extras: { dialect: 'openai-chat', fields: { logit_bias: { 1: 2 } } } });
    expect(other.body.logit_bias).toBeUndefined();
    expect(has(other.warnings, 'dropped', 'logit_bias')).toBe(true);
  });

  it('stream flag', () => {
    const s = encode({ stream: true });
    expect(s.body.stream).toBe(true);
    expect(s.http.stream).toBe(true);
  });
});

describe('anthropic canonical round trip', () => {
  it('decodeRequest(encodeRequest(req)) ≈ req', () => {
    const req: ChatRequest = {
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache: {} }, { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBOR' } }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 't', signature: { origin: 'anthropic', value: 'EqQB' } },
            { type: 'text', text: 'calling' },
            { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '{"a":1}' },
          ],
        },
        { role: 'user', content: [{ type: 'tool-result', callId: 'toolu_1', content: [{ type: 'text', text: 'ok' }], isError: true }] },
      ],
      tools: [{ name: 'f', description: 'd', parameters: { type: 'object', properties: { a: { type: 'integer' } } } }],
      toolChoice: { type: 'auto' },
      parallelToolCalls: false,
      maxOutputTokens: 20000,
      topP: 0.97,
      stop: ['END'],
      reasoning: { enabled: true, budgetTokens: 4096, includeThoughts: true },
      responseFormat: { type: 'json-schema', schema: { type: 'object' } },
      stream: true,
      user: 'u-1',
    };
    const { value } = encodeRequest(req, target({ model: req.model }), testContext());
    const back = decodeRequest(callerInput(JSON.parse(value.body as string))).value;
    expect(back).toEqual(req);
  });
});

describe('anthropic count_tokens and passthrough', () => {
  it('count_tokens body has no generation settings', () => {
    const http = encodeCountTokens({ ...base, maxOutputTokens: 10, temperature: 0.5, stream: true, tools: [{ name: 'f' }] }, target());
    expect(http.path).toBe('/v1/messages/count_tokens');
    expect(http.stream).toBe(false);
    expect(JSON.parse(http.body as string)).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [{ name: 'f', input_schema: { type: 'object', properties: {} } }],
    });
    expect(decodeCountTokens({ input_tokens: 12 })).toBe(12);
    expect(() => decodeCountTokens({})).toThrow(ProxyError);
  });

  it('passthrough forwards bytes, version and betas', () => {
    const raw = '{"model":"claude-sonnet-4-5","max_tokens":5,"messages":[],"stream":true}';
    const input = callerInput(JSON.parse(raw), { 'anthropic-version': '2026-10-21', 'anthropic-beta': 'x-1', authorization: 'Bearer il-key' });
    const same = encodePassthrough(input, raw, target({ options: { anthropicBeta: ['y-2'] } }));
    expect(same).toEqual({
      method: 'POST',
      path: '/v1/messages',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2026-10-21', 'x-api-key': 'sk-ant-test', 'anthropic-beta': 'y-2,x-1' },
      body: raw,
      stream: true,
    });
    const renamed = encodePassthrough(input, raw, target({ model: 'claude-opus-5' }));
    expect(JSON.parse(renamed.body as string).model).toBe('claude-opus-5');
    const compat = encodePassthrough(callerInput({ model: 'claude-sonnet-4-5' }, { 'compat-version': '2023-06-01' }), '{}', target());
    expect(compat.headers['anthropic-version']).toBe('2023-06-01');
    expect(compat.stream).toBe(false);
  });
});

describe('Claude Code and the beta namespace through an Anthropic upstream', () => {
  const tools = [
    { name: 'Read', input_schema: { type: 'object', properties: {} } },
    { name: 'Grep', description: 'search', input_schema: { type: 'object', properties: {} }, defer_loading: true, input_examples: [{ q: 'x' }] },
  ];
  const body = { model: 'claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], tools };
  const headers = { ...H, 'anthropic-beta': 'tool-search-2025-10-19' };
  const input: CallerInput = { body, headers, params: {}, query: { beta: 'true' } };

  it('decoding reports nothing as dropped: the tool fields travel with the tool', () => {
    const { value, warnings } = decodeRequest(input);
    expect(warnings).toEqual([]);
    expect(value.tools?.[1]?.extras).toEqual({ dialect: 'anthropic', fields: { defer_loading: true, input_examples: [{ q: 'x' }] } });
  });

  it('passthrough keeps ?beta=true (and only that query)', () => {
    expect(encodePassthrough(input, JSON.stringify(body), target()).path).toBe('/v1/messages?beta=true');
    const count = encodePassthrough({ ...input, params: { method: 'count_tokens' }, query: { beta: 'true', other: '1' } }, '{}', target());
    expect(count.path).toBe('/v1/messages/count_tokens?beta=true');
    expect(encodePassthrough({ ...input, query: {} }, '{}', target()).path).toBe('/v1/messages');
  });

  it('a translated call carries the tool fields, the betas and ?beta=true that came with them', () => {
    const req = decodeRequest(input).value;
    const { http, body: sent, warnings } = encode(req);
    expect(warnings).toEqual([]);
    expect(http.path).toBe('/v1/messages?beta=true');
    expect(http.headers['anthropic-beta']).toBe('tool-search-2025-10-19');
    expect(sent.tools[1]).toEqual({ name: 'Grep', description: 'search', input_schema: { type: 'object', properties: {} }, defer_loading: true, input_examples: [{ q: 'x' }] });
    expect(sent['?beta']).toBeUndefined();
    expect(encodeCountTokens(req, target()).path).toBe('/v1/messages/count_tokens?beta=true');
    // Without beta values the query has nothing to go with.
    const plain = decodeRequest({ ...input, headers: H }).value;
    expect(encode(plain).http.path).toBe('/v1/messages');
  });
});

describe('host wire knobs (Vertex AI, Bedrock)', () => {
  const req: ChatRequest = { model: 'c', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true, maxOutputTokens: 10 };
  const hosted = target({ options: { modelInBody: false, anthropicVersionInBody: 'bedrock-2023-05-31', betasInBody: true, anthropicBeta: ['a-1', 'b-2'] } });

  it('model only in the URL, version and betas in the body, not in headers', () => {
    const { value } = encodeRequest(req, hosted, testContext());
    const body = JSON.parse(value.body as string);
    expect(body.model).toBeUndefined();
    expect(body.anthropic_version).toBe('bedrock-2023-05-31');
    expect(body.anthropic_beta).toEqual(['a-1', 'b-2']);
    expect(body.stream).toBe(true);
    expect(value.headers['anthropic-version']).toBeUndefined();
    expect(value.headers['anthropic-beta']).toBeUndefined();
    const count = JSON.parse(encodeCountTokens(req, hosted).body as string);
    expect(count).toMatchObject({ anthropic_version: 'bedrock-2023-05-31' });
    expect(count.model).toBeUndefined();
  });

  it('passthrough to such a host rewrites the caller body the same way', () => {
    const input: CallerInput = { body: { model: 'c', max_tokens: 5, messages: [] }, headers: { 'anthropic-version': '2023-06-01' }, params: {}, query: {} };
    const out = encodePassthrough(input, '{"model":"c","max_tokens":5,"messages":[]}', target({ model: 'c', options: { modelInBody: false, anthropicVersionInBody: 'vertex-2023-10-16' } }));
    expect(JSON.parse(out.body as string)).toEqual({ max_tokens: 5, messages: [], anthropic_version: 'vertex-2023-10-16' });
    expect(out.headers['anthropic-version']).toBeUndefined();
  });

  it('count_tokens keeps the model in the body where the host counts at one URL for every model (Vertex AI)', () => {
    const vertex = target({ options: { modelInBody: false, countTokensModelInBody: true, anthropicVersionInBody: 'vertex-2023-10-16' } });
    expect(JSON.parse(encodeCountTokens(req, vertex).body as string)).toMatchObject({ model: target().model, anthropic_version: 'vertex-2023-10-16' });
    expect(JSON.parse(encodeRequest(req, vertex, testContext()).value.body as string).model).toBeUndefined();
    const input: CallerInput = { body: { model: 'c', messages: [] }, headers: {}, params: { method: 'count_tokens' }, query: {} };
    expect(JSON.parse(encodePassthrough(input, '{"model":"c","messages":[]}', target({ model: 'c', options: vertex.options })).body as string).model).toBe('c');
  });

  it('without knobs, nothing moves', () => {
    const { value } = encodeRequest(req, target(), testContext());
    expect(JSON.parse(value.body as string).model).toBeDefined();
    expect(value.headers['anthropic-version']).toBe('2023-06-01');
  });
});

describe('anthropic-beta allow-list (UpstreamOptions.anthropicBetaAllow)', () => {
  const withBetas = (betas: string[]) => decodeRequest(callerInput({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }, { ...H, 'anthropic-beta': betas.join(',') })).value;
  const allow = (anthropicBetaAllow: string[] | undefined, anthropicBeta?: string[]) => target({ options: { anthropicBetaAllow, anthropicBeta } });

  it('without an allow-list every beta is forwarded, configured and the caller’s', () => {
    const { http, warnings } = encode(withBetas(['x-1', 'context-1m-2025-08-07']), allow(undefined, ['conf-1']));
    expect(http.headers['anthropic-beta']).toBe('conf-1,x-1,context-1m-2025-08-07');
    expect(warnings).toEqual([]);
  });

  it('keeps exact names and `prefix*` matches; drops the rest, reported, never sent', () => {
    const { http, warnings } = encode(withBetas(['context-1m-2025-08-07', 'files-api-2025-04-14', 'x-1']), allow(['context-1m-*', 'x-1'], ['conf-1']));
    expect(http.headers['anthropic-beta']).toBe('context-1m-2025-08-07,x-1');
    expect(warnings).toEqual([
      { code: 'dropped', path: 'anthropic-beta', detail: 'conf-1', lossy: true },
      { code: 'dropped', path: 'anthropic-beta', detail: 'files-api-2025-04-14', lossy: true },
    ]);
  });

  it('with betas in the body, only the allowed ones go there; none allowed, no field at all', () => {
    const o = { modelInBody: false, betasInBody: true, anthropicVersionInBody: 'bedrock-2023-05-31' };
    const kept = encode(withBetas(['interleaved-thinking-2025-05-14', 'mcp-client-2025-04-04']), target({ options: { ...o, anthropicBetaAllow: ['interleaved-thinking-*'] } }));
    expect(kept.body.anthropic_beta).toEqual(['interleaved-thinking-2025-05-14']);
    expect(kept.warnings).toEqual([{ code: 'dropped', path: 'anthropic-beta', detail: 'mcp-client-2025-04-04', lossy: true }]);
    const none = encode(withBetas(['mcp-client-2025-04-04']), target({ options: { ...o, anthropicBetaAllow: [] } }));
    expect(none.body.anthropic_beta).toBeUndefined();
    expect(none.http.headers['anthropic-beta']).toBeUndefined();
  });

  it('passthrough and count_tokens send only allowed betas too', () => {
    const raw = '{"model":"c","max_tokens":5,"messages":[]}';
    const input = callerInput(JSON.parse(raw), { ...H, 'anthropic-beta': 'ok-1,no-2' });
    expect(encodePassthrough(input, raw, allow(['ok-*'])).headers['anthropic-beta']).toBe('ok-1');
    expect(encodeCountTokens(withBetas(['ok-1', 'no-2']), allow(['ok-1'])).headers['anthropic-beta']).toBe('ok-1');
  });
});

describe('Bedrock wire knobs: stream chosen by the URL, token counting as CountTokens', () => {
  const bedrock = { modelInBody: false, streamInBody: false, betasInBody: true, anthropicVersionInBody: 'bedrock-2023-05-31', countTokensBody: 'invoke-model' as const };
  const req: ChatRequest = { ...base, stream: true, maxOutputTokens: 10, temperature: 0.5 };

  it('streamInBody: false leaves `stream` out of the body (translated and passthrough)', () => {
    const { body, http } = encode(req, target({ options: bedrock }));
    expect(body.stream).toBeUndefined();
    expect(http.stream).toBe(true);
    const raw = '{"model":"c","max_tokens":5,"messages":[],"stream":true}';
    const out = encodePassthrough(callerInput(JSON.parse(raw)), raw, target({ model: 'c', options: bedrock }));
    expect(JSON.parse(out.body as string)).toEqual({ max_tokens: 5, messages: [], anthropic_version: 'bedrock-2023-05-31' });
    expect(out.stream).toBe(true);
  });

  it("invoke-model: the whole create body, base64, in {input:{invokeModel:{body}}}; inputTokens read back", () => {
    const http = encodeCountTokens(req, target({ options: { ...bedrock, anthropicBeta: ['context-1m-2025-08-07'] } }));
    expect(http.path).toBe('/v1/messages/count_tokens');
    expect(http.stream).toBe(false);
    const sent = JSON.parse(http.body as string);
    expect(Object.keys(sent)).toEqual(['input']);
    const inner = JSON.parse(Buffer.from(sent.input.invokeModel.body, 'base64').toString('utf8'));
    expect(inner).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      max_tokens: 10,
      temperature: 0.5,
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['context-1m-2025-08-07'],
    });
    expect(decodeCountTokens({ inputTokens: 42 })).toBe(42);
    expect(decodeCountTokens({ input_tokens: 7 })).toBe(7);
  });
});

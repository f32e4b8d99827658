import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest, type Part, type ReasoningConfig, type ToolChoice } from '../../src/canonical/index.ts';
import { canonicalRequests, essence } from '../../test/conformance/requests.ts';
import { fixtureJson, fixtureText } from '../../test/support/fixtures.ts';
import type { CallerInput, UpstreamTarget } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { encodeRequest } from './encode-request.ts';
import { encodePassthrough, forwardRequest } from './passthrough.ts';

const target: UpstreamTarget = { name: 'g', model: 'gemini-3-flash-preview', apiKey: 'AIza-test', options: {} };

const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });

const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'm', system: [], messages: [user('Hi')], stream: false, ...over });

const body = (r: ChatRequest, t = target) => JSON.parse(encodeRequest(r, t).value.body as string);

const caller = (b: unknown, over: Partial<CallerInput> = {}): CallerInput => ({ body: b, headers: {}, params: {}, query: {}, ...over });

describe('encodeRequest: the HTTP request', () => {
  it('POST /v1beta/interactions, the model in the body, store false, the key in x-goog-api-key', () => {
    const { value } = encodeRequest(req(), target);
    expect(value).toMatchObject({ method: 'POST', path: '/v1beta/interactions', stream: false });
    expect(value.headers).toEqual({ 'content-type': 'application/json', 'x-goog-api-key': 'AIza-test' });
    expect(JSON.parse(value.body as string)).toEqual({
      model: 'gemini-3-flash-preview',
      input: [{ type: 'user_input', content: [{ type: 'text', text: 'Hi' }] }],
      store: false,
    });
  });

  it('streaming: stream true in the body and accept text/event-stream; no key, no key header', () => {
    const { value } = encodeRequest(req({ stream: true }), { ...target, apiKey: undefined });
    expect(value.stream).toBe(true);
    expect(value.path).toBe('/v1beta/interactions');
    expect(value.headers).toEqual({ 'content-type': 'application/json', accept: 'text/event-stream' });
    expect(JSON.parse(value.body as string)).toMatchObject({ stream: true, store: false });
  });
});

describe('encodeRequest: history as steps', () => {
  const gemini = { origin: 'gemini' as const, value: 'EqQBCkgB' };
  const history: ChatRequest = req({
    system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Use metric.' }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image', source: { type: 'url', url: 'https://x/a.png', mediaType: 'image/png' } }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Thinking.', signature: gemini },
          { type: 'text', text: 'Let me check.' },
          { type: 'tool-call', id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'c2', name: 'get_time', arguments: '' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: '18C' }, { type: 'text', text: 'cloudy' }] },
          { type: 'tool-result', callId: 'c2', name: 'get_time', isError: true, content: [{ type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AA==' } }] },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ],
  });

  it('system is one string; each part kind becomes its step', () => {
    const b = body(history);
    expect(b.system_instruction).toBe('Be brief.\n\nUse metric.');
    expect(b.input).toEqual([
      { type: 'user_input', content: [{ type: 'text', text: 'Weather?' }, { type: 'image', uri: 'https://x/a.png', mime_type: 'image/png' }] },
      { type: 'thought', signature: 'EqQBCkgB', summary: [{ type: 'text', text: 'Thinking.' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'Let me check.' }] },
      { type: 'function_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } },
      { type: 'function_call', id: 'c2', name: 'get_time', arguments: {} },
      { type: 'function_result', call_id: 'c1', name: 'get_weather', result: '18C\ncloudy' },
      { type: 'function_result', call_id: 'c2', name: 'get_time', result: [{ type: 'image', data: 'AA==', mime_type: 'image/png' }], is_error: true },
      { type: 'user_input', content: [{ type: 'text', text: 'And tomorrow?' }] },
    ]);
  });

  it('a generateContent signature on a call or text part becomes a thought step just before it', () => {
    const r = req({
      messages: [
        user('q'),
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', id: 'c1', name: 'f', arguments: '{}', signature: gemini },
            { type: 'text', text: 'done', signature: { origin: 'gemini', value: 'CtSecond' } },
          ],
        },
      ],
    });
    expect(body(r).input.slice(1)).toEqual([
      { type: 'thought', signature: 'EqQBCkgB' },
      { type: 'function_call', id: 'c1', name: 'f', arguments: {} },
      { type: 'thought', signature: 'CtSecond' },
      { type: 'model_output', content: [{ type: 'text', text: 'done' }] },
    ]);
  });

  it('generateContent’s shape (unsigned thought text, then the signed call) is one thought with its summary', () => {
    const r = req({ messages: [user('q'), { role: 'assistant', content: [{ type: 'reasoning', text: 'Plan.' }, { type: 'tool-call', id: 'c1', name: 'f', arguments: '{}', signature: gemini }] }] });
    const { value, warnings } = encodeRequest(r, target);
    expect(JSON.parse(value.body as string).input.slice(1)).toEqual([
      { type: 'thought', signature: 'EqQBCkgB', summary: [{ type: 'text', text: 'Plan.' }] },
      { type: 'function_call', id: 'c1', name: 'f', arguments: {} },
    ]);
    expect(warnings).toEqual([]);
  });

  it('a reasoning part followed by the call it signed sends the signature once', () => {
    const r = req({ messages: [user('q'), { role: 'assistant', content: [{ type: 'reasoning', text: '', signature: gemini }, { type: 'tool-call', id: 'c1', name: 'f', arguments: '{}', signature: gemini }] }] });
    expect(body(r).input.slice(1)).toEqual([
      { type: 'thought', signature: 'EqQBCkgB' },
      { type: 'function_call', id: 'c1', name: 'f', arguments: {} },
    ]);
  });

  it('another vendor’s signatures are not replayed; unsigned thought text is dropped', () => {
    const parts: Part[] = [
      { type: 'reasoning', text: 'Claude thinking', signature: { origin: 'anthropic', value: 'ErUB' } },
      { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'xx' } },
      { type: 'reasoning', text: 'loose text' },
      { type: 'text', text: 'answer' },
    ];
    const { value, warnings } = encodeRequest(req({ messages: [user('q'), { role: 'assistant', content: parts }] }), target);
    expect(JSON.parse(value.body as string).input.slice(1)).toEqual([{ type: 'model_output', content: [{ type: 'text', text: 'answer' }] }]);
    expect(warnings).toEqual([
      { code: 'signature-not-replayed', path: 'messages[1].content[0]' },
      { code: 'signature-not-replayed', path: 'messages[1].content[1]' },
      { code: 'dropped', path: 'messages[1].content[2]', detail: 'reasoning' },
    ]);
  });

  it('audio, documents and videos as contents; a file handle as uri', () => {
    const r = req({
      messages: [{
        role: 'user',
        content: [
          { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' }, format: 'wav' },
          { type: 'file', source: { type: 'file-id', id: 'files/abc', mediaType: 'application/pdf' } },
          { type: 'file', source: { type: 'url', url: 'gs://b/v.mp4', mediaType: 'video/mp4' } },
        ],
      }],
    });
    expect(body(r).input[0].content).toEqual([
      { type: 'audio', data: 'UklG', mime_type: 'audio/wav' },
      { type: 'document', uri: 'files/abc', mime_type: 'application/pdf' },
      { type: 'video', uri: 'gs://b/v.mp4', mime_type: 'video/mp4' },
    ]);
  });
});

describe('encodeRequest: settings', () => {
  it('tools, tool choice, sampling, response format', () => {
    const b = body(req({
      tools: [{ name: 'f', description: 'F', parameters: { type: 'object', properties: { a: { type: 'string' } } } }, { name: 'g' }],
      toolChoice: { type: 'tool', name: 'f' },
      maxOutputTokens: 50,
      temperature: 0.3,
      topP: 0.8,
      seed: 1,
      stop: ['X'],
      responseFormat: { type: 'json-schema', name: 'out', schema: { type: 'object' } },
    }));
    expect(b.tools).toEqual([
      { type: 'function', name: 'f', description: 'F', parameters: { type: 'object', properties: { a: { type: 'string' } } } },
      { type: 'function', name: 'g' },
    ]);
    expect(b.generation_config).toEqual({ max_output_tokens: 50, temperature: 0.3, top_p: 0.8, seed: 1, stop_sequences: ['X'], tool_choice: { allowed_tools: { mode: 'any', tools: ['f'] } } });
    expect(b.response_format).toEqual({ type: 'text', mime_type: 'application/json', schema: { type: 'object' } });
  });

  it.each([
    [{ type: 'auto' }, 'auto'],
    [{ type: 'none' }, 'none'],
    [{ type: 'required' }, 'any'],
    [{ type: 'allowed', names: ['a', 'b'], mode: 'required' }, { allowed_tools: { mode: 'any', tools: ['a', 'b'] } }],
    [{ type: 'allowed', names: ['a'], mode: 'auto' }, { allowed_tools: { mode: 'validated', tools: ['a'] } }],
  ] as Array<[ToolChoice, unknown]>)('tool choice %j → %j', (toolChoice, wire) => {
    expect(body(req({ toolChoice })).generation_config.tool_choice).toEqual(wire);
  });

  it.each([
    [{ effort: 'high', includeThoughts: true }, { thinking_level: 'high', thinking_summaries: 'auto' }, []],
    [{ includeThoughts: false }, { thinking_summaries: 'none' }, []],
    [{ budgetTokens: 1000 }, { thinking_level: 'low' }, ['reasoning.budgetTokens']],
    [{ budgetTokens: 100000 }, { thinking_level: 'high' }, ['reasoning.budgetTokens']],
    [{ budgetTokens: -1 }, undefined, []],
    [{ enabled: false, includeThoughts: true }, { thinking_level: 'minimal' }, ['reasoning.enabled']],
  ] as Array<[ReasoningConfig, unknown, string[]]>)('reasoning %j → %j', (reasoning, gc, approximated) => {
    const { value, warnings } = encodeRequest(req({ reasoning }), target);
    expect(JSON.parse(value.body as string).generation_config).toEqual(gc);
    expect(warnings.filter((w) => w.code === 'approximated').map((w) => w.path)).toEqual(approximated);
  });

  it('JSON mode, and a list when images are asked for', () => {
    expect(body(req({ responseFormat: { type: 'json' } })).response_format).toEqual({ type: 'text', mime_type: 'application/json' });
    expect(body(req({ modalities: ['text', 'image'] })).response_format).toEqual([{ type: 'text' }, { type: 'image' }]);
    expect(body(req({ responseFormat: { type: 'text' } })).response_format).toBeUndefined();
  });

  it('built-ins: this dialect’s and generateContent’s kept, another vendor’s dropped naming tools[i]', () => {
    const { value, warnings } = encodeRequest(req({
      nativeTools: [
        { dialect: 'gemini-interactions', definition: { type: 'mcp_server', url: 'https://m' }, path: 'tools[0]' },
        { dialect: 'gemini', definition: { googleSearch: { excludeDomains: ['x.com'] } } },
        { dialect: 'openai-responses', definition: { type: 'web_search' }, path: 'tools[2]' },
      ],
    }), target);
    expect(JSON.parse(value.body as string).tools).toEqual([{ type: 'mcp_server', url: 'https://m' }, { type: 'google_search', exclude_domains: ['x.com'] }]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'tools[2]', detail: 'web_search', lossy: true }]);
  });

  it('what has no place here is reported: topK, penalties, logprobs lossy; user and metadata not', () => {
    const { warnings } = encodeRequest(req({ topK: 3, presencePenalty: 1, logprobs: true, user: 'u', metadata: { a: 'b' } }), target);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'topK', lossy: true },
      { code: 'dropped', path: 'presencePenalty', lossy: true },
      { code: 'dropped', path: 'logprobs', lossy: true },
      { code: 'dropped', path: 'user' },
      { code: 'dropped', path: 'metadata' },
    ]);
  });

  it('another dialect’s extras are reported dropped, never sent', () => {
    const { value, warnings } = encodeRequest(req({ extras: { dialect: 'anthropic', fields: { top_k: 3 } } }), target);
    expect(JSON.parse(value.body as string)).not.toHaveProperty('top_k');
    expect(warnings).toEqual([{ code: 'dropped', path: 'top_k', lossy: true }]);
  });
});

describe('round trips: a caller body decoded, encoded upstream, has the same steps', () => {
  it.each(['function-calling-stateless.request.json', 'structured-output-image.request.json'])('%s', (name) => {
    const wire = fixtureJson('gemini-interactions', name);
    const { value: canonical } = decodeRequest(caller(wire));
    const out = body(canonical);
    const steps = (input: unknown) => (Array.isArray(input) && input[0]?.type in { text: 1, image: 1, document: 1 } ? [{ type: 'user_input', content: input }] : input);
    // An object result goes back as its JSON text (canonical results are parts).
    const expected = JSON.parse(JSON.stringify(steps(wire.input)).replace('"result":{"temperature_c":18,"sky":"overcast"}', '"result":"{\\"temperature_c\\":18,\\"sky\\":\\"overcast\\"}"'));
    expect(out.input).toEqual(expected);
    for (const key of ['system_instruction', 'tools', 'generation_config', 'response_format', 'stream']) expect(out[key]).toEqual(wire[key]);
    expect(out.store).toBe(false);
  });
});

describe('round trips: the conformance requests, encoded then decoded, keep their meaning', () => {
  it.each(canonicalRequests.map((r) => [r.name, r.req] as const))('%s', (_name, r) => {
    const { value } = decodeRequest(caller(body(r, { ...target, model: r.model })));
    expect(essence(value)).toEqual(essence(r));
  });
});

describe('encodePassthrough', () => {
  const raw = fixtureText('gemini-interactions', 'function-calling-stateless.request.json');
  const parsed = JSON.parse(raw);

  it('the caller’s bytes unchanged when the model is the same; the caller’s key replaced', () => {
    const out = encodePassthrough(caller(parsed, { headers: { 'x-goog-api-key': 'callers' } }), raw, target);
    expect(out).toEqual({ method: 'POST', path: '/v1beta/interactions', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-test' }, body: raw, stream: false });
  });

  it('the caller’s api-revision (the wire schema it reads) reaches the upstream', () => {
    const out = encodePassthrough(caller(parsed, { headers: { 'api-revision': '2026-05-20', 'x-goog-api-key': 'callers' } }), raw, target);
    expect(out.headers).toEqual({ 'content-type': 'application/json', 'x-goog-api-key': 'AIza-test', 'api-revision': '2026-05-20' });
    const get = encodePassthrough(caller(undefined, { headers: { 'api-revision': '2026-05-20' }, params: { method: 'retrieve', id: 'v1_a' } }), '', target);
    expect(get.headers['api-revision']).toBe('2026-05-20');
  });

  it('a renamed model: only model changes; streaming keeps accept', () => {
    const out = encodePassthrough(caller({ ...parsed, stream: true }), raw, { ...target, model: 'gemini-3-pro' });
    expect(JSON.parse(out.body as string)).toEqual({ ...parsed, stream: true, model: 'gemini-3-pro' });
    expect(out.stream).toBe(true);
    expect(out.headers['accept']).toBe('text/event-stream');
  });

  it.each([
    ['retrieve', 'GET', '/v1beta/interactions/v1_abc?include_input=true'],
    ['delete', 'DELETE', '/v1beta/interactions/v1_abc'],
    ['cancel', 'POST', '/v1beta/interactions/v1_abc/cancel'],
  ])('%s by id', (method, verb, path) => {
    const out = encodePassthrough(caller(undefined, { params: { method, id: 'v1_abc' }, query: method === 'retrieve' ? { include_input: 'true' } : {} }), '', target);
    expect(out).toEqual({ method: verb, path, headers: { 'x-goog-api-key': 'AIza-test' }, stream: false });
  });

  it('GET with stream=true streams', () => {
    const out = encodePassthrough(caller(undefined, { params: { method: 'retrieve', id: 'v1_abc' }, query: { stream: 'true' } }), '', target);
    expect(out).toMatchObject({ method: 'GET', path: '/v1beta/interactions/v1_abc?stream=true', stream: true, headers: { accept: 'text/event-stream' } });
  });

  it.each(['../models/x', 'a/b?c#d', 'v1 x%2F'])('the id %j stays exactly one path segment', (id) => {
    const out = encodePassthrough(caller(undefined, { params: { method: 'delete', id } }), '', target);
    const rest = out.path.slice('/v1beta/interactions/'.length);
    expect(rest).not.toMatch(/[/?#]/);
    expect(decodeURIComponent(rest)).toBe(id);
    expect(new URL(out.path, 'https://h.example').pathname.split('/')).toHaveLength(4);
  });

  it.each(['', '.', '..'])('the id %j is refused', (id) => {
    expect(() => encodePassthrough(caller(undefined, { params: { method: 'retrieve', id } }), '', target)).toThrow(ProxyError);
  });

  it('forwardRequest: the passthrough request without reading the body, and the model to give it', () => {
    const input = caller({ get model(): never { throw new Error('body read') } }, { headers: { 'api-revision': 'r' } });
    expect(forwardRequest(input, { model: 'gemini-3-flash-preview', stream: true }, target)).toEqual({
      request: { method: 'POST', path: '/v1beta/interactions', headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-goog-api-key': 'AIza-test', 'api-revision': 'r' }, stream: true },
      model: undefined,
    });
    expect(forwardRequest(input, { model: 'alias', stream: false }, target)?.model).toBe('gemini-3-flash-preview');
    expect(forwardRequest(caller(undefined, { params: { method: 'retrieve', id: 'x' } }), { model: 'm', stream: false }, target)).toBeUndefined();
  });
});

describe('encodeRequest: this dialect’s own fields', () => {
  const target: UpstreamTarget = { name: 'g', model: 'gemini-3-flash-preview', apiKey: 'AIza-test', options: {} };

  const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, ...over });

  const encoded = (r: ChatRequest) => {
    const { value, warnings } = encodeRequest(r, target);
    return { body: JSON.parse(value.body as string) as Record<string, unknown>, warnings };
  };

  const mine = (fields: Record<string, unknown>): ChatRequest['extras'] => ({ dialect: 'gemini-interactions', fields });

  it('generation_config.* extras go back into generation_config, next to the encoded settings; others at the top', () => {
    const { body } = encoded(req({ temperature: 0.2, extras: mine({ 'generation_config.speech_config': { voice: 'Kore' }, service_tier: 'flex' }) }));
    expect(body['generation_config']).toEqual({ speech_config: { voice: 'Kore' }, temperature: 0.2 });
    expect(body['service_tier']).toBe('flex');
    expect(body).not.toHaveProperty(['generation_config.speech_config']);
  });

  it('an empty extra makes no generation_config', () => {
    expect(encoded(req({ extras: mine({ 'generation_config.speech_config': undefined }) })).body).not.toHaveProperty('generation_config');
  });

  it('store: the caller’s boolean is kept, anything else is false', () => {
    expect(encoded(req({ extras: mine({ store: true }) })).body['store']).toBe(true);
    expect(encoded(req({ extras: mine({ store: 'yes' }) })).body['store']).toBe(false);
    expect(encoded(req()).body['store']).toBe(false);
  });

  it('only the request streams or not: a stream among the extras is not sent; model is the upstream\'s', () => {
    expect(encoded(req({ extras: mine({ stream: true, model: 'caller-alias' }) })).body).toStrictEqual({ model: 'gemini-3-flash-preview', input: [{ type: 'user_input', content: [{ type: 'text', text: 'Hi' }] }], store: false });
    expect(encoded(req({ stream: true, extras: mine({ stream: false }) })).body['stream']).toBe(true);
  });

  it('cache hints have no place here and are reported', () => {
    const { warnings } = encoded(req({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache: {} }] }] }));
    expect(warnings).toEqual([{ code: 'dropped', path: 'cache_control' }]);
  });
});

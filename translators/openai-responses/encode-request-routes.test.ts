/**
 * The upstream request edges: settings at their limits, extras of odd shapes, the passthrough's
 * routes and headers, token counts and model lists of unexpected shapes.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import type { UpstreamTarget } from '../types.ts';
import { encodeRequest } from './encode-request.ts';
import { decodeCountTokens } from './count-tokens.ts';
import { decodeModelList } from './model-list.ts';
import { encodePassthrough } from './passthrough.ts';

const target: UpstreamTarget = { name: 'up', model: 'gpt-5.1', apiKey: 'sk-up', options: {} };
const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, ...over });
const encode = (r: ChatRequest) => {
  const { value, warnings } = encodeRequest(r, target);
  return { body: JSON.parse(value.body as string) as Record<string, any>, warnings };
};
const extras = (fields: Record<string, unknown>) => ({ dialect: 'openai-responses', fields }) as ChatRequest['extras'];

describe('encodeRequest: limits and extras', () => {
  it('top_logprobs: 20 is sent as it is, more is clamped; without logprobs it is not sent', () => {
    expect(encode(req({ logprobs: true, topLogprobs: 20 }))).toMatchObject({ body: { top_logprobs: 20, include: ['message.output_text.logprobs'] }, warnings: [] });
    expect(encode(req({ logprobs: true, topLogprobs: 21 })).warnings).toEqual([{ code: 'clamped', path: 'topLogprobs', detail: '20' }]);
    const off = encode(req({ topLogprobs: 5 }));
    expect(off.body).not.toHaveProperty('top_logprobs');
    expect(off.body).not.toHaveProperty('include');
    expect(encode(req({ logprobs: true })).body).not.toHaveProperty('top_logprobs');
  });

  it('topK, presence and frequency penalties are reported dropped; reasoning off asks for no encrypted content', () => {
    expect(encode(req({ topK: 5, presencePenalty: 0.1, frequencyPenalty: 0.2 })).warnings).toEqual([
      { code: 'dropped', path: 'topK', lossy: true },
      { code: 'dropped', path: 'presencePenalty', lossy: true },
      { code: 'dropped', path: 'frequencyPenalty', lossy: true },
    ]);
    expect(encode(req({ reasoning: { enabled: false } })).body).toMatchObject({ reasoning: { effort: 'none' } });
    expect(encode(req({ reasoning: { enabled: false } })).body).not.toHaveProperty('include');
    expect(encode(req({ reasoning: { budgetTokens: 0 } })).body).not.toHaveProperty('include');
    expect(encode(req({ reasoning: { effort: 'low' } })).body['include']).toEqual(['reasoning.encrypted_content']);
  });

  it('a caller’s store is kept only when a boolean; stream_options only on a stream; include, text and reasoning extras merged', () => {
    expect(encode(req({ extras: extras({ store: true }) })).body['store']).toBe(true);
    expect(encode(req({ extras: extras({ store: 'yes' }) })).body['store']).toBe(false);
    expect(encode(req({ extras: extras({ stream_options: { include_obfuscation: false } }) })).body).not.toHaveProperty('stream_options');
    expect(encode(req({ stream: true, extras: extras({ stream_options: { include_obfuscation: false } }) })).body).toMatchObject({ stream: true, stream_options: { include_obfuscation: false } });
    const merged = encode(req({ logprobs: true, reasoning: { effort: 'low' }, responseFormat: { type: 'json' }, extras: extras({ include: ['file_search_call.results', 'message.output_text.logprobs'], text: { verbosity: 'low' }, reasoning: { summary: 'concise' } }) })).body;
    expect(merged).toMatchObject({
      include: ['file_search_call.results', 'message.output_text.logprobs', 'reasoning.encrypted_content'],
      text: { verbosity: 'low', format: { type: 'json_object' } },
      reasoning: { effort: 'low', summary: 'concise' },
    });
  });

  it('extras of the wrong shape are ignored: an include that is no list, a text or reasoning that is no object', () => {
    const { body } = encode(req({ extras: extras({ include: 'reasoning.encrypted_content', text: ['low'], reasoning: [1] }) }));
    expect(body).not.toHaveProperty('include');
    expect(body).not.toHaveProperty('text');
    expect(body['reasoning']).toEqual({});
    expect(encode(req({ extras: extras({ text: null, reasoning: 'high' }) })).body['reasoning']).toEqual({});
  });
});

describe('encodeRequest: fields riding in extras', () => {
  it('are sent unless a canonical setting replaces them; an absent setting does not erase them', () => {
    const fields = { instructions: 'X', parallel_tool_calls: true, max_output_tokens: 7, temperature: 0.5, top_p: 0.5, safety_identifier: 'sid', metadata: { a: 'b' }, top_logprobs: 3 };
    const { body } = encode(req({ extras: extras(fields) }));
    expect(body).toMatchObject(fields);
    const replaced = encode(req({ system: [{ type: 'text', text: 'S' }], parallelToolCalls: false, maxOutputTokens: 9, temperature: 1, topP: 1, user: 'u', metadata: { c: 'd' }, extras: extras(fields) })).body;
    expect(replaced).toMatchObject({ instructions: 'S', parallel_tool_calls: false, max_output_tokens: 9, temperature: 1, top_p: 1, safety_identifier: 'u', metadata: { c: 'd' } });
  });
});

describe('encodePassthrough: routes, headers, bodies', () => {
  const input = (over: { params?: Record<string, string>; query?: Record<string, string>; headers?: Record<string, string>; body?: unknown } = {}) => ({
    body: { model: 'gpt-5.1', input: 'hi' },
    headers: {},
    params: {},
    query: {},
    ...over,
  });
  const bare = { authorization: 'Bearer sk-up' };

  it('id routes: GET, DELETE and cancel without a content type, never a stream unless retrieve asks; the query only on GETs', () => {
    const q = { include: 'x' };
    expect(encodePassthrough(input({ params: { method: 'retrieve', id: 'resp_1' }, query: { stream: 'false' } }), '', target)).toEqual({ method: 'GET', path: '/responses/resp_1?stream=false', headers: bare, stream: false });
    expect(encodePassthrough(input({ params: { method: 'input_items', id: 'resp_1' }, query: q }), '', target)).toEqual({ method: 'GET', path: '/responses/resp_1/input_items?include=x', headers: bare, stream: false });
    expect(encodePassthrough(input({ params: { method: 'input_items', id: 'resp_1' } }), '', target).path).toBe('/responses/resp_1/input_items');
    expect(encodePassthrough(input({ params: { method: 'delete', id: 'resp_1' }, query: q }), '', target)).toEqual({ method: 'DELETE', path: '/responses/resp_1', headers: bare, stream: false });
    expect(encodePassthrough(input({ params: { method: 'cancel', id: 'resp_1' }, query: q }), '', target)).toEqual({ method: 'POST', path: '/responses/resp_1/cancel', headers: bare, stream: false });
  });

  it.each([[undefined], [''], ['.'], ['..']])('the response id %j is refused, named', (id) => {
    const params: Record<string, string> = { method: 'retrieve', ...(id !== undefined ? { id } : {}) };
    expect(() => encodePassthrough(input({ params }), '', target)).toThrow(
      expect.objectContaining({ kind: 'invalid-request', message: `The response id '${id ?? ''}' cannot be sent to the upstream.`, param: 'response_id' }),
    );
  });

  it('OpenAI organisation, project and beta headers are forwarded unless the upstream sets its own', () => {
    const caller = { 'openai-organization': 'org-caller', 'openai-project': 'proj-caller', 'openai-beta': 'b=1', 'x-other': 'no' };
    const own = { ...target, options: { headers: { 'openai-organization': 'org-up' } } };
    expect(encodePassthrough(input({ headers: caller }), '{}', own).headers).toEqual({
      'openai-organization': 'org-up',
      'openai-project': 'proj-caller',
      'openai-beta': 'b=1',
      'content-type': 'application/json',
      authorization: 'Bearer sk-up',
    });
  });

  it('a header the caller did not send is not sent at all', () => {
    expect(encodePassthrough(input({ headers: { 'openai-beta': 'b=1' } }), '{}', target).headers).toStrictEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-up', 'openai-beta': 'b=1' });
  });

  it('a create call: streams only when the body says true; a body that is no object is sent as it came; counts never stream', () => {
    expect(encodePassthrough(input({ body: { model: 'gpt-5.1', stream: true } }), 'raw', target)).toMatchObject({ method: 'POST', path: '/responses', body: 'raw', stream: true });
    expect(encodePassthrough(input({ body: { model: 'gpt-5.1', stream: 'true' } }), 'raw', target).stream).toBe(false);
    expect(encodePassthrough(input({ body: { model: 'gpt-5.1', stream: true }, params: { method: 'input_tokens' } }), 'raw', target)).toMatchObject({ path: '/responses/input_tokens', stream: false });
    for (const body of [null, ['x'], 'text']) expect(encodePassthrough(input({ body }), 'raw', target)).toMatchObject({ body: 'raw', stream: false });
    expect(JSON.parse(encodePassthrough(input({ body: { model: 'other', stream: true } }), 'raw', target).body as string)).toEqual({ model: 'gpt-5.1', stream: true });
  });
});

describe('token counts and model lists of other shapes', () => {
  it.each([[{ input_tokens: '5' }], [{ input_tokens: null }], [null], [[5]], [{ input_tokens: Number.NaN }], [{ input_tokens: Infinity }]])('%j is no count', (body) => {
    expect(() => decodeCountTokens(body)).toThrow(expect.objectContaining({ kind: 'upstream', message: 'The upstream token count has no input_tokens.' }));
  });

  it('ids from data, slugs (else ids) from models, once each; entries of other shapes skipped', () => {
    expect(decodeModelList({ data: [{ id: 'a' }, ['b'], { id: 3 }, null], models: [{ slug: 's', id: 'x' }, { id: 'c' }, { id: 'a' }, 'd'] })).toEqual(['a', 's', 'c']);
    expect(decodeModelList({ data: 'a', models: { slug: 'b' } })).toEqual([]);
    expect(decodeModelList([{ id: 'a' }])).toEqual([]);
    expect(decodeModelList(null)).toEqual([]);
  });
});

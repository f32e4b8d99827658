/**
 * The upstream request edges: settings at their limits, extras of odd shapes, the passthrough's
 * routes and headers, token counts and model lists of unexpected shapes.
 */
import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../types.ts';
import { encodePassthrough } from './passthrough.ts';

const target: UpstreamTarget = { name: 'up', model: 'gpt-5.1', apiKey: 'sk-up', options: {} };

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

  it('compaction goes to its own route, with the body as it came', () => {
    expect(encodePassthrough(input({ params: { method: 'compact' } }), 'raw', target)).toMatchObject({ method: 'POST', path: '/responses/compact', body: 'raw', stream: false });
  });

  it('a session’s cache key is added to a body naming the upstream’s model already, unless the caller gave one or counts tokens', () => {
    const keyed = { ...target, options: { promptCacheKey: 'sess-1' } };
    expect(JSON.parse(encodePassthrough(input(), 'raw', keyed).body as string)).toEqual({ model: 'gpt-5.1', input: 'hi', prompt_cache_key: 'sess-1' });
    expect(encodePassthrough(input({ body: { model: 'gpt-5.1', prompt_cache_key: 'own' } }), 'raw', keyed).body).toBe('raw');
    expect(encodePassthrough(input({ params: { method: 'input_tokens' } }), 'raw', keyed).body).toBe('raw');
  });
});

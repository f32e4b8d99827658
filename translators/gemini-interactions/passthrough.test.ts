import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import type { CallerInput, UpstreamTarget } from '../types.ts';
import { encodePassthrough } from './passthrough.ts';

const target: UpstreamTarget = { name: 'g', model: 'gemini-3-flash-preview', apiKey: 'AIza-test', options: {} };

const caller = (body: unknown, over: Partial<CallerInput> = {}): CallerInput => ({ body, headers: {}, params: {}, query: {}, ...over });

describe('encodePassthrough: the edges', () => {
  it('a refused id says which, as a 400 on id', () => {
    let err: ProxyError | undefined;
    try {
      encodePassthrough(caller(undefined, { params: { method: 'retrieve', id: '..' } }), '', target);
    } catch (e) {
      err = e as ProxyError;
    }
    expect(err).toBeInstanceOf(ProxyError);
    expect({ status: err!.status, param: err!.param, message: err!.message }).toStrictEqual({ status: 400, param: 'id', message: "The interaction id '..' cannot be sent to the upstream." });
    expect(() => encodePassthrough(caller(undefined, { params: { method: 'delete' } }), '', target)).toThrow("The interaction id '' cannot be sent to the upstream.");
  });

  it('only GET streams and carries the query; cancel and delete do neither', () => {
    const query = { stream: 'true', include_input: 'true' };
    expect(encodePassthrough(caller(undefined, { params: { method: 'cancel', id: 'v1_a' }, query }), '', target)).toStrictEqual({
      method: 'POST',
      path: '/v1beta/interactions/v1_a/cancel',
      headers: { 'x-goog-api-key': 'AIza-test' },
      stream: false,
    });
    expect(encodePassthrough(caller(undefined, { params: { method: 'delete', id: 'v1_a' }, query }), '', target).path).toBe('/v1beta/interactions/v1_a');
  });

  it('no api-revision from the caller sends none; one configured on the upstream wins over the caller’s', () => {
    expect(Object.keys(encodePassthrough(caller({ model: target.model }), '{}', target).headers).sort()).toStrictEqual(['content-type', 'x-goog-api-key']);
    const pinned = { ...target, options: { headers: { 'api-revision': 'configured' } } };
    expect(encodePassthrough(caller({ model: target.model }, { headers: { 'api-revision': 'callers' } }), '{}', pinned).headers['api-revision']).toBe('configured');
  });

  it('a body that is not an object is forwarded as it came, not streaming', () => {
    expect(encodePassthrough(caller(null), 'null', target)).toStrictEqual({ method: 'POST', path: '/v1beta/interactions', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-test' }, body: 'null', stream: false });
  });

  it('GET without a query has no `?`; only stream=true streams it; the caller’s other headers are not forwarded', () => {
    const get = encodePassthrough(caller(undefined, { params: { method: 'retrieve', id: 'v1_a' }, headers: { 'x-custom': '1', authorization: 'Bearer c' } }), '', target);
    expect(get).toStrictEqual({ method: 'GET', path: '/v1beta/interactions/v1_a', headers: { 'x-goog-api-key': 'AIza-test' }, stream: false });
    const notStreamed = encodePassthrough(caller(undefined, { params: { method: 'retrieve', id: 'v1_a' }, query: { stream: 'false' } }), '', target);
    expect(notStreamed).toMatchObject({ path: '/v1beta/interactions/v1_a?stream=false', stream: false });
    expect(notStreamed.headers).not.toHaveProperty('accept');
  });

  it('a create body streams only for stream: true; a body without a model gets the upstream’s', () => {
    const out = encodePassthrough(caller({ model: target.model, stream: 'true' }), 'RAW', target);
    expect(out).toMatchObject({ body: 'RAW', stream: false });
    expect(out.headers).not.toHaveProperty('accept');
    expect(JSON.parse(encodePassthrough(caller({ input: 'hi' }), '{"input":"hi"}', target).body as string)).toStrictEqual({ input: 'hi', model: target.model });
  });
});

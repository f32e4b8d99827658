import { describe, expect, it } from 'vitest';
import { ProxyError, type EmbeddingRequest } from '../../src/canonical/index.ts';
import { encodeEmbeddingRequest } from './encode-request.ts';

const target = (model = 'text-embedding-3-small') => ({ name: 'openai', model, apiKey: 'sk-up', options: { headers: { 'x-extra': '1' } } });
const req = (over: Partial<EmbeddingRequest> = {}): EmbeddingRequest => ({ model: 'alias', inputs: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], encoding: 'base64', ...over });

describe('OpenAI embeddings request encoding', () => {
  it('POST /embeddings, the routed model, floats asked (the default), Bearer key and configured headers', () => {
    const { value, warnings } = encodeEmbeddingRequest(req({ dimensions: 64, user: 'u' }), target());
    expect(value).toMatchObject({ method: 'POST', path: '/embeddings', stream: false });
    expect(value.headers).toEqual({ 'x-extra': '1', 'content-type': 'application/json', authorization: 'Bearer sk-up' });
    expect(JSON.parse(value.body as string)).toEqual({ model: 'text-embedding-3-small', input: ['a', 'b'], dimensions: 64, user: 'u' });
    expect(warnings).toEqual([]);
  });

  it('token arrays go as they are; mixed with text is a 400', () => {
    expect(JSON.parse(encodeEmbeddingRequest(req({ inputs: [{ type: 'tokens', tokens: [1, 2] }] }), target()).value.body as string).input).toEqual([[1, 2]]);
    expect(() => encodeEmbeddingRequest(req({ inputs: [{ type: 'tokens', tokens: [1] }, { type: 'text', text: 'a' }] }), target())).toThrow(ProxyError);
  });

  it('dimensions toward ada-002 (one size) is the caller 400 on dimensions', () => {
    try {
      encodeEmbeddingRequest(req({ dimensions: 256 }), target('text-embedding-ada-002'));
      expect.unreachable();
    } catch (e) {
      expect((e as ProxyError).status).toBe(400);
      expect((e as ProxyError).param).toBe('dimensions');
    }
    expect(() => encodeEmbeddingRequest(req(), target('text-embedding-ada-002'))).not.toThrow();
  });

  it('task types and titles have no place: reported (the task type as a loss strict mode refuses)', () => {
    const { warnings } = encodeEmbeddingRequest(req({ inputs: [{ type: 'text', text: 'a', task: 'document', title: 'T' }] }), target());
    expect(warnings).toEqual([{ code: 'dropped', path: 'taskType', lossy: true }, { code: 'dropped', path: 'title' }]);
  });
});

import { describe, expect, it } from 'vitest';
import { ProxyError, type EmbeddingRequest } from '../../src/canonical/index.ts';
import { geminiEmbeddings, vertexEmbeddings } from './embeddings-upstream.ts';

const target = (model: string) => ({ name: 'g', model, apiKey: 'AIza-up', options: {} });
const req = (over: Partial<EmbeddingRequest> = {}): EmbeddingRequest => ({ model: 'alias', inputs: [{ type: 'text', text: 'a', task: 'query' }, { type: 'text', text: 'b', title: 'T' }], encoding: 'float', ...over });
const ctx = { now: () => 0, newId: (p: string) => `${p}1` };

describe('Gemini API batchEmbedContents upstream', () => {
  it('the routed model in the URL and in every request, task types and size carried, the key in x-goog-api-key', () => {
    const { value, warnings } = geminiEmbeddings.encodeEmbeddingRequest(req({ dimensions: 32, user: 'u' }), target('gemini-embedding-001'), ctx);
    expect(value.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(value.headers['x-goog-api-key']).toBe('AIza-up');
    expect(JSON.parse(value.body as string)).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'a' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 32 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'b' }] }, title: 'T', outputDimensionality: 32 },
      ],
    });
    expect(warnings).toEqual([{ code: 'dropped', path: 'user' }]);
    expect(geminiEmbeddings.batchSize('x')).toBe(100);
  });

  it('token arrays are the caller 400', () => {
    expect(() => geminiEmbeddings.encodeEmbeddingRequest(req({ inputs: [{ type: 'tokens', tokens: [1] }] }), target('m'), ctx)).toThrow(ProxyError);
  });

  it('answers: one vector per input, usage when reported; a count mismatch is a 502', () => {
    expect(geminiEmbeddings.decodeEmbeddingResponse({ embeddings: [{ values: [1] }, { values: [2] }] }, req(), ctx)).toEqual({ vectors: [{ type: 'floats', values: [1] }, { type: 'floats', values: [2] }] });
    expect(geminiEmbeddings.decodeEmbeddingResponse({ embeddings: [{ values: [1] }, { values: [2] }], usageMetadata: { promptTokenCount: 7 } }, req(), ctx).usage).toEqual({ inputTokens: 7, totalTokens: 7 });
    expect(() => geminiEmbeddings.decodeEmbeddingResponse({ embeddings: [{ values: [1] }] }, req(), ctx)).toThrow(ProxyError);
    expect(() => geminiEmbeddings.decodeEmbeddingResponse({ embeddings: [{ values: ['x'] }, { values: [1] }] }, req(), ctx)).toThrow(ProxyError);
  });
});

describe('Vertex AI predict upstream', () => {
  it('instances with task_type and title, the size in parameters', () => {
    const { value } = vertexEmbeddings.encodeEmbeddingRequest(req({ dimensions: 256 }), target('text-embedding-005'), ctx);
    expect(value.path).toBe('/v1beta/models/text-embedding-005:predict');
    expect(JSON.parse(value.body as string)).toEqual({ instances: [{ content: 'a', task_type: 'RETRIEVAL_QUERY' }, { content: 'b', title: 'T' }], parameters: { outputDimensionality: 256 } });
  });

  it('gemini-embedding models take one instance a call, the others 250', () => {
    expect(vertexEmbeddings.batchSize('gemini-embedding-001')).toBe(1);
    expect(vertexEmbeddings.batchSize('text-embedding-005')).toBe(250);
  });

  it('predictions in order; token counts summed only when every prediction has one', () => {
    const p = (v: number, count?: number) => ({ embeddings: { values: [v], ...(count !== undefined && { statistics: { token_count: count, truncated: false } }) } });
    expect(vertexEmbeddings.decodeEmbeddingResponse({ predictions: [p(1, 2), p(2, 3)] }, req(), ctx)).toEqual({ vectors: [{ type: 'floats', values: [1] }, { type: 'floats', values: [2] }], usage: { inputTokens: 5, totalTokens: 5 } });
    expect(vertexEmbeddings.decodeEmbeddingResponse({ predictions: [p(1, 2), p(2)] }, req(), ctx).usage).toBeUndefined();
    expect(() => vertexEmbeddings.decodeEmbeddingResponse({ predictions: [p(1)] }, req(), ctx)).toThrow(ProxyError);
  });
});

describe('embeddings upstreams: requests in full', () => {
  const bare: EmbeddingRequest = { model: 'alias', inputs: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b', title: '' }], encoding: 'float' };

  it('Gemini API: a POST that is no stream, JSON; no task, size or warning when none is asked; a models/ target named once', () => {
    expect(geminiEmbeddings.encodeEmbeddingRequest(bare, target('models/gemini-embedding-001'), ctx)).toEqual({
      value: {
        method: 'POST',
        path: '/v1beta/models/gemini-embedding-001:batchEmbedContents',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-up' },
        body: JSON.stringify({
          requests: [
            { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'a' }] } },
            { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'b' }] }, title: '' },
          ],
        }),
        stream: false,
      },
      warnings: [],
    });
  });

  it('Vertex AI: instances alone when no size is asked, no warning with no user; the user dropped and said so', () => {
    expect(vertexEmbeddings.encodeEmbeddingRequest(bare, target('text-embedding-005'), ctx)).toEqual({
      value: {
        method: 'POST',
        path: '/v1beta/models/text-embedding-005:predict',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-up' },
        body: JSON.stringify({ instances: [{ content: 'a' }, { content: 'b', title: '' }] }),
        stream: false,
      },
      warnings: [],
    });
    expect(vertexEmbeddings.encodeEmbeddingRequest({ ...bare, user: 'u' }, target('text-embedding-005'), ctx).warnings).toEqual([{ code: 'dropped', path: 'user' }]);
  });

  it.each([
    ['Gemini API', geminiEmbeddings],
    ['Vertex AI', vertexEmbeddings],
  ])('%s: token arrays are the caller’s 400, naming the upstream and its model', (_name, upstream) => {
    const tokens: EmbeddingRequest = { ...bare, inputs: [{ type: 'text', text: 'a' }, { type: 'tokens', tokens: [1, 2] }] };
    expect(() => upstream.encodeEmbeddingRequest(tokens, target('text-embedding-005'), ctx)).toThrow(
      expect.objectContaining({ kind: 'invalid-request', message: "The upstream 'g' embeds text only: token arrays cannot be sent to text-embedding-005.", param: 'input', code: 'invalid_type' }),
    );
  });
});

describe('embeddings upstreams: answers of an unexpected shape', () => {
  const shape = (detail: string) => expect.objectContaining({ kind: 'upstream', message: `Upstream returned an embeddings response of an unexpected shape (${detail}).` });

  it.each<[unknown, string]>([
    [{ embeddings: [{ values: [1] }] }, '1 embeddings for 2 inputs'],
    [{ embeddings: { values: [1] } }, 'no embeddings for 2 inputs'],
    [{}, 'no embeddings for 2 inputs'],
    [null, 'no embeddings for 2 inputs'],
    [{ embeddings: [{ values: [1] }, { values: [2, 'x'] }] }, 'embeddings[1]'],
    [{ embeddings: [{ values: [1] }, null] }, 'embeddings[1]'],
    [{ embeddings: [{ values: { 0: 1 } }, { values: [1] }] }, 'embeddings[0]'],
  ])('Gemini API %j: %s', (body, detail) => {
    expect(() => geminiEmbeddings.decodeEmbeddingResponse(body, req(), ctx)).toThrow(shape(detail));
  });

  it('Gemini API: a token count that is no number is no usage', () => {
    const res = geminiEmbeddings.decodeEmbeddingResponse({ embeddings: [{ values: [1] }, { values: [] }], usageMetadata: { promptTokenCount: '7' } }, req(), ctx);
    expect(res).toEqual({ vectors: [{ type: 'floats', values: [1] }, { type: 'floats', values: [] }] });
    expect('usage' in res).toBe(false);
  });

  it.each<[unknown, string]>([
    [{ predictions: [{ embeddings: { values: [1] } }] }, '1 predictions for 2 inputs'],
    [{ predictions: 'x' }, 'no predictions for 2 inputs'],
    [null, 'no predictions for 2 inputs'],
    [{ predictions: [{ embeddings: { values: [1] } }, null] }, 'predictions[1].embeddings'],
    [{ predictions: [{ embeddings: { values: [1] } }, {}] }, 'predictions[1].embeddings'],
    [{ predictions: [{ embeddings: { values: ['1'] } }, { embeddings: { values: [1] } }] }, 'predictions[0].embeddings'],
  ])('Vertex AI %j: %s', (body, detail) => {
    expect(() => vertexEmbeddings.decodeEmbeddingResponse(body, req(), ctx)).toThrow(shape(detail));
  });

  it('Vertex AI: counts of zero still count; a count that is no number makes none', () => {
    const p = (count: unknown) => ({ embeddings: { values: [1], statistics: { token_count: count } } });
    expect(vertexEmbeddings.decodeEmbeddingResponse({ predictions: [p(0), p(4)] }, req(), ctx).usage).toEqual({ inputTokens: 4, totalTokens: 4 });
    expect(vertexEmbeddings.decodeEmbeddingResponse({ predictions: [p(0), p(0)] }, req(), ctx).usage).toEqual({ inputTokens: 0, totalTokens: 0 });
    const none = vertexEmbeddings.decodeEmbeddingResponse({ predictions: [p('3'), p(4)] }, req(), ctx);
    expect('usage' in none).toBe(false);
  });
});

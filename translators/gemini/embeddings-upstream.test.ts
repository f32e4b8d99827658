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

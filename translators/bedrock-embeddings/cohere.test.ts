import { describe, expect, it } from 'vitest';
import { ProxyError, type EmbeddingRequest } from '../../src/canonical/index.ts';
import { cohereEmbeddings } from './cohere.ts';

const target = (model = 'cohere.embed-english-v3') => ({ name: 'bedrock', model, options: {} });
const req = (over: Partial<EmbeddingRequest> = {}): EmbeddingRequest => ({ model: 'alias', inputs: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], encoding: 'float', ...over });
const ctx = { now: () => 0, newId: (p: string) => `${p}1` };
const body = (r: EmbeddingRequest, model?: string) => JSON.parse(cohereEmbeddings.encodeEmbeddingRequest(r, target(model), ctx).value.body as string);

describe('Bedrock Cohere embeddings', () => {
  it('texts, floats asked, search_document when no task', () => {
    expect(cohereEmbeddings.batchSize('x')).toBe(96);
    expect(body(req())).toEqual({ texts: ['a', 'b'], input_type: 'search_document', embedding_types: ['float'] });
  });

  it('task types: the four Cohere has map exactly, the others approximated and reported', () => {
    expect(body(req({ inputs: [{ type: 'text', text: 'a', task: 'query' }] })).input_type).toBe('search_query');
    expect(body(req({ inputs: [{ type: 'text', text: 'a', task: 'classification' }] })).input_type).toBe('classification');
    const { value, warnings } = cohereEmbeddings.encodeEmbeddingRequest(req({ inputs: [{ type: 'text', text: 'a', task: 'similarity' }] }), target(), ctx);
    expect(JSON.parse(value.body as string).input_type).toBe('clustering');
    expect(warnings).toEqual([{ code: 'approximated', path: 'taskType', detail: 'clustering' }]);
  });

  it('v4 takes output_dimension of its sizes; v3 has one size', () => {
    expect(body(req({ dimensions: 512 }), 'cohere.embed-v4:0').output_dimension).toBe(512);
    expect(() => cohereEmbeddings.encodeEmbeddingRequest(req({ dimensions: 300 }), target('cohere.embed-v4:0'), ctx)).toThrow(ProxyError);
    expect(() => cohereEmbeddings.encodeEmbeddingRequest(req({ dimensions: 512 }), target(), ctx)).toThrow(ProxyError);
    expect(() => cohereEmbeddings.encodeEmbeddingRequest(req({ inputs: [{ type: 'tokens', tokens: [1] }] }), target(), ctx)).toThrow(ProxyError);
  });

  it('answers by type and the plain list; a count mismatch is a 502', () => {
    expect(cohereEmbeddings.decodeEmbeddingResponse({ embeddings: { float: [[1], [2]] } }, req(), ctx)).toEqual({ vectors: [{ type: 'floats', values: [1] }, { type: 'floats', values: [2] }] });
    expect(cohereEmbeddings.decodeEmbeddingResponse({ embeddings: [[1], [2]], response_type: 'embeddings_floats' }, req(), ctx).vectors).toHaveLength(2);
    expect(() => cohereEmbeddings.decodeEmbeddingResponse({ embeddings: { float: [[1]] } }, req(), ctx)).toThrow(ProxyError);
  });

  it("usage from Bedrock's token-count header, when it sends one", () => {
    const body = { embeddings: { float: [[1], [2]] } };
    expect(cohereEmbeddings.decodeEmbeddingResponse(body, req(), ctx, { 'x-amzn-bedrock-input-token-count': '12' }).usage).toEqual({ inputTokens: 12, totalTokens: 12 });
    expect(cohereEmbeddings.decodeEmbeddingResponse(body, req(), ctx, { 'x-amzn-bedrock-input-token-count': 'x' }).usage).toBeUndefined();
  });
});

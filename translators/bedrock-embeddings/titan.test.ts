import { describe, expect, it } from 'vitest';
import { ProxyError, type EmbeddingRequest } from '../../src/canonical/index.ts';
import { titanEmbeddings } from './titan.ts';

const target = (model = 'amazon.titan-embed-text-v2:0') => ({ name: 'bedrock', model, options: {} });
const req = (over: Partial<EmbeddingRequest> = {}): EmbeddingRequest => ({ model: 'alias', inputs: [{ type: 'text', text: 'a' }], encoding: 'float', ...over });
const ctx = { now: () => 0, newId: (p: string) => `${p}1` };

describe('Bedrock Titan embeddings', () => {
  it('one text a call to /model/{id}/invoke (the id one encoded segment), dimensions and normalize', () => {
    expect(titanEmbeddings.batchSize('x')).toBe(1);
    const { value } = titanEmbeddings.encodeEmbeddingRequest(req({ dimensions: 512 }), target(), ctx);
    expect(value.path).toBe('/model/amazon.titan-embed-text-v2%3A0/invoke');
    expect(JSON.parse(value.body as string)).toEqual({ inputText: 'a', dimensions: 512, normalize: true });
  });

  it('a size Titan v2 cannot give, any size toward v1, token arrays: the caller 400', () => {
    for (const [r, model] of [
      [req({ dimensions: 768 }), 'amazon.titan-embed-text-v2:0'],
      [req({ dimensions: 1536 }), 'amazon.titan-embed-text-v1'],
      [req({ inputs: [{ type: 'tokens', tokens: [1] }] }), 'amazon.titan-embed-text-v2:0'],
    ] as const) {
      expect(() => titanEmbeddings.encodeEmbeddingRequest(r, target(model), ctx)).toThrow(ProxyError);
    }
    expect(JSON.parse(titanEmbeddings.encodeEmbeddingRequest(req(), target('amazon.titan-embed-text-v1'), ctx).value.body as string)).toEqual({ inputText: 'a' });
  });

  it('task type, title and user reported', () => {
    const { warnings } = titanEmbeddings.encodeEmbeddingRequest(req({ inputs: [{ type: 'text', text: 'a', task: 'query', title: 'T' }], user: 'u' }), target(), ctx);
    expect(warnings.map((w) => w.path)).toEqual(['taskType', 'title', 'user']);
  });

  it('the answer: embedding and inputTextTokenCount; another shape is a 502', () => {
    expect(titanEmbeddings.decodeEmbeddingResponse({ embedding: [1, 2], inputTextTokenCount: 3 }, req(), ctx)).toEqual({ vectors: [{ type: 'floats', values: [1, 2] }], usage: { inputTokens: 3, totalTokens: 3 } });
    expect(() => titanEmbeddings.decodeEmbeddingResponse({ embeddings: [] }, req(), ctx)).toThrow(ProxyError);
  });
});

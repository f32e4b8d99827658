import { describe, expect, it } from 'vitest';
import { ProxyError, type EmbeddingRequest } from '../../src/canonical/index.ts';
import { decodeEmbeddingResponse } from './decode-response.ts';

const req = (n: number): EmbeddingRequest => ({ model: 'm', inputs: Array.from({ length: n }, (_, i) => ({ type: 'text', text: `t${i}` })), encoding: 'float' });

describe('OpenAI embeddings response decoding', () => {
  it('vectors put at their index, base64 kept as base64, model and usage read', () => {
    const res = decodeEmbeddingResponse(
      { object: 'list', data: [{ index: 1, embedding: 'AACAPw==' }, { index: 0, embedding: [0.5, 1] }], model: 'text-embedding-3-small', usage: { prompt_tokens: 4, total_tokens: 4 } },
      req(2),
    );
    expect(res).toEqual({ model: 'text-embedding-3-small', vectors: [{ type: 'floats', values: [0.5, 1] }, { type: 'base64', base64: 'AACAPw==' }], usage: { inputTokens: 4, totalTokens: 4 } });
  });

  it('no usage: none (the flow estimates)', () => {
    expect(decodeEmbeddingResponse({ data: [{ index: 0, embedding: [1] }] }, req(1)).usage).toBeUndefined();
  });

  it.each<[unknown, string]>([
    [{}, 'no data'],
    [{ data: [{ index: 0, embedding: [1] }] }, 'one missing'],
    [{ data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [2] }] }, 'an index twice'],
    [{ data: [{ index: 5, embedding: [1] }, { index: 0, embedding: [2] }] }, 'an index out of range'],
    [{ data: [{ index: 0, embedding: ['x'] }, { index: 1, embedding: [2] }] }, 'not numbers'],
  ])('%j (%s) is a 502', (body) => {
    expect(() => decodeEmbeddingResponse(body, req(2))).toThrow(ProxyError);
  });
});

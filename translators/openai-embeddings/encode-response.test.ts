import { describe, expect, it } from 'vitest';
import { ProxyError, type EmbeddingRequest } from '../../src/canonical/index.ts';
import { encodeEmbeddingResponse } from './encode-response.ts';

const req = (encoding: 'float' | 'base64'): EmbeddingRequest => ({ model: 'alias', inputs: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], encoding });

describe('OpenAI embeddings response encoding', () => {
  it('floats in input order, the list shape, usage', () => {
    const out = encodeEmbeddingResponse({ model: 'served', vectors: [{ type: 'floats', values: [1] }, { type: 'base64', base64: 'AAAgwA==' }], usage: { inputTokens: 3, totalTokens: 3 } }, req('float'));
    expect(out).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [1] },
        { object: 'embedding', index: 1, embedding: [-2.5] },
      ],
      model: 'served',
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
  });

  it('base64 made from floats; the caller model when the upstream named none', () => {
    const out = encodeEmbeddingResponse({ vectors: [{ type: 'floats', values: [1] }, { type: 'floats', values: [-2.5] }] }, req('base64')) as any;
    expect(out.data.map((d: any) => d.embedding)).toEqual(['AACAPw==', 'AAAgwA==']);
    expect(out.model).toBe('alias');
  });

  it('base64 that is not float32 bytes, asked as floats, is a 502', () => {
    expect(() => encodeEmbeddingResponse({ vectors: [{ type: 'base64', base64: 'AAA=' }] }, req('float'))).toThrow(ProxyError);
  });
});

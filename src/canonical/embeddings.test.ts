import { describe, expect, it } from 'vitest';
import { estimateEmbeddingTokens, sumEmbeddingUsage, vectorBase64, vectorValues } from './embeddings.ts';

describe('embedding vectors', () => {
  it('base64 is the little-endian float32 bytes, as OpenAI encodes them', () => {
    // 1.0 = 0x3f800000, -2.5 = 0xc0200000: little-endian bytes 00 00 80 3f, 00 00 20 c0.
    expect(vectorBase64({ type: 'floats', values: [1, -2.5] })).toBe(Buffer.from([0, 0, 0x80, 0x3f, 0, 0, 0x20, 0xc0]).toString('base64'));
    expect(vectorValues({ type: 'base64', base64: vectorBase64({ type: 'floats', values: [0.25, -8, 3.5] }) })).toEqual([0.25, -8, 3.5]);
  });

  it('base64 as the upstream sent it is kept; values decode from it; bytes that are not float32 are refused', () => {
    expect(vectorBase64({ type: 'base64', base64: 'AACAPw==' })).toBe('AACAPw==');
    expect(vectorValues({ type: 'base64', base64: 'AACAPw==' })).toEqual([1]);
    expect(vectorValues({ type: 'base64', base64: 'AAA=' })).toBeUndefined();
    expect(vectorValues({ type: 'base64', base64: '***' })).toBeUndefined();
  });

  it('values that float32 cannot hold exactly are rounded to float32 in base64', () => {
    expect(vectorValues({ type: 'base64', base64: vectorBase64({ type: 'floats', values: [0.1] }) })![0]).toBe(Math.fround(0.1));
  });
});

describe('embedding usage', () => {
  it('estimates four characters a token, a token array by its length, at least one a text', () => {
    expect(estimateEmbeddingTokens([{ type: 'text', text: 'abcdefgh' }, { type: 'text', text: 'a' }, { type: 'tokens', tokens: [1, 2, 3] }])).toBe(2 + 1 + 3);
  });

  it('sums only when every call reported', () => {
    expect(sumEmbeddingUsage([{ inputTokens: 2, totalTokens: 2 }, { inputTokens: 3, totalTokens: 4 }])).toEqual({ inputTokens: 5, totalTokens: 6 });
    expect(sumEmbeddingUsage([{ inputTokens: 2, totalTokens: 2 }, undefined])).toBeUndefined();
    expect(sumEmbeddingUsage([])).toBeUndefined();
  });
});

/**
 * What an embeddings caller receives, checked against the vendors' shapes: OpenAI's
 * CreateEmbeddingResponse (floats; base64 strings are what the API sends for `encoding_format:
 * base64`, which the document does not describe: an allowance) and Gemini's EmbedContentResponse
 * and BatchEmbedContentsResponse, for answers decoded from every upstream wire form; and errors.
 */
import { describe, expect, it } from 'vitest';
import { ProxyError, type EmbeddingRequest } from '../../src/canonical/index.ts';
import { geminiEmbeddingCaller, geminiEmbeddings, vertexEmbeddings } from '../../translators/gemini/index.ts';
import { cohereEmbeddings, titanEmbeddings } from '../../translators/bedrock-embeddings/index.ts';
import { openaiEmbeddings } from '../../translators/openai-embeddings/index.ts';
import { estimateEmbeddingTokens } from '../../src/canonical/index.ts';
import { testContext } from '../support/fixtures.ts';
import { checker, STANDARD_BASE64, type Allowance } from './validate.ts';

const base64Vectors: Allowance = {
  def: 'CreateEmbeddingResponse',
  at: /^\/data\/\d+\/embedding$/,
  value: (v) => typeof v === 'string' && STANDARD_BASE64.test(v),
  as: [0],
  reason: "encoding_format 'base64': OpenAI answers each embedding as a base64 string (the openai SDK asks for it by default); the document only describes the float array.",
};
const openai = checker('openai', [base64Vectors]);
const gemini = checker('gemini');

const req = (n: number, encoding: 'float' | 'base64' = 'float'): EmbeddingRequest => ({ model: 'm', inputs: Array.from({ length: n }, (_, i) => ({ type: 'text', text: `t${i}` })), encoding });
const answers = {
  openai: () => openaiEmbeddings.decodeEmbeddingResponse({ object: 'list', data: [{ index: 0, embedding: [0.5] }, { index: 1, embedding: 'AACAPw==' }], model: 'x', usage: { prompt_tokens: 2, total_tokens: 2 } }, req(2), testContext()),
  gemini: () => geminiEmbeddings.decodeEmbeddingResponse({ embeddings: [{ values: [1] }, { values: [2] }] }, req(2), testContext()),
  vertex: () => vertexEmbeddings.decodeEmbeddingResponse({ predictions: [{ embeddings: { values: [1] } }, { embeddings: { values: [2] } }] }, req(2), testContext()),
  titan: () => ({ vectors: [...titanEmbeddings.decodeEmbeddingResponse({ embedding: [1] }, req(1), testContext()).vectors, { type: 'floats' as const, values: [2] }] }),
  cohere: () => cohereEmbeddings.decodeEmbeddingResponse({ embeddings: { float: [[1], [2]] } }, req(2), testContext()),
};
/** The usage the flow gives an answer without one (estimated). */
const withUsage = (res: ReturnType<(typeof answers)['openai']>) => ({ ...res, usage: res.usage ?? { inputTokens: estimateEmbeddingTokens(req(2).inputs), totalTokens: 2, estimated: true } });

describe('embeddings callers receive the vendor shapes', () => {
  it.each(Object.entries(answers))('from %s', (_name, answer) => {
    const res = withUsage(answer());
    for (const encoding of ['float', 'base64'] as const) {
      expect(openai.problems('CreateEmbeddingResponse', openaiEmbeddings.encodeEmbeddingResponse(res, req(2, encoding), { body: {}, headers: {}, params: {}, query: {} }))).toEqual([]);
    }
    const input = (method: string) => ({ body: {}, headers: {}, params: { model: 'm', method }, query: {} });
    expect(gemini.problems('BatchEmbedContentsResponse', geminiEmbeddingCaller.encodeEmbeddingResponse(res, req(2), input('batchEmbedContents')))).toEqual([]);
    expect(gemini.problems('EmbedContentResponse', geminiEmbeddingCaller.encodeEmbeddingResponse(res, req(2), input('embedContent')))).toEqual([]);
  });

  it('errors in each caller shape', () => {
    for (const kind of ['invalid-request', 'unsupported', 'rate-limit', 'upstream'] as const) {
      const err = new ProxyError(kind, `a ${kind} problem`);
      expect(openai.problems('ErrorResponse', openaiEmbeddings.encodeError(err).body)).toEqual([]);
      expect(gemini.problems('ErrorResponse', geminiEmbeddingCaller.encodeError(err).body)).toEqual([]);
    }
  });

  it('every allowance is used', () => {
    expect(openai.unused().map((a) => a.reason)).toEqual([]);
  });
});

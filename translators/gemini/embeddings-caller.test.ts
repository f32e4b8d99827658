import { describe, expect, it } from 'vitest';
import { ProxyError, type EmbeddingRequest } from '../../src/canonical/index.ts';
import { decodeEmbeddingRequest, encodeEmbeddingResponse, MAX_BATCH } from './embeddings-caller.ts';
import { gemini } from './index.ts';

const input = (method: string, body: unknown, model = 'gemini-embedding-001') => ({ body, headers: {}, params: { model, method }, query: {} });
const content = (...texts: string[]) => ({ parts: texts.map((text) => ({ text })) });
const refusal = (method: string, body: unknown) => {
  try {
    decodeEmbeddingRequest(input(method, body));
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    return e as ProxyError;
  }
  throw new Error('expected a 400');
};

describe('Gemini embeddings caller: decoding', () => {
  it('embedContent: one text, task type, title, size', () => {
    const d = decodeEmbeddingRequest(input('embedContent', { content: content('hi'), taskType: 'RETRIEVAL_DOCUMENT', title: 'T', outputDimensionality: 8 }));
    expect(d.value).toEqual({ model: 'gemini-embedding-001', inputs: [{ type: 'text', text: 'hi', task: 'document', title: 'T' }], encoding: 'float', dimensions: 8 });
  });

  it('batchEmbedContents as @google/genai sends it (the model in every request), tasks per request', () => {
    const d = decodeEmbeddingRequest(
      input('batchEmbedContents', {
        requests: [
          { model: 'models/gemini-embedding-001', content: content('a'), taskType: 'RETRIEVAL_QUERY' },
          { model: 'models/gemini-embedding-001', content: content('b'), taskType: 'TASK_TYPE_UNSPECIFIED' },
        ],
      }),
    );
    expect(d.value.inputs).toEqual([{ type: 'text', text: 'a', task: 'query' }, { type: 'text', text: 'b' }]);
  });

  it('several text parts are embedded as one text, joined, and reported', () => {
    const d = decodeEmbeddingRequest(input('embedContent', { content: content('a', 'b') }));
    expect(d.value.inputs).toEqual([{ type: 'text', text: 'a\nb' }]);
    expect(d.warnings).toEqual([{ code: 'approximated', path: 'EmbedContentRequest.content.parts', detail: 'joined' }]);
  });

  it.each<[string, unknown, string]>([
    ['embedContent', {}, 'no content'],
    ['embedContent', { content: { parts: [] } }, 'no parts'],
    ['embedContent', { content: content('') }, 'empty text'],
    ['embedContent', { content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }, 'not text'],
    ['embedContent', { content: content('a'), taskType: 'SOMETHING' }, 'unknown task'],
    ['embedContent', { content: content('a'), outputDimensionality: -1 }, 'bad size'],
    ['embedContent', { content: content('a'), title: 5 }, 'bad title'],
    ['batchEmbedContents', { requests: [] }, 'empty batch'],
    ['batchEmbedContents', {}, 'no requests'],
    ['batchEmbedContents', { requests: [{ model: 'models/other', content: content('a') }] }, 'another model'],
    ['batchEmbedContents', { requests: [{ content: content('a'), outputDimensionality: 4 }, { content: content('b') }] }, 'sizes differ'],
    ['batchEmbedContents', { requests: Array(MAX_BATCH + 1).fill({ content: content('a') }) }, 'over 100'],
    ['batchEmbedContents', [1], 'not an object'],
  ])('%s %j (%s) is a 400', (method, body) => {
    expect(refusal(method, body).status).toBe(400);
  });

  it(`${MAX_BATCH} requests are fine`, () => {
    expect(decodeEmbeddingRequest(input('batchEmbedContents', { requests: Array(MAX_BATCH).fill({ content: content('a') }) })).value.inputs).toHaveLength(MAX_BATCH);
  });
});

describe('Gemini embeddings caller: encoding', () => {
  const req: EmbeddingRequest = { model: 'm', inputs: [{ type: 'text', text: 'a' }], encoding: 'float' };
  it('embedContent answers {embedding}, batchEmbedContents {embeddings[]}; base64 decoded to values', () => {
    const res = { vectors: [{ type: 'base64' as const, base64: 'AACAPw==' }] };
    expect(encodeEmbeddingResponse(res, req, input('embedContent', {}))).toEqual({ embedding: { values: [1] } });
    expect(encodeEmbeddingResponse({ vectors: [{ type: 'floats', values: [1] }, { type: 'floats', values: [2] }] }, req, input('batchEmbedContents', {}))).toEqual({ embeddings: [{ values: [1] }, { values: [2] }] });
  });
});

describe('Gemini model list', () => {
  it('embedding models list embedContent and batchEmbedContents, the others generateContent', () => {
    const list = gemini.encodeModelList!([
      { id: 'gemini-embedding-001', ownedBy: 'g', created: 0 },
      { id: 'gemini-2.5-flash', ownedBy: 'g', created: 0 },
    ]) as { models: Array<{ supportedGenerationMethods: string[] }> };
    expect(list.models.map((m) => m.supportedGenerationMethods)).toEqual([
      ['embedContent', 'batchEmbedContents'],
      ['generateContent', 'streamGenerateContent', 'countTokens'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest } from '../../src/canonical/index.ts';
import { decodeEmbeddingRequest, encodeEmbeddingResponse, MAX_BATCH } from './embeddings-caller.ts';
import { gemini } from './index.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const input = (method: string, body: unknown, model = 'gemini-embedding-001') => ({ body, headers: {}, params: { model, method }, query: {} });
const content = (...texts: string[]) => ({ parts: texts.map((text) => ({ text })) });
const refusal = (method: string, body: unknown) => proxyErrorOf(() => decodeEmbeddingRequest(input(method, body)));

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

  const E = 'EmbedContentRequest';
  const B = 'BatchEmbedContentsRequest.requests';
  it.each<[string, string, unknown, string, string]>([
    ['no content', 'embedContent', {}, `* ${E}.content.parts: contents.parts must not be empty.`, `${E}.content.parts`],
    ['a content that is no object', 'embedContent', { content: 'hi' }, `* ${E}.content.parts: contents.parts must not be empty.`, `${E}.content.parts`],
    ['null content', 'embedContent', { content: null }, `* ${E}.content.parts: contents.parts must not be empty.`, `${E}.content.parts`],
    ['parts that are no list', 'embedContent', { content: { parts: { text: 'a' } } }, `* ${E}.content.parts: contents.parts must not be empty.`, `${E}.content.parts`],
    ['no parts', 'embedContent', { content: { parts: [] } }, `* ${E}.content.parts: contents.parts must not be empty.`, `${E}.content.parts`],
    ['an empty text', 'embedContent', { content: content('') }, `* ${E}.content.parts: the text to embed must not be empty.`, `${E}.content.parts`],
    ['an unknown task', 'embedContent', { content: content('a'), taskType: 'SOMETHING' }, `* ${E}.task_type: invalid value "SOMETHING".`, `${E}.taskType`],
    ['a task that is no string', 'embedContent', { content: content('a'), taskType: 5 }, `* ${E}.task_type: invalid value 5.`, `${E}.taskType`],
    ['a task named like an object property', 'embedContent', { content: content('a'), taskType: 'constructor' }, `* ${E}.task_type: invalid value "constructor".`, `${E}.taskType`],
    ['a task in a list', 'embedContent', { content: content('a'), taskType: ['RETRIEVAL_QUERY'] }, `* ${E}.task_type: invalid value ["RETRIEVAL_QUERY"].`, `${E}.taskType`],
    ['a negative size', 'embedContent', { content: content('a'), outputDimensionality: -1 }, `* ${E}.output_dimensionality: must be a positive integer.`, `${E}.outputDimensionality`],
    ['a zero size', 'embedContent', { content: content('a'), outputDimensionality: 0 }, `* ${E}.output_dimensionality: must be a positive integer.`, `${E}.outputDimensionality`],
    ['a fractional size', 'embedContent', { content: content('a'), outputDimensionality: 1.5 }, `* ${E}.output_dimensionality: must be a positive integer.`, `${E}.outputDimensionality`],
    ['a size as a string', 'embedContent', { content: content('a'), outputDimensionality: '8' }, `* ${E}.output_dimensionality: must be a positive integer.`, `${E}.outputDimensionality`],
    ['a title that is no string', 'embedContent', { content: content('a'), title: 5 }, `* ${E}.title: must be a string.`, `${E}.title`],
    ['another model', 'embedContent', { model: 'models/other', content: content('a') }, `* ${E}.model: the model of every request must be models/gemini-embedding-001, the model of the URL.`, `${E}.model`],
    ['an empty batch', 'batchEmbedContents', { requests: [] }, '* BatchEmbedContentsRequest.requests: must not be empty.', 'requests'],
    ['no requests', 'batchEmbedContents', {}, '* BatchEmbedContentsRequest.requests: must not be empty.', 'requests'],
    ['requests that are no list', 'batchEmbedContents', { requests: { content: content('a') } }, '* BatchEmbedContentsRequest.requests: must not be empty.', 'requests'],
    ['a request of another model', 'batchEmbedContents', { requests: [{ content: content('a') }, { model: 'models/other', content: content('a') }] }, `* ${B}[1].model: the model of every request must be models/gemini-embedding-001, the model of the URL.`, `${B}[1].model`],
    ['a model that is no string', 'batchEmbedContents', { requests: [{ model: 7, content: content('a') }] }, `* ${B}[0].model: the model of every request must be models/gemini-embedding-001, the model of the URL.`, `${B}[0].model`],
    ['a request that is null', 'batchEmbedContents', { requests: [{ content: content('a') }, null] }, `* ${B}[1]: must be an object.`, `${B}[1]`],
    ['a request that is a list', 'batchEmbedContents', { requests: [[{ content: content('a') }]] }, `* ${B}[0]: must be an object.`, `${B}[0]`],
    ['a request that is a string', 'batchEmbedContents', { requests: ['a'] }, `* ${B}[0]: must be an object.`, `${B}[0]`],
    ['an empty text in a batch', 'batchEmbedContents', { requests: [{ content: content('a') }, { content: content('') }] }, `* ${B}[1].content.parts: the text to embed must not be empty.`, `${B}[1].content.parts`],
    ['sizes that differ', 'batchEmbedContents', { requests: [{ content: content('a'), outputDimensionality: 4 }, { content: content('b') }] }, '* BatchEmbedContentsRequest.requests: every request must ask the same outputDimensionality through this proxy.', 'requests'],
    ['over 100 requests', 'batchEmbedContents', { requests: Array(MAX_BATCH + 1).fill({ content: content('a') }) }, '* BatchEmbedContentsRequest.requests: at most 100 requests are allowed per batch.', 'requests'],
    ['a body that is a list', 'batchEmbedContents', [1], 'The request body must be a JSON object.', 'body'],
    ['a body that is null', 'embedContent', null, 'The request body must be a JSON object.', 'body'],
    ['a body that is a string', 'embedContent', 'hi', 'The request body must be a JSON object.', 'body'],
  ])('%s is a 400 that names the field', (_why, method, body, message, param) => {
    const e = refusal(method, body);
    expect({ kind: e.kind, status: e.status, message: e.message, param: e.param, code: e.code }).toEqual({ kind: 'invalid-request', status: 400, message, param, code: 'INVALID_ARGUMENT' });
  });

  it('a part that is not text is unsupported, named by its index', () => {
    for (const part of [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }, null, { text: 5 }]) {
      const e = refusal('embedContent', { content: { parts: [{ text: 'a' }, part] } });
      expect({ kind: e.kind, status: e.status, message: e.message, param: e.param, code: e.code }).toEqual({
        kind: 'unsupported',
        status: 400,
        message: `* ${E}.content.parts[1]: only text parts can be embedded through this proxy.`,
        param: `${E}.content.parts[1]`,
        code: 'INVALID_ARGUMENT',
      });
    }
  });

  it('no model, or `models/` alone, is a 400 on the model', () => {
    for (const model of [undefined, '', 'models/']) {
      const params: Record<string, string> = { method: 'embedContent', ...(model !== undefined && { model }) };
      const e = proxyErrorOf(() => decodeEmbeddingRequest({ body: { content: content('a') }, headers: {}, params, query: {} }));
      expect({ kind: e.kind, message: e.message, param: e.param, code: e.code }).toEqual({ kind: 'invalid-request', message: '* model: required.', param: 'model', code: 'INVALID_ARGUMENT' });
    }
  });

  it('one text part: no warning; no task, title or size when they are null, unspecified or absent', () => {
    for (const extra of [{}, { taskType: null, title: null, outputDimensionality: null }, { taskType: 'TASK_TYPE_UNSPECIFIED' }]) {
      const d = decodeEmbeddingRequest(input('embedContent', { content: content('hi'), ...extra }));
      expect(d).toStrictEqual({ value: { model: 'gemini-embedding-001', inputs: [{ type: 'text', text: 'hi' }], encoding: 'float' }, warnings: [] });
    }
  });

  it('a request’s model may be named bare or as models/…; a size of 1 is fine; the same size in every request is the size', () => {
    const d = decodeEmbeddingRequest(
      input('batchEmbedContents', {
        requests: [
          { model: 'gemini-embedding-001', content: content('a'), outputDimensionality: 1, taskType: 'CODE_RETRIEVAL_QUERY' },
          { model: 'models/gemini-embedding-001', content: content('b'), outputDimensionality: 1, title: '' },
        ],
      }),
    );
    expect(d).toEqual({
      value: { model: 'gemini-embedding-001', inputs: [{ type: 'text', text: 'a', task: 'code-query' }, { type: 'text', text: 'b', title: '' }], encoding: 'float', dimensions: 1 },
      warnings: [],
    });
  });

  it('the URL’s model may carry its models/ prefix; another method than batchEmbedContents is one content', () => {
    const d = decodeEmbeddingRequest(input('embedContent', { content: content('a', 'b', 'c'), requests: [{ content: content('x') }] }, 'models/gemini-embedding-001'));
    expect(d.value).toEqual({ model: 'gemini-embedding-001', inputs: [{ type: 'text', text: 'a\nb\nc' }], encoding: 'float' });
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
    expect(encodeEmbeddingResponse({ vectors: [{ type: 'floats', values: [1] }, { type: 'floats', values: [2] }] }, req, input('embedContent', {}))).toEqual({ embedding: { values: [1] } });
  });

  it('base64 that is not float32 bytes is the upstream’s fault', () => {
    expect(() => encodeEmbeddingResponse({ vectors: [{ type: 'base64', base64: 'AAA=' }] }, req, input('embedContent', {}))).toThrow(
      expect.objectContaining({ kind: 'upstream', message: 'Upstream returned an embedding in base64 that is not float32 bytes.' }),
    );
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

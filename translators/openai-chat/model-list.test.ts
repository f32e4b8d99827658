/** An OpenAI-compatible upstream's own model list: the request, and the ids it lists. */
import { describe, expect, it } from 'vitest';
import { decodeModelList, encodeModelListRequest } from './model-list.ts';

describe('openai-chat model list', () => {
  it('GET /models with the bearer key and no content type', () => {
    expect(encodeModelListRequest({ name: 'o', model: 'gpt-4o', apiKey: 'sk-k', options: { headers: { 'openai-organization': 'org-1' } } })).toEqual({
      method: 'GET',
      path: '/models',
      headers: { 'openai-organization': 'org-1', authorization: 'Bearer sk-k' },
      stream: false,
    });
  });

  it('the ids of data[], skipping entries without one', () => {
    expect(decodeModelList({ object: 'list', data: [{ id: 'gpt-4o', object: 'model' }, { id: 5 }, null, { object: 'model' }, { id: 'o3' }] })).toEqual(['gpt-4o', 'o3']);
    for (const bad of [null, {}, { data: 'x' }]) expect(decodeModelList(bad)).toEqual([]);
  });
});

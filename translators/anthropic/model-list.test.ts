import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../types.ts';
import { decodeModelList, encodeModelList, encodeModelListRequest } from './model-list.ts';

const target = (over: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  name: 'claude',
  model: 'claude-sonnet-4-5',
  apiKey: 'sk-ant-test',
  options: {},
  ...over,
});

describe('anthropic model list', () => {
  it('asks GET /v1/models for up to 1000 models with the credentials and version, no content-type', () => {
    const req = encodeModelListRequest(target({ options: { anthropicVersion: '2024-01-01', anthropicBeta: ['b1'], headers: { 'x-extra': 'e' } } }));
    expect(req).toEqual({
      method: 'GET',
      path: '/v1/models?limit=1000',
      headers: { 'x-extra': 'e', 'anthropic-version': '2024-01-01', 'x-api-key': 'sk-ant-test', 'anthropic-beta': 'b1' },
      stream: false,
    });
    expect(req.headers).not.toHaveProperty('content-type');
    expect(encodeModelListRequest(target({ apiKey: undefined })).headers).toEqual({ 'anthropic-version': '2023-06-01' });
  });

  it('reads data[].id, skipping entries without a string id', () => {
    expect(decodeModelList({ data: [{ id: 'claude-a', type: 'model' }, { id: 'claude-b' }], has_more: false })).toEqual(['claude-a', 'claude-b']);
    expect(decodeModelList({ data: [{ id: 7 }, null, 'x', {}, { id: 'ok' }] })).toEqual(['ok']);
  });

  it.each([null, undefined, 'x', 5, {}, { data: 'nope' }, { data: { id: 'a' } }])('a body without a data list (%j) gives no models', (body) => {
    expect(decodeModelList(body)).toEqual([]);
  });

  it('a model’s context window and output limit, when its route states them; a fractional time to the second', () => {
    const [m] = (encodeModelList([{ id: 'c', ownedBy: 'x', created: 1.5, contextWindow: 200_000, maxOutputTokens: 64_000 }]) as { data: Array<Record<string, unknown>> }).data;
    expect(m).toMatchObject({ max_input_tokens: 200_000, max_tokens: 64_000, created_at: '1970-01-01T00:00:01Z' });
  });
});

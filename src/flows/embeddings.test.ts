import { describe, expect, it } from 'vitest';
import type { EmbeddingInput, EmbeddingRequest } from '../canonical/index.ts';
import { parseConfig } from '../config/load.ts';
import { boundedAll, embeddingWireOf, mergeAnswers, splitInputs } from './embeddings.ts';

const config = parseConfig({
  open: true,
  upstreams: {
    openai: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'k' },
    responses: { dialect: 'openai-responses', baseUrl: 'https://api.openai.com/v1', apiKey: 'k' },
    gemini: { dialect: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'k' },
    anthropic: { dialect: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'k' },
    vertex: { dialect: 'gemini', provider: 'vertex', project: 'p', location: 'us-central1', accessToken: 't' },
    bedrock: { dialect: 'anthropic', provider: 'bedrock', region: 'us-east-1', apiKey: 'k' },
  },
  models: { '*': { upstream: 'openai' } },
});
const at = (upstream: string, model: string) => ({ upstream: config.upstreams[upstream]!, model });

describe('the embeddings wire form of a target', () => {
  it.each([
    ['openai', 'text-embedding-3-small', 'openai'],
    ['responses', 'text-embedding-3-small', 'openai'],
    ['gemini', 'gemini-embedding-001', 'gemini'],
    ['vertex', 'text-embedding-005', 'vertex'],
    ['bedrock', 'amazon.titan-embed-text-v2:0', 'titan'],
    ['bedrock', 'cohere.embed-english-v3', 'cohere'],
    ['bedrock', 'us.cohere.embed-v4:0', 'cohere'],
    ['bedrock', 'anthropic.claude-sonnet-4-5-20250929-v1:0', undefined],
    ['anthropic', 'claude-sonnet-4-5', undefined],
  ])('%s %s → %s', (upstream, model, wire) => {
    expect(embeddingWireOf(at(upstream, model))).toBe(wire);
  });
});

describe('splitting inputs into calls', () => {
  it('at most `size` a call, a new call where the task changes, order kept', () => {
    const inputs: EmbeddingInput[] = [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }, { type: 'text', text: 'c' }, { type: 'text', text: 'd', task: 'query' }, { type: 'text', text: 'e', task: 'query' }];
    expect(splitInputs(inputs, 2).map((p) => p.map((i) => (i.type === 'text' ? i.text : '')).join(''))).toEqual(['ab', 'c', 'de']);
    expect(splitInputs(inputs, 1)).toHaveLength(5);
    expect(splitInputs(inputs, 100)).toHaveLength(2);
  });
});

describe('bounded fan-out', () => {
  it('never more than the limit at once, results in order', async () => {
    let running = 0;
    let most = 0;
    const out = await boundedAll([5, 4, 3, 2, 1, 0], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 40, 30, 20, 10, 0]);
    expect(most).toBe(2);
  });

  it('the first failure is thrown; no new piece starts after it', async () => {
    const started: number[] = [];
    const err = await boundedAll([0, 1, 2, 3], 1, async (n) => {
      started.push(n);
      if (n === 1) throw new Error(`piece ${n}`);
      return n;
    }).catch((e: Error) => e.message);
    expect(err).toBe('piece 1');
    expect(started).toEqual([0, 1]);
  });
});

describe('merging the answers', () => {
  const req: EmbeddingRequest = { model: 'm', inputs: [{ type: 'text', text: 'abcd' }, { type: 'text', text: 'efgh' }, { type: 'text', text: 'ij' }], encoding: 'float' };
  it('vectors in piece order, usage summed when every piece reported', () => {
    const merged = mergeAnswers([{ vectors: [{ type: 'floats', values: [1] }, { type: 'floats', values: [2] }], usage: { inputTokens: 2, totalTokens: 2 }, model: 'x' }, { vectors: [{ type: 'floats', values: [3] }], usage: { inputTokens: 1, totalTokens: 1 } }], req);
    expect(merged).toEqual({ model: 'x', vectors: [{ type: 'floats', values: [1] }, { type: 'floats', values: [2] }, { type: 'floats', values: [3] }], usage: { inputTokens: 3, totalTokens: 3 } });
  });

  it('a piece without usage: the whole estimated, and flagged', () => {
    const merged = mergeAnswers([{ vectors: [{ type: 'floats', values: [1] }, { type: 'floats', values: [2] }], usage: { inputTokens: 9, totalTokens: 9 } }, { vectors: [{ type: 'floats', values: [3] }] }], req);
    expect(merged.usage).toEqual({ inputTokens: 3, totalTokens: 3, estimated: true });
  });
});

/**
 * The model list a Responses caller gets: OpenAI's entries with only the limits a route states,
 * and a forced effort described as Codex's only level.
 */
import { describe, expect, it } from 'vitest';
import { encodeModelList } from './model-list.ts';

type Data = Record<string, any>;

describe('Responses model list', () => {
  it('a route without limits: an OpenAI entry with no limit fields at all, a Codex entry without a context window', () => {
    const list = encodeModelList([{ id: 'plain', ownedBy: 'openai', created: 7 }]) as Data;
    expect(list['data'][0]).toStrictEqual({ id: 'plain', object: 'model', created: 7, owned_by: 'openai' });
    expect(Object.keys(list['models'][0])).not.toContain('context_window');
  });

  it('a route with only an output limit states only that', () => {
    const list = encodeModelList([{ id: 'out', ownedBy: 'openai', created: 0, maxOutputTokens: 64 }, { id: 'ctx', ownedBy: 'openai', created: 0, contextWindow: 1000 }]) as Data;
    expect(list['data']).toStrictEqual([
      { id: 'out', object: 'model', created: 0, owned_by: 'openai', max_output_tokens: 64 },
      { id: 'ctx', object: 'model', created: 0, owned_by: 'openai', context_window: 1000 },
    ]);
  });

  it('a forced effort is the only level, described as the one the route always uses', () => {
    const list = encodeModelList([{ id: 'deep', ownedBy: 'openai', created: 0, reasoning: { effort: 'low' } }]) as Data;
    expect(list['models'][0]['supported_reasoning_levels']).toStrictEqual([{ effort: 'low', description: 'The effort this route always uses' }]);
  });
});

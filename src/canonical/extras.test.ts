import { describe, expect, it } from 'vitest';
import { extrasFor, toolExtrasFor } from './extras.ts';

describe('toolExtrasFor', () => {
  const tool = { extras: { dialect: 'anthropic' as const, fields: { defer_loading: true, input_examples: undefined } } };

  it('replays a tool’s own fields to its dialect, silently', () => {
    expect(toolExtrasFor(tool, 3, 'anthropic')).toEqual({ fields: tool.extras.fields, warnings: [] });
  });

  it('reports each defined field as dropped for another dialect', () => {
    expect(toolExtrasFor(tool, 3, 'gemini')).toEqual({ fields: {}, warnings: [{ code: 'dropped', path: 'tools.3.defer_loading' }] });
    expect(toolExtrasFor({}, 0, 'openai-chat')).toEqual({ fields: {}, warnings: [] });
  });
});

describe('extrasFor', () => {
  const req = { extras: { dialect: 'openai-chat' as const, fields: { background: true }, hints: { prompt_cache_key: 'k', store: false } } };

  it('replays fields and hints together to their dialect', () => {
    expect(extrasFor(req, 'openai-chat')).toEqual({ fields: { prompt_cache_key: 'k', store: false, background: true }, warnings: [] });
  });

  it('reports hints as dropped but not lossy elsewhere', () => {
    expect(extrasFor(req, 'anthropic').warnings).toEqual([
      { code: 'dropped', path: 'background', lossy: true },
      { code: 'dropped', path: 'prompt_cache_key' },
      { code: 'dropped', path: 'store' },
    ]);
  });
});

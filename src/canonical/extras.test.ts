import { describe, expect, it } from 'vitest';
import { toolExtrasFor } from './extras.ts';

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

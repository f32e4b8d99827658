/**
 * Canonical settings in Responses wire form (for an upstream request and for a Response's echo):
 * tools, tool choice, formats, reasoning.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Warning } from '../../src/canonical/index.ts';
import { encodeReasoning, encodeToolChoice, encodeTools, reasoningOn } from './encode-settings.ts';

const req = (over: Partial<ChatRequest>): ChatRequest => ({ model: 'm', system: [], messages: [], stream: false, ...over });

describe('encodeTools', () => {
  it('descriptions on both kinds, a freeform tool without a format, another dialect’s tool fields reported dropped', () => {
    const warnings: Warning[] = [];
    const tools = encodeTools(
      req({
        tools: [
          { name: 'f', description: 'Does f', parameters: { type: 'object' }, strict: true, extras: { dialect: 'anthropic', fields: { cache_control: { type: 'ephemeral' } } } },
          { name: 'p', description: 'Patch', custom: {} },
        ],
      }),
      warnings,
    );
    expect(tools).toEqual([
      { type: 'function', name: 'f', description: 'Does f', parameters: { type: 'object' }, strict: true },
      { type: 'custom', name: 'p', description: 'Patch' },
    ]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'tools.0.cache_control' }]);
  });

  it('built-ins: this dialect’s sent as they are, others reported at their place or by label', () => {
    const warnings: Warning[] = [];
    const tools = encodeTools(
      req({
        nativeTools: [
          { dialect: 'gemini', definition: { googleSearch: {} }, path: 'tools[3]' },
          { dialect: 'openai-responses', definition: { type: 'file_search', vector_store_ids: ['vs'] } },
          { dialect: 'anthropic', definition: { type: 'web_search_20250305' } },
        ],
      }),
      warnings,
    );
    expect(tools).toEqual([{ type: 'file_search', vector_store_ids: ['vs'] }]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'tools[3]', detail: 'googleSearch', lossy: true },
      { code: 'dropped', path: 'nativeTools[2]', detail: 'web_search_20250305', lossy: true },
    ]);
    expect(encodeTools(req({}), warnings)).toEqual([]);
  });
});

describe('encodeToolChoice', () => {
  it('by kind of the named tool; an unknown name is a function', () => {
    const tools = [{ name: 'f' }, { name: 'p', custom: {} }];
    expect(encodeToolChoice({ type: 'required' }, tools)).toBe('required');
    expect(encodeToolChoice({ type: 'tool', name: 'f' }, tools)).toEqual({ type: 'function', name: 'f' });
    expect(encodeToolChoice({ type: 'tool', name: 'zz' }, [])).toEqual({ type: 'function', name: 'zz' });
    expect(encodeToolChoice({ type: 'allowed', mode: 'auto', names: ['p', 'f'] }, tools)).toEqual({ type: 'allowed_tools', mode: 'auto', tools: [{ type: 'custom', name: 'p' }, { type: 'function', name: 'f' }] });
  });
});

describe('encodeReasoning', () => {
  it.each([
    [{ enabled: false, effort: 'high', includeThoughts: true }, { effort: 'none' }, []],
    [{ effort: 'minimal', budgetTokens: 99999 }, { effort: 'minimal' }, []],
    [{ includeThoughts: true }, { summary: 'auto' }, []],
    [{ budgetTokens: -1 }, undefined, []],
    [{ budgetTokens: 0, includeThoughts: true }, { effort: 'none' }, [{ code: 'approximated', path: 'reasoning.budgetTokens', detail: 'effort=none' }]],
    [{ budgetTokens: 1 }, { effort: 'low' }, [{ code: 'approximated', path: 'reasoning.budgetTokens', detail: 'effort=low' }]],
    [{}, undefined, []],
    [{ includeThoughts: false, effort: 'low' }, { effort: 'low' }, []],
  ] as const)('%j → %j', (config, expected, warned) => {
    const warnings: Warning[] = [];
    expect(encodeReasoning(config as never, warnings)).toEqual(expected);
    expect(warnings).toEqual(warned);
  });

  it('reasoning is on unless absent, disabled, or a zero budget', () => {
    expect([undefined, { enabled: false }, { budgetTokens: 0 }, {}, { effort: 'low' }, { budgetTokens: 10 }].map((reasoning) => reasoningOn(req({ reasoning } as never)))).toEqual([false, false, false, true, true, true]);
  });
});

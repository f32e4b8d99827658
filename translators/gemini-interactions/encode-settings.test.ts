import { describe, expect, it } from 'vitest';
import type { ChatRequest, NativeTool, ResponseFormat, ToolChoice, Warning } from '../../src/canonical/index.ts';
import { encodeGenerationConfig, encodeResponseFormat, encodeToolChoice, encodeTools } from './encode-settings.ts';

const base: ChatRequest = { model: 'm', system: [], messages: [], stream: false };
function run<T>(f: (req: ChatRequest, w: Warning[]) => T, over: Partial<ChatRequest>): { out: T; warnings: Warning[] } {
  const warnings: Warning[] = [];
  return { out: f({ ...base, ...over }, warnings), warnings };
}

describe('encodeTools: hosted tools from generateContent, functions with their own extras', () => {
  it.each<[string, NativeTool, unknown]>([
    ['options snake_cased', { dialect: 'gemini', definition: { googleSearch: { timeRangeFilter: { startTime: 'a' } } } }, { time_range_filter: { startTime: 'a' }, type: 'google_search' }],
    ['options that are not an object are left out', { dialect: 'gemini', definition: { codeExecution: true } }, { type: 'code_execution' }],
    ['a list as options is left out', { dialect: 'gemini', definition: { urlContext: [1] } }, { type: 'url_context' }],
    ['a string as options is left out', { dialect: 'gemini', definition: { urlContext: 'ab' } }, { type: 'url_context' }],
    ['null as options is left out', { dialect: 'gemini', definition: { codeExecution: null } }, { type: 'code_execution' }],
    ['an Interactions tool as it came', { dialect: 'gemini-interactions', definition: { type: 'mcp_server', url: 'https://x' } }, { type: 'mcp_server', url: 'https://x' }],
  ])('%s', (_name, tool, expected) => {
    expect(run(encodeTools, { nativeTools: [tool] })).toStrictEqual({ out: [expected], warnings: [] });
  });

  it.each<[string, NativeTool, Warning]>([
    ['a generateContent tool with no hosted tool here', { dialect: 'gemini', definition: { enterpriseWebSearch: {} }, path: 'tools[3]' }, { code: 'dropped', path: 'tools[3]', detail: 'enterpriseWebSearch', lossy: true }],
    ['two keys in one definition', { dialect: 'gemini', definition: { googleSearch: {}, codeExecution: {} } }, { code: 'dropped', path: 'nativeTools[0]', detail: 'googleSearch', lossy: true }],
    ['another vendor’s tool, even shaped like a Gemini one', { dialect: 'openai-chat', definition: { googleSearch: {} } }, { code: 'dropped', path: 'nativeTools[0]', detail: 'googleSearch', lossy: true }],
  ])('dropped: %s', (_name, tool, warning) => {
    expect(run(encodeTools, { nativeTools: [tool] })).toEqual({ out: [], warnings: [warning] });
  });

  it('another vendor’s web search or page read: Google Search or URL context here, its options it has no place for reported at its path', () => {
    const { out, warnings } = run(encodeTools, { nativeTools: [
      { dialect: 'anthropic', definition: { type: 'web_search_20250305' }, path: 'tools[0]', web: { kind: 'search', maxUses: 3, allowedDomains: ['a.org'] } },
      { dialect: 'openai-responses', definition: { type: 'web_fetch' }, web: { kind: 'fetch' } },
      { dialect: 'anthropic', definition: { type: 'bash' }, path: 'tools[2]' },
    ] });
    expect(out).toEqual([{ type: 'google_search' }, { type: 'url_context' }]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'tools[0].maxUses' },
      { code: 'dropped', path: 'tools[0].allowedDomains', lossy: true },
      { code: 'dropped', path: 'tools[2]', detail: 'bash', lossy: true },
    ]);
    expect(run(encodeTools, { nativeTools: [{ dialect: 'anthropic', definition: {}, web: { kind: 'search', maxUses: 1 } }] }).warnings).toEqual([{ code: 'dropped', path: 'nativeTools[0].maxUses' }]);
  });

  it('a function keeps this dialect’s extras; strict has no place and is reported', () => {
    const { out, warnings } = run(encodeTools, {
      tools: [{ name: 'f', description: 'd', parameters: { type: 'object' }, strict: true, extras: { dialect: 'gemini-interactions', fields: { behavior: 'NON_BLOCKING' } } }, { name: 'g' }],
    });
    expect(out).toEqual([{ behavior: 'NON_BLOCKING', type: 'function', name: 'f', description: 'd', parameters: { type: 'object' } }, { type: 'function', name: 'g' }]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'tools[0].strict' }]);
  });
});

describe('encodeToolChoice and generation_config', () => {
  it.each<[ToolChoice, unknown]>([
    [{ type: 'auto' }, 'auto'],
    [{ type: 'none' }, 'none'],
    [{ type: 'required' }, 'any'],
    [{ type: 'tool', name: 'f' }, { allowed_tools: { mode: 'any', tools: ['f'] } }],
    [{ type: 'allowed', names: ['a', 'b'], mode: 'required' }, { allowed_tools: { mode: 'any', tools: ['a', 'b'] } }],
    [{ type: 'allowed', names: ['a'], mode: 'auto' }, { allowed_tools: { mode: 'validated', tools: ['a'] } }],
    [{ type: 'web', kind: 'search' }, 'auto'],
  ])('%j → %j', (choice, wire) => {
    expect(encodeToolChoice(choice)).toEqual(wire);
  });

  it('an unknown choice or format is a programming error', () => {
    expect(() => encodeToolChoice({ type: 'bogus' } as unknown as ToolChoice)).toThrow('unhandled tool choice');
    expect(() => encodeResponseFormat({ ...base, responseFormat: { type: 'bogus' } as unknown as ResponseFormat })).toThrow('unhandled response format');
  });

  it.each([
    [{ enabled: false, includeThoughts: true }, { thinking_level: 'minimal' }, [{ code: 'approximated', path: 'reasoning.enabled', detail: 'thinking_level=minimal' }]],
    [{ budgetTokens: 0 }, { thinking_level: 'minimal' }, [{ code: 'approximated', path: 'reasoning.budgetTokens', detail: 'thinking_level=minimal' }]],
    [{ budgetTokens: 512 }, { thinking_level: 'minimal' }, [{ code: 'approximated', path: 'reasoning.budgetTokens', detail: 'thinking_level=minimal' }]],
    [{ budgetTokens: 513 }, { thinking_level: 'low' }, [{ code: 'approximated', path: 'reasoning.budgetTokens', detail: 'thinking_level=low' }]],
    [{ budgetTokens: 30000 }, { thinking_level: 'high' }, [{ code: 'approximated', path: 'reasoning.budgetTokens', detail: 'thinking_level=high' }]],
    [{ budgetTokens: -1, includeThoughts: false }, { thinking_summaries: 'none' }, []],
  ])('reasoning %j → %j', (reasoning, gc, warnings) => {
    expect(run(encodeGenerationConfig, { reasoning })).toEqual({ out: gc, warnings });
  });

  it('calls that may not run in parallel cannot be asked for: reported by the canonical name; allowed is fine', () => {
    expect(run(encodeGenerationConfig, { parallelToolCalls: false }).warnings).toEqual([{ code: 'dropped', path: 'parallelToolCalls' }]);
    expect(run(encodeGenerationConfig, { parallelToolCalls: true }).warnings).toEqual([]);
  });

  it('several candidates cannot be asked for: reported; one is fine', () => {
    expect(run(encodeGenerationConfig, { candidateCount: 2 }).warnings).toEqual([{ code: 'dropped', path: 'candidateCount', lossy: true }]);
    expect(run(encodeGenerationConfig, { candidateCount: 1 }).warnings).toEqual([]);
  });
});

describe('encodeResponseFormat', () => {
  it.each<[Partial<ChatRequest>, unknown]>([
    [{ modalities: ['image'] }, [{ type: 'image' }]],
    [{ modalities: ['text', 'audio'] }, [{ type: 'text' }, { type: 'audio' }]],
    [{ modalities: ['image'], responseFormat: { type: 'text' } }, [{ type: 'text' }, { type: 'image' }]],
    [{ modalities: ['image'], responseFormat: { type: 'json' } }, [{ type: 'text', mime_type: 'application/json' }, { type: 'image' }]],
    [{ modalities: ['text'], responseFormat: { type: 'text' } }, undefined],
    [{ responseFormat: { type: 'json-schema', schema: { type: 'object' } } }, { type: 'text', mime_type: 'application/json', schema: { type: 'object' } }],
  ])('%j → %j', (over, wire) => {
    expect(encodeResponseFormat({ ...base, ...over })).toEqual(wire);
  });
});

describe('encode-settings: what is not set is not written', () => {
  it('a function without description or parameters has neither; an empty stop list is none', () => {
    expect(run(encodeTools, { tools: [{ name: 'g' }] }).out).toStrictEqual([{ type: 'function', name: 'g' }]);
    expect(run(encodeGenerationConfig, { stop: [] }).out).toStrictEqual({});
    expect(run(encodeGenerationConfig, { stop: ['END'] }).out).toStrictEqual({ stop_sequences: ['END'] });
  });

  it('JSON mode has no schema field', () => {
    expect(encodeResponseFormat({ ...base, responseFormat: { type: 'json' } })).toStrictEqual({ type: 'text', mime_type: 'application/json' });
  });
});

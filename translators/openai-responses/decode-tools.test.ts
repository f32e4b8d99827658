/**
 * A Responses caller's tools and tool_choice → canonical: function and freeform tools with their
 * own fields kept for this dialect, built-ins as native tools, choices that have no canonical
 * form kept as they are.
 */
import { describe, expect, it } from 'vitest';
import { decodeToolChoice, decodeTools } from './decode-tools.ts';

describe('decodeTools', () => {
  it('function and custom tools (text or grammar format); unknown fields kept as this dialect’s extras', () => {
    expect(
      decodeTools([
        { type: 'function', name: 'f', parameters: { type: 'object' }, strict: true, defer_loading: true, x: undefined },
        { type: 'custom', name: 'p', format: { type: 'text' }, extra_c: 1 },
        { type: 'custom', name: 'g', format: { type: 'grammar', syntax: 'lark', definition: 'start: "a"' } },
      ]),
    ).toEqual({
      tools: [
        { name: 'f', parameters: { type: 'object' }, strict: true, extras: { dialect: 'openai-responses', fields: { defer_loading: true } } },
        { name: 'p', custom: { format: { type: 'text' } }, extras: { dialect: 'openai-responses', fields: { extra_c: 1 } } },
        { name: 'g', custom: { format: { type: 'grammar', syntax: 'lark', definition: 'start: "a"' } } },
      ],
    });
  });

  it('built-ins are native tools with their place; an empty list is an empty tool list', () => {
    expect(decodeTools([{ type: 'web_search' }])).toEqual({ nativeTools: [{ dialect: 'openai-responses', definition: { type: 'web_search' }, path: 'tools[0]', web: { kind: 'search' } }] });
    expect(decodeTools([{ type: 'function', name: 'f' }, { type: 'web_search' }])).toEqual({
      tools: [{ name: 'f' }],
      nativeTools: [{ dialect: 'openai-responses', definition: { type: 'web_search' }, path: 'tools[1]', web: { kind: 'search' } }],
    });
    expect(decodeTools([])).toEqual({ tools: [] });
    expect(decodeTools(null)).toEqual({});
  });
});

describe('decodeToolChoice', () => {
  it('a named tool needs tools; allowed_tools of functions and custom tools is an allow-list', () => {
    expect(() => decodeToolChoice({ type: 'function', name: 'f' }, false)).toThrow("Invalid value for 'tool_choice': no tool named 'f' was given in 'tools'.");
    expect(decodeToolChoice({ type: 'function', name: 'f' }, true)).toEqual({ choice: { type: 'tool', name: 'f' } });
    expect(decodeToolChoice({ type: 'allowed_tools', mode: 'auto', tools: [{ type: 'custom', name: 'p' }, { type: 'function', name: 'f' }] }, true)).toEqual({
      choice: { type: 'allowed', mode: 'auto', names: ['p', 'f'] },
    });
    expect(decodeToolChoice('required', true)).toEqual({ choice: { type: 'required' } });
    expect(decodeToolChoice(null, true)).toEqual({});
  });

  it.each([
    { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'f' }, { type: 'web_search' }] },
    { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function' }] },
    { type: 'mcp', server_label: 'x', name: 'tool' },
    { type: 'function' },
    { type: 'custom', name: 5 },
    { type: 'allowed_tools', mode: 'auto', tools: 'f' },
    { type: 'allowed_tools', mode: 'auto' },
    { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'web_search', name: 'w' }] },
  ])('no canonical form, kept as it is: %j', (raw) => {
    expect(decodeToolChoice(raw, true)).toEqual({ native: raw });
  });
});

describe('decodeTools: descriptions and null fields', () => {
  it('a description is kept on both kinds; null fields are as good as absent', () => {
    expect(
      decodeTools([
        { type: 'function', name: 'f', description: 'Does f', parameters: null, strict: null },
        { type: 'custom', name: 'p', description: 'Patch', format: null },
        { type: 'function', name: 'g', description: null, strict: false },
      ]),
    ).toEqual({
      tools: [{ name: 'f', description: 'Does f' }, { name: 'p', description: 'Patch', custom: {} }, { name: 'g', strict: false }],
    });
    expect(decodeToolChoice({ type: 'custom', name: 'p' }, true)).toEqual({ choice: { type: 'tool', name: 'p' } });
    expect(() => decodeToolChoice({ type: 'custom', name: 'p' }, false)).toThrow(expect.objectContaining({ kind: 'invalid-request', param: 'tool_choice' }));
    expect(() => decodeToolChoice('sometimes', true)).toThrow(expect.objectContaining({ kind: 'invalid-request', param: 'tool_choice' }));
  });
});

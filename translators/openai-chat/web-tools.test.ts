import { describe, expect, it } from 'vitest';
import type { ChatRequest, Warning, WebTool } from '../../src/canonical/index.ts';
import { encodeRequest } from './encode-request.ts';
import { chatWebForm, decodeWebSearchOptions, encodeOpenRouterTool, encodeWebSearchOptions, searchesTheWeb } from './web-tools.ts';

const openrouter = { model: 'anthropic/claude-sonnet-4.5', options: { webTools: 'openrouter' as const } };
const plain = { model: 'gpt-4o-mini', options: {} };
const searchModel = { model: 'gpt-4o-search-preview', options: {} };

describe('Chat Completions hosted web tools: one decision per upstream', () => {
  it('OpenRouter runs search and fetch for any model; a search model only searches; other models neither', () => {
    expect([chatWebForm(openrouter, 'search'), chatWebForm(openrouter, 'fetch')]).toEqual(['openrouter', 'openrouter']);
    expect([chatWebForm(searchModel, 'search'), chatWebForm(searchModel, 'fetch')]).toEqual(['web_search_options', undefined]);
    expect([chatWebForm(plain, 'search'), chatWebForm(plain, 'fetch')]).toEqual([undefined, undefined]);
  });

  it('a search as openrouter:web_search with what it carries; the block-list when there is no allow-list; the use limit reported', () => {
    const warnings: Warning[] = [];
    const web: WebTool = { kind: 'search', maxUses: 3, blockedDomains: ['spam.com'], contextSize: 'high' };
    expect(encodeOpenRouterTool(web, 'tools[0]', warnings)).toEqual({ type: 'openrouter:web_search', parameters: { excluded_domains: ['spam.com'], search_context_size: 'high' } });
    expect(warnings).toEqual([{ code: 'dropped', path: 'tools[0].maxUses' }]);
    const both: Warning[] = [];
    expect(encodeOpenRouterTool({ kind: 'search', allowedDomains: ['a.org'], blockedDomains: ['b.org'] }, 'tools[0]', both)).toEqual({ type: 'openrouter:web_search', parameters: { allowed_domains: ['a.org'] } });
    expect(both).toEqual([{ code: 'dropped', path: 'tools[0].blockedDomains', lossy: true }]);
  });

  it('encodeRequest: the server tool beside the function tools, no web_search_options; toward a plain model, dropped and lossy', () => {
    const req: ChatRequest = {
      model: 'm',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }],
      stream: false,
      tools: [{ name: 'f', parameters: { type: 'object' } }],
      nativeTools: [{ dialect: 'anthropic', definition: { type: 'web_search_20250305' }, path: 'tools[1]', web: { kind: 'search' } }],
    };
    const body = JSON.parse(encodeRequest(req, { name: 'or', ...openrouter }).value.body as string);
    expect(body.tools.map((t: { type: string }) => t.type)).toEqual(['function', 'openrouter:web_search']);
    expect(body.web_search_options).toBeUndefined();
    const elsewhere = encodeRequest(req, { name: 'o', ...plain });
    expect(JSON.parse(elsewhere.value.body as string).tools).toHaveLength(1);
    expect(elsewhere.warnings).toContainEqual({ code: 'dropped', path: 'tools[1]', detail: expect.any(String), lossy: true });
  });
});

describe('web_search_options decoded: only an object, only the known sizes, only a location with strings', () => {
  it('no options for null, a string or a list', () => {
    expect([decodeWebSearchOptions(null), decodeWebSearchOptions(undefined), decodeWebSearchOptions('high'), decodeWebSearchOptions([{}])]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('an empty object is a plain search; a null or string user_location and an unknown size set nothing', () => {
    for (const raw of [{}, { user_location: null }, { user_location: 'Paris' }, { search_context_size: 'huge' }, { user_location: { approximate: { city: 7 } } }]) {
      expect(decodeWebSearchOptions(raw)).toStrictEqual({ dialect: 'openai-chat', definition: { web_search_options: raw }, path: 'web_search_options', web: { kind: 'search' } });
    }
  });

  it('each known context size and the approximate location are kept', () => {
    for (const size of ['low', 'medium', 'high'] as const) expect(decodeWebSearchOptions({ search_context_size: size })?.web).toStrictEqual({ kind: 'search', contextSize: size });
    const raw = { user_location: { type: 'approximate', approximate: { city: 'Paris', country: 'FR' } } };
    expect(decodeWebSearchOptions(raw)?.web).toStrictEqual({ kind: 'search', userLocation: { city: 'Paris', country: 'FR' } });
  });
});

describe('which models take web_search_options: the word search between separators', () => {
  it('search at the start, after a dash or a slash, at the end or before a separator', () => {
    expect(['search', 'search-preview', 'gpt-4o-search-preview', 'openai/search', 'gpt-5-search', 'x-search_1', 'x-search.2'].map(searchesTheWeb)).toEqual([true, true, true, true, true, true, true]);
    expect(['research', 'gpt-researcher', 'gpt-4o-searchable', 'gpt-4o-mini', 'x_search'].map(searchesTheWeb)).toEqual([false, false, false, false, false]);
  });
});

describe('another dialect\'s web tool encoded for Chat Completions', () => {
  it('a fetch as openrouter:web_fetch, what it sets reported dropped', () => {
    const warnings: Warning[] = [];
    expect(encodeOpenRouterTool({ kind: 'fetch', maxUses: 2, allowedDomains: ['a.org'] }, 'tools[2]', warnings)).toStrictEqual({ type: 'openrouter:web_fetch' });
    expect(warnings).toEqual([
      { code: 'dropped', path: 'tools[2].maxUses' },
      { code: 'dropped', path: 'tools[2].allowedDomains', lossy: true },
    ]);
  });

  it('a bare search has no parameters; a location and a size are carried as OpenRouter parameters', () => {
    const none: Warning[] = [];
    expect(encodeOpenRouterTool({ kind: 'search' }, 'tools[0]', none)).toStrictEqual({ type: 'openrouter:web_search' });
    expect(none).toEqual([]);
    const warnings: Warning[] = [];
    const web: WebTool = { kind: 'search', userLocation: { city: 'Paris', timezone: 'Europe/Paris' } };
    expect(encodeOpenRouterTool(web, 'tools[0]', warnings)).toStrictEqual({
      type: 'openrouter:web_search',
      parameters: { user_location: { type: 'approximate', city: 'Paris', timezone: 'Europe/Paris' } },
    });
    expect(warnings).toEqual([]);
  });

  it('web_search_options: a fetch is not one; a search carries size and location, domains and limits reported', () => {
    const fetchWarnings: Warning[] = [];
    expect(encodeWebSearchOptions({ kind: 'fetch', maxUses: 1 }, 'tools[0]', fetchWarnings)).toBeUndefined();
    expect(fetchWarnings).toEqual([]);
    expect(encodeWebSearchOptions({ kind: 'search' }, 'tools[0]', [])).toStrictEqual({});
    const warnings: Warning[] = [];
    const web: WebTool = { kind: 'search', maxUses: 4, blockedDomains: ['b.org'], contextSize: 'low', userLocation: { country: 'DE' } };
    expect(encodeWebSearchOptions(web, 'tools[1]', warnings)).toStrictEqual({ search_context_size: 'low', user_location: { type: 'approximate', approximate: { country: 'DE' } } });
    expect(warnings).toEqual([
      { code: 'dropped', path: 'tools[1].maxUses' },
      { code: 'dropped', path: 'tools[1].blockedDomains', lossy: true },
    ]);
  });
});

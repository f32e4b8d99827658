import { describe, expect, it } from 'vitest';
import type { Warning, WebTool } from '../../src/canonical/index.ts';
import { decodeWebTool, encodeWebTool } from './web-tools.ts';

describe('decodeWebTool: a Responses hosted web search as the neutral web tool', () => {
  it('web_search, its preview and dated forms are searches; other tool types and a type that is no string are not', () => {
    for (const type of ['web_search', 'web_search_preview', 'web_search_2025_08_26', 'web_search_preview_2025_03_11']) {
      expect(decodeWebTool({ type })).toEqual({ kind: 'search' });
    }
    for (const type of ['function', 'web_search_x', 'file_search', 'web_fetch']) expect(decodeWebTool({ type })).toBeUndefined();
    // A regular expression would read the array as its string, "web_search".
    expect(decodeWebTool({ type: ['web_search'] })).toBeUndefined();
    expect(decodeWebTool({})).toBeUndefined();
  });

  it('allowed domains, the approximate location and the context size carried', () => {
    const raw = {
      type: 'web_search',
      filters: { allowed_domains: ['pubmed.ncbi.nlm.nih.gov', 'www.who.int'] },
      user_location: { type: 'approximate', country: 'GB', city: 'London', region: 'London', timezone: 'Europe/London' },
      search_context_size: 'low',
    };
    expect(decodeWebTool(raw)).toEqual({
      kind: 'search',
      allowedDomains: ['pubmed.ncbi.nlm.nih.gov', 'www.who.int'],
      userLocation: { country: 'GB', city: 'London', region: 'London', timezone: 'Europe/London' },
      contextSize: 'low',
    });
  });

  it('each context size the API knows; anything else, and empty or absent options, left out (no key at all)', () => {
    for (const size of ['low', 'medium', 'high'] as const) expect(decodeWebTool({ type: 'web_search', search_context_size: size })).toEqual({ kind: 'search', contextSize: size });
    for (const search_context_size of ['', 'max', 3, null]) expect(decodeWebTool({ type: 'web_search', search_context_size })).toStrictEqual({ kind: 'search' });
    for (const filters of [null, 'a.org', 1, true]) expect(decodeWebTool({ type: 'web_search', filters, user_location: null })).toStrictEqual({ kind: 'search' });
    expect(decodeWebTool({ type: 'web_search', filters: { allowed_domains: [] }, user_location: { type: 'approximate' } })).toStrictEqual({ kind: 'search' });
  });
});

describe('encodeWebTool: the neutral web tool as Responses web_search', () => {
  it('a search with all it can carry, nothing reported', () => {
    const warnings: Warning[] = [];
    const web: WebTool = { kind: 'search', allowedDomains: ['a.org'], userLocation: { country: 'FR', city: 'Paris' }, contextSize: 'high' };
    expect(encodeWebTool(web, 'tools[1]', warnings)).toStrictEqual({
      type: 'web_search',
      filters: { allowed_domains: ['a.org'] },
      user_location: { type: 'approximate', country: 'FR', city: 'Paris' },
      search_context_size: 'high',
    });
    expect(warnings).toEqual([]);
  });

  it('a bare search is a bare web_search; the use limit and block-list it has no field for are reported', () => {
    const bare: Warning[] = [];
    expect(encodeWebTool({ kind: 'search' }, 'tools[0]', bare)).toStrictEqual({ type: 'web_search' });
    expect(bare).toEqual([]);
    const warnings: Warning[] = [];
    expect(encodeWebTool({ kind: 'search', maxUses: 2, blockedDomains: ['spam.com'] }, 'tools[0]', warnings)).toStrictEqual({ type: 'web_search' });
    expect(warnings).toEqual([
      { code: 'dropped', path: 'tools[0].maxUses' },
      { code: 'dropped', path: 'tools[0].blockedDomains', lossy: true },
    ]);
  });

  it('a fetch has no Responses form', () => {
    const warnings: Warning[] = [];
    expect(encodeWebTool({ kind: 'fetch', allowedDomains: ['a.org'] }, 'tools[0]', warnings)).toBeUndefined();
    expect(warnings).toEqual([]);
  });
});

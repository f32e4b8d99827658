/** Anthropic's hosted web tools ⇄ canonical web tools, and the beta a fetch from another dialect needs. */
import { describe, expect, it } from 'vitest';
import type { Warning, WebTool } from '../../src/canonical/index.ts';
import { decodeWebTool, encodeWebTool, WEB_FETCH_BETA, WEB_FETCH_TYPE, WEB_SEARCH_TYPE, webToolBetas } from './web-tools.ts';

describe('decodeWebTool', () => {
  it('a dated web_search tool with every option', () => {
    const raw = { type: 'web_search_20250305', name: 'web_search', max_uses: 3, allowed_domains: ['a.org', 7], blocked_domains: ['b.org'], user_location: { type: 'approximate', city: 'Paris', country: 'FR', region: 4 } };
    expect(decodeWebTool(raw)).toStrictEqual({ kind: 'search', maxUses: 3, allowedDomains: ['a.org'], blockedDomains: ['b.org'], userLocation: { city: 'Paris', country: 'FR' } });
  });

  it('a dated web_fetch tool; options that are not there, or not of their type, are left out', () => {
    expect(decodeWebTool({ type: 'web_fetch_20250910', name: 'web_fetch', max_uses: '3', allowed_domains: [], blocked_domains: 'b.org', user_location: {} })).toStrictEqual({ kind: 'fetch' });
    expect(decodeWebTool({ type: 'web_search_20260101' })).toStrictEqual({ kind: 'search' });
  });

  it('any other type, or one only like a web tool’s, is none', () => {
    for (const type of ['custom', 'web_search', 'web_search_', 'web_search_2025x', 'xweb_search_1', 'web_fetch', 'web_fetch_1a', 'xweb_fetch_1', 'code_execution_20250522', 7, undefined]) expect(decodeWebTool({ type, name: 'web_search' })).toBeUndefined();
  });
});

describe('encodeWebTool', () => {
  it('a search with its uses, allow-list and location; nothing lost', () => {
    const warnings: Warning[] = [];
    const web: WebTool = { kind: 'search', maxUses: 2, allowedDomains: ['a.org'], userLocation: { city: 'Paris', timezone: 'Europe/Paris' } };
    expect(encodeWebTool(web, 'tools[0]', warnings)).toStrictEqual({ type: WEB_SEARCH_TYPE, name: 'web_search', max_uses: 2, allowed_domains: ['a.org'], user_location: { type: 'approximate', city: 'Paris', timezone: 'Europe/Paris' } });
    expect(WEB_SEARCH_TYPE).toBe('web_search_20250305');
    expect(warnings).toStrictEqual([]);
  });

  it('both domain lists: the allow-list is sent, the block-list reported as lost', () => {
    const warnings: Warning[] = [];
    const tool = encodeWebTool({ kind: 'search', allowedDomains: ['a.org'], blockedDomains: ['b.org'] }, 'tools[1]', warnings);
    expect(tool).toStrictEqual({ type: WEB_SEARCH_TYPE, name: 'web_search', allowed_domains: ['a.org'] });
    expect(warnings).toStrictEqual([{ code: 'dropped', path: 'tools[1].blockedDomains', lossy: true }]);
  });

  it('a block-list alone is sent', () => {
    const warnings: Warning[] = [];
    expect(encodeWebTool({ kind: 'search', blockedDomains: ['b.org'] }, 't', warnings)).toStrictEqual({ type: WEB_SEARCH_TYPE, name: 'web_search', blocked_domains: ['b.org'] });
    expect(warnings).toStrictEqual([]);
  });

  it('a fetch: its own type, no user location (reported), no context size (reported)', () => {
    const warnings: Warning[] = [];
    const tool = encodeWebTool({ kind: 'fetch', maxUses: 0, userLocation: { country: 'FR' }, contextSize: 'high' }, 'tools[2]', warnings);
    expect(tool).toStrictEqual({ type: WEB_FETCH_TYPE, name: 'web_fetch', max_uses: 0 });
    expect(WEB_FETCH_TYPE).toBe('web_fetch_20250910');
    expect(warnings).toStrictEqual([
      { code: 'dropped', path: 'tools[2].userLocation' },
      { code: 'dropped', path: 'tools[2].contextSize' },
    ]);
  });

  it('a bare search: type and name alone', () => {
    expect(encodeWebTool({ kind: 'search' }, 't', [])).toStrictEqual({ type: WEB_SEARCH_TYPE, name: 'web_search' });
  });
});

describe('webToolBetas', () => {
  const fetch: WebTool = { kind: 'fetch' };
  it('the fetch beta when another dialect’s fetch tool is written, else none', () => {
    expect(WEB_FETCH_BETA).toBe('web-fetch-2025-09-10');
    expect(webToolBetas([{ dialect: 'openai-responses', web: { kind: 'search' } }, { dialect: 'gemini', web: fetch }])).toStrictEqual([WEB_FETCH_BETA]);
    expect(webToolBetas([{ dialect: 'anthropic', web: fetch }])).toStrictEqual([]);
    expect(webToolBetas([{ dialect: 'openai-responses', web: { kind: 'search' } }, { dialect: 'gemini' }])).toStrictEqual([]);
    expect(webToolBetas(undefined)).toStrictEqual([]);
  });
});

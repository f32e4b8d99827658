/**
 * A caller's hosted web search or fetch reaches an upstream of another vendor as that vendor's own
 * hosted tool, with the options it can carry; each option it cannot is in the loss report (a
 * domain restriction lossy, so strict mode refuses it), and a tool the upstream has no form for is
 * reported dropped as before.
 */
import { describe, expect, it } from 'vitest';
import type { Warning } from '../../src/canonical/index.ts';
import { registry } from '../../translators/index.ts';
import { testContext } from '../support/fixtures.ts';

type CallerId = keyof typeof registry.chatCallers;
type UpstreamId = keyof typeof registry.chatUpstreams;

const hi = [{ role: 'user', content: 'hi' }];
const A = { 'anthropic-version': '2023-06-01' };
const location = { city: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'FR', timezone: 'Europe/Paris' };

function decode(caller: CallerId, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const params: Record<string, string> = caller === 'gemini' ? { model: 'm', method: 'generateContent' } : {};
  return registry.chatCallers[caller].decodeRequest({ body, headers, params, query: {} }, testContext()).value;
}

function send(caller: CallerId, body: Record<string, unknown>, upstream: UpstreamId, model = 'm', headers: Record<string, string> = {}) {
  const req = decode(caller, body, headers);
  const { value, warnings } = registry.chatUpstreams[upstream].encodeRequest(req, { name: 'u', model, apiKey: 'k', options: {} }, testContext());
  return { body: JSON.parse(value.body as string) as Record<string, any>, headers: value.headers, warnings };
}

const tokens = (ws: Warning[]) => ws.map((w) => `${w.code}:${w.path}${w.lossy ? '!' : ''}`);

const anthropicSearch = { type: 'web_search_20250305', name: 'web_search', max_uses: 3, allowed_domains: ['example.org'], user_location: { type: 'approximate', ...location } };

describe('Anthropic web_search toward other vendors', () => {
  const body = { model: 'm', max_tokens: 9, messages: hi, tools: [anthropicSearch] };

  it('Responses: web_search with the domain filter and location; max_uses reported', () => {
    const out = send('anthropic', body, 'openai-responses', 'm', A);
    expect(out.body.tools).toEqual([{ type: 'web_search', filters: { allowed_domains: ['example.org'] }, user_location: { type: 'approximate', ...location } }]);
    expect(tokens(out.warnings)).toContain('dropped:tools[0].maxUses');
    expect(tokens(out.warnings).some((t) => t.includes('allowedDomains'))).toBe(false);
  });

  it('Gemini and Interactions: Google Search; every option reported, the domain list lossy', () => {
    const g = send('anthropic', body, 'gemini', 'm', A);
    expect(g.body.tools).toEqual([{ googleSearch: {} }]);
    expect(tokens(g.warnings)).toEqual(expect.arrayContaining(['dropped:tools[0].maxUses', 'dropped:tools[0].allowedDomains!', 'dropped:tools[0].userLocation']));
    const i = send('anthropic', body, 'gemini-interactions', 'm', A);
    expect(i.body.tools).toEqual([{ type: 'google_search' }]);
    expect(tokens(i.warnings)).toContain('dropped:tools[0].allowedDomains!');
  });

  it('Chat: web_search_options for a search model; dropped (lossy) for any other model', () => {
    const search = send('anthropic', body, 'openai', 'gpt-4o-search-preview', A);
    expect(search.body.web_search_options).toEqual({ user_location: { type: 'approximate', approximate: location } });
    expect(search.body.tools).toBeUndefined();
    const plain = send('anthropic', body, 'openai', 'gpt-4.1', A);
    expect(plain.body.web_search_options).toBeUndefined();
    expect(tokens(plain.warnings)).toContain('dropped:tools[0]!');
  });

  it('Anthropic itself: the definition as the caller wrote it', () => {
    expect(send('anthropic', body, 'anthropic', 'm', A).body.tools).toEqual([anthropicSearch]);
  });
});

describe('other callers toward Anthropic', () => {
  it('Responses web_search: web_search_20250305 with allowed_domains and the location; the context size reported', () => {
    const out = send('openai-responses', { model: 'm', input: 'hi', tools: [{ type: 'web_search', filters: { allowed_domains: ['a.org'] }, user_location: { type: 'approximate', country: 'GB' }, search_context_size: 'high' }] }, 'anthropic');
    expect(out.body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['a.org'], user_location: { type: 'approximate', country: 'GB' } }]);
    expect(tokens(out.warnings)).toContain('dropped:tools[0].contextSize');
    expect(out.headers['anthropic-beta']).toBeUndefined();
  });

  it('Gemini googleSearch and urlContext: web search and web fetch, with the fetch beta', () => {
    const out = send('gemini', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ googleSearch: {} }, { urlContext: {} }] }, 'anthropic');
    expect(out.body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search' },
      { type: 'web_fetch_20250910', name: 'web_fetch' },
    ]);
    expect(out.headers['anthropic-beta']).toBe('web-fetch-2025-09-10');
    expect(out.warnings.filter((w) => w.path.startsWith('tools'))).toEqual([]);
  });

  it('Interactions google_search and url_context alike', () => {
    const out = send('gemini-interactions', { model: 'm', input: 'hi', tools: [{ type: 'google_search' }, { type: 'url_context' }] }, 'anthropic');
    expect(out.body.tools.map((t: { type: string }) => t.type)).toEqual(['web_search_20250305', 'web_fetch_20250910']);
  });

  it('Chat web_search_options: web search with the location', () => {
    const out = send('openai-chat', { model: 'm', messages: hi, web_search_options: { user_location: { type: 'approximate', approximate: { city: 'Oslo' } } } }, 'anthropic');
    expect(out.body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', user_location: { type: 'approximate', city: 'Oslo' } }]);
  });

  it('both domain lists: the allow-list goes, the block-list is reported lossy', () => {
    const out = send('anthropic', { model: 'm', max_tokens: 9, messages: hi, tools: [{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['a.org'], blocked_domains: ['b.org'] }] }, 'gemini', 'm', A);
    expect(tokens(out.warnings)).toEqual(expect.arrayContaining(['dropped:tools[0].allowedDomains!', 'dropped:tools[0].blockedDomains!']));
    const web = decode('anthropic', { model: 'm', max_tokens: 9, messages: hi, tools: [{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['a.org'], blocked_domains: ['b.org'] }] }, A).nativeTools![0]!;
    const warnings: Warning[] = [];
    const encoded = registry.chatUpstreams.anthropic.encodeRequest({ ...decode('openai-responses', { model: 'm', input: 'hi' }), nativeTools: [{ ...web, dialect: 'openai-responses' }] }, { name: 'u', model: 'm', options: {} }, testContext());
    warnings.push(...encoded.warnings);
    expect(JSON.parse(encoded.value.body as string).tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['a.org'] }]);
    expect(tokens(warnings)).toContain('dropped:tools[0].blockedDomains!');
  });
});

describe('where no form exists', () => {
  it('a fetch toward Responses or Chat is dropped, lossy, as any other built-in', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ urlContext: {} }] };
    const r = send('gemini', body, 'openai-responses');
    expect(r.body.tools ?? []).toEqual([]);
    expect(tokens(r.warnings)).toContain('dropped:tools[0].urlContext!');
    const c = send('gemini', body, 'openai', 'gpt-4o-search-preview');
    expect(c.body.web_search_options).toBeUndefined();
    expect(tokens(c.warnings)).toContain('dropped:tools[0].urlContext!');
  });

  it('a tool that is no web tool (code execution) is dropped, lossy, as before', () => {
    const out = send('gemini', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ codeExecution: {} }] }, 'anthropic');
    expect(out.body.tools).toBeUndefined();
    expect(tokens(out.warnings)).toContain('dropped:tools[0].codeExecution!');
  });
});

describe('a hosted search forced by name (Claude Code\'s WebSearch)', () => {
  // What Claude Code's WebSearch tool sends: the server tool alone, forced by tool_choice.
  const claudeCode = {
    model: 'm',
    max_tokens: 9,
    messages: [{ role: 'user', content: 'Perform a web search for the query: rust 2026' }],
    tools: [{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['rust-lang.org'], max_uses: 8 }],
    tool_choice: { type: 'tool', name: 'web_search' },
  };

  it('is a web tool choice, not a function to call', () => {
    expect(decode('anthropic', claudeCode, A).toolChoice).toEqual({ type: 'web', kind: 'search' });
  });

  it('Gemini: no function-calling config (Google Search cannot be forced), approximated', () => {
    const out = send('anthropic', claudeCode, 'gemini', 'm', A);
    expect(out.body.toolConfig).toBeUndefined();
    expect(out.body.tools).toEqual([{ googleSearch: {} }]);
    expect(out.warnings).toContainEqual({ code: 'approximated', path: 'toolChoice', detail: 'web search→auto' });
    expect(out.warnings.filter((w) => w.path === 'toolChoice' && w.lossy)).toEqual([]);
  });

  it('Responses: required, the web search its only tool; Interactions: auto', () => {
    expect(send('anthropic', claudeCode, 'openai-responses', 'm', A).body.tool_choice).toBe('required');
    expect(send('anthropic', claudeCode, 'gemini-interactions', 'm', A).body.generation_config?.tool_choice ?? 'auto').toBe('auto');
  });

  it('Chat: a search model searches on its own; no lossy drop of the tool choice', () => {
    const out = send('anthropic', claudeCode, 'openai', 'gpt-4o-search-preview', A);
    expect(out.body.tool_choice).toBeUndefined();
    expect(out.body.web_search_options).toEqual({});
    expect(out.warnings.filter((w) => w.lossy && w.path === 'toolChoice')).toEqual([]);
  });

  it('Anthropic: as sent; a Responses caller forcing web_search_preview forces web_search', () => {
    expect(send('anthropic', claudeCode, 'anthropic', 'm', A).body.tool_choice).toEqual({ type: 'tool', name: 'web_search' });
    const r = send('openai-responses', { model: 'm', input: 'news', tools: [{ type: 'web_search_preview' }], tool_choice: { type: 'web_search_preview' } }, 'anthropic');
    expect(r.body.tool_choice).toEqual({ type: 'tool', name: 'web_search' });
    expect(r.body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
  });
});

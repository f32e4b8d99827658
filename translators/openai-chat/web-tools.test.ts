import { describe, expect, it } from 'vitest';
import type { ChatRequest, Warning, WebTool } from '../../src/canonical/index.ts';
import { encodeRequest } from './encode-request.ts';
import { chatWebForm, encodeOpenRouterTool } from './web-tools.ts';

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

import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/load.ts';
import { ProxyError } from '../canonical/index.ts';
import { requestRoutes, resolveModel, routedModel } from './resolve.ts';

const config = parseConfig({
  upstreams: {
    claude: { dialect: 'anthropic', baseUrl: 'https://api.anthropic.com' },
    google: { dialect: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com' },
    openai: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1' },
  },
  models: {
    'gpt-4o': { upstream: 'claude', model: 'claude-sonnet-4-5' },
    'claude-*': { upstream: 'claude' },
    'claude-3-*': { upstream: 'google', model: 'gemini-2.5-flash' },
    'gemini-*': { upstream: ['google', { upstream: 'openai', model: 'gpt-4o-mini' }] },
  },
});

describe('resolveModel', () => {
  it('prefers an exact name and renames the model', () => {
    const r = resolveModel(config, 'gpt-4o');
    expect(r.targets).toHaveLength(1);
    expect(r.targets[0]!.upstream.name).toBe('claude');
    expect(r.targets[0]!.model).toBe('claude-sonnet-4-5');
  });

  it('picks the most specific glob and keeps the caller model when not renamed', () => {
    expect(resolveModel(config, 'claude-3-haiku').targets[0]!.upstream.name).toBe('google');
    const r = resolveModel(config, 'claude-opus-4');
    expect(r.targets[0]!.upstream.name).toBe('claude');
    expect(r.targets[0]!.model).toBe('claude-opus-4');
  });

  it('lists fallbacks in order with per-target models', () => {
    const r = resolveModel(config, 'gemini-2.5-pro');
    expect(r.targets.map((t) => [t.upstream.name, t.model])).toEqual([
      ['google', 'gemini-2.5-pro'],
      ['openai', 'gpt-4o-mini'],
    ]);
  });

  it('addresses an upstream directly with upstream/model', () => {
    const r = resolveModel(config, 'openai/o3-mini');
    expect(r.targets[0]!.upstream.name).toBe('openai');
    expect(r.targets[0]!.model).toBe('o3-mini');
  });

  it('lets an exact models entry win over upstream/model addressing', () => {
    const c = parseConfig({
      upstreams: { openai: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1' }, router: { dialect: 'openai', baseUrl: 'https://openrouter.ai/api/v1' } },
      models: { 'openai/gpt-4o': { upstream: 'router' }, '*': { upstream: 'router' } },
    });
    expect(resolveModel(c, 'openai/gpt-4o').targets.map((t) => [t.upstream.name, t.model])).toEqual([['router', 'openai/gpt-4o']]);
    expect(resolveModel(c, 'openai/gpt-4o-mini').targets.map((t) => [t.upstream.name, t.model])).toEqual([['openai', 'gpt-4o-mini']]);
  });

  it('with upstreamPrefix off, a slash name is routed by the models table like any other', () => {
    const c = parseConfig({
      upstreamPrefix: false,
      upstreams: { openai: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1' }, router: { dialect: 'openai', baseUrl: 'https://openrouter.ai/api/v1' } },
      models: { 'gpt-*': { upstream: 'openai' }, '*/*': { upstream: 'router' } },
    });
    expect(resolveModel(c, 'openai/gpt-4o').targets.map((t) => [t.upstream.name, t.model])).toEqual([['router', 'openai/gpt-4o']]);
    const strictOnly = parseConfig({ upstreamPrefix: false, upstreams: { openai: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1' } }, models: { 'gpt-4o': { upstream: 'openai' } } });
    expect(() => resolveModel(strictOnly, 'openai/o3')).toThrow(/does not exist/);
  });

  it('upstream/model takes the settings of the route its bare name has, and the global strict', () => {
    const c = parseConfig({
      upstreams: { claude: { dialect: 'anthropic', baseUrl: 'https://api.anthropic.com' }, openai: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1' } },
      models: { 'claude-*': { upstream: 'claude', strict: true, defaultMaxTokens: 777, contextWindow: 200_000, reasoning: { budgetTokens: 2048 } }, '*': { upstream: 'openai' } },
    });
    expect(resolveModel(c, 'claude/claude-opus-4').route).toMatchObject({ strict: true, defaultMaxTokens: 777, contextWindow: 200_000, reasoning: { budgetTokens: 2048 } });
    expect(resolveModel(c, 'openai/o3').route?.strict).toBe(false);
    const everywhere = parseConfig({ strict: true, upstreams: { openai: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1' } }, models: { 'gpt-*': { upstream: 'openai' } } });
    expect(resolveModel(everywhere, 'openai/o3').route?.strict).toBe(true);
    expect(resolveModel(everywhere, 'gpt-4o').route?.strict).toBe(true);
  });

  it('treats a slash name whose prefix is no upstream as a plain model name', () => {
    expect(() => resolveModel(config, 'meta/llama')).toThrow(ProxyError);
  });

  it('throws not-found naming the model when nothing routes it', () => {
    try {
      resolveModel(config, 'mistral-large');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ProxyError);
      expect((e as ProxyError).kind).toBe('not-found');
      expect((e as ProxyError).message).toContain("'mistral-large'");
    }
    expect(routedModel(config, 'mistral-large')).toBeUndefined();
    expect(routedModel(config, 'claude-x')?.ownedBy).toBe('claude');
  });
});

describe('requestRoutes', () => {
  it('resolves each model name once, an unknown one’s error included, and tells names apart', () => {
    const counted = { ...config, exact: new Map(config.exact) };
    let asked = 0;
    const get = counted.exact.get.bind(counted.exact);
    counted.exact.get = (m: string) => (asked++, get(m));
    const routes = requestRoutes(counted);
    expect(routes('gpt-4o')).toBe(routes('gpt-4o'));
    expect(routes('gpt-4o').targets[0]!.model).toBe('claude-sonnet-4-5');
    expect(asked).toBe(1);
    expect(routes('claude-opus-4').targets[0]!.upstream.name).toBe('claude');
    const once = asked;
    expect(once).toBeGreaterThan(1);
    expect(routes('claude-opus-4')).toBe(routes('claude-opus-4'));
    expect(() => routes('nope')).toThrow(ProxyError);
    const failed = asked;
    expect(failed).toBeGreaterThan(once);
    expect(() => routes('nope')).toThrow(ProxyError);
    expect(asked).toBe(failed);
  });
});

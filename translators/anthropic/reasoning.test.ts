/**
 * Thinking both ways: the caller's `thinking` / `output_config.effort` decoded, the limits the
 * API puts on a budget (≥ 1024, below max_tokens), and what an upstream request carries.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Warning } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { encodeRequest } from './encode-request.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const H = { 'anthropic-version': '2023-06-01' };

const msgs = [{ role: 'user', content: 'hi' }];

const decode = (body: Record<string, unknown>) =>
  decodeRequest({ body: { model: 'claude-sonnet-4-5', max_tokens: 4096, messages: msgs, ...body }, headers: H, params: {}, query: {} });

const target: UpstreamTarget = { name: 'claude', model: 'claude-sonnet-4-20250514', apiKey: 'k', options: {} };

const base: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

function encode(req: Partial<ChatRequest>, t: UpstreamTarget = target) {
  const { value, warnings } = encodeRequest({ ...base, ...req }, t, testContext());
  return { body: JSON.parse(value.body as string) as Record<string, any>, warnings };
}

const clamps = (warnings: Warning[]) => warnings.filter((w) => w.code === 'clamped');

describe('anthropic caller: thinking budget limits', () => {
  it.each([0, -1, 1023])('budget_tokens %i is refused with the API’s message', (budget) => {
    const err = proxyErrorOf(() => decode({ thinking: { type: 'enabled', budget_tokens: budget } }));
    expect(err.status).toBe(400);
    expect(err.message).toBe('thinking.budget_tokens: Input should be greater than or equal to 1024');
    expect(err.param).toBe('thinking.budget_tokens');
  });

  it('1024 is the smallest budget accepted', () => {
    expect(decode({ thinking: { type: 'enabled', budget_tokens: 1024 } }).value.reasoning).toEqual({ enabled: true, budgetTokens: 1024, includeThoughts: true });
  });

  it('max_tokens must exceed the budget: equal is refused, one more is accepted', () => {
    const err = proxyErrorOf(() => decode({ max_tokens: 1500, thinking: { type: 'enabled', budget_tokens: 1500 } }));
    expect(err.param).toBe('max_tokens');
    expect(err.message).toMatch(/^max_tokens: `max_tokens` must be greater than `thinking.budget_tokens`/);
    expect(proxyErrorOf(() => decode({ max_tokens: 1400, thinking: { type: 'enabled', budget_tokens: 1500 } })).param).toBe('max_tokens');
    expect(decode({ max_tokens: 1501, thinking: { type: 'enabled', budget_tokens: 1500 } }).value.maxOutputTokens).toBe(1501);
  });

  it('adaptive thinking has no budget to check against a small max_tokens; count_tokens has no max_tokens to check', () => {
    expect(decode({ max_tokens: 1, thinking: { type: 'adaptive' } }).value.reasoning).toEqual({ enabled: true, budgetTokens: -1, includeThoughts: true });
    expect(decode({ max_tokens: 1, thinking: { type: 'adaptive', display: 'omitted' } }).value.reasoning).toMatchObject({ includeThoughts: false });
    const count = decodeRequest({
      body: { model: 'm', messages: msgs, thinking: { type: 'enabled', budget_tokens: 5000 } },
      headers: H,
      params: { method: 'count_tokens' },
      query: {},
    });
    expect(count.value.reasoning).toMatchObject({ budgetTokens: 5000 });
  });

  it('an unknown thinking mode is kept for an Anthropic upstream, not decoded', () => {
    const { value } = decode({ thinking: { type: 'between_tools', budget_tokens: 3 } });
    expect(value.reasoning).toBeUndefined();
    expect(value.extras).toEqual({ dialect: 'anthropic', fields: { thinking: { type: 'between_tools', budget_tokens: 3 } } });
  });

  it('a thinking object of the wrong shape is refused by its field', () => {
    expect(proxyErrorOf(() => decode({ thinking: { type: 'enabled' } })).message).toBe('thinking.budget_tokens: Field required');
  });
});

describe('anthropic caller: output_config.effort', () => {
  it.each(['low', 'medium', 'high'] as const)('%s is the canonical effort, no warning', (effort) => {
    const { value, warnings } = decode({ output_config: { effort } });
    expect(value.reasoning).toEqual({ effort });
    expect(warnings).toEqual([]);
    expect(value.extras).toBeUndefined();
  });

  it.each(['xhigh', 'max'])('%s becomes high, reported as approximated', (effort) => {
    const { value, warnings } = decode({ output_config: { effort } });
    expect(value.reasoning).toEqual({ effort: 'high' });
    expect(warnings).toEqual([{ code: 'approximated', path: 'output_config.effort', detail: effort }]);
  });

  it('an unknown effort is a 400 naming the allowed values', () => {
    const err = proxyErrorOf(() => decode({ output_config: { effort: 'extreme' } }));
    expect(err.status).toBe(400);
    expect(err.param).toBe('output_config.effort');
    expect(err.message).toBe("output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'");
  });

  it('effort joins the thinking settings; the format and other output_config fields are kept', () => {
    const schema = { type: 'object' };
    const { value } = decode({ thinking: { type: 'enabled', budget_tokens: 2000 }, output_config: { effort: 'low', format: { type: 'json_schema', schema }, task_budget: 7 } });
    expect(value.reasoning).toEqual({ enabled: true, budgetTokens: 2000, includeThoughts: true, effort: 'low' });
    expect(value.responseFormat).toEqual({ type: 'json-schema', schema });
    expect(value.extras).toEqual({ dialect: 'anthropic', fields: { output_config: { task_budget: 7 } } });
  });

  it('no effort, no reasoning', () => {
    expect(decode({ output_config: {} }).value.reasoning).toBeUndefined();
    expect(decode({ output_config: { effort: null } }).value.reasoning).toBeUndefined();
  });
});

describe('anthropic upstream: thinking budget', () => {
  it('budgetTokens 0 turns thinking off, whatever the effort', () => {
    expect(encode({ reasoning: { budgetTokens: 0, effort: 'high' } }).body).toMatchObject({ thinking: { type: 'disabled' }, max_tokens: 4096 });
    expect(encode({ reasoning: { enabled: true, budgetTokens: 0 } }).body.thinking).toEqual({ type: 'disabled' });
  });

  it('a disabled thinking keeps temperature, top_p and top_k', () => {
    const { body, warnings } = encode({ reasoning: { enabled: false }, temperature: 0.3, topP: 0.5, topK: 3 });
    expect(body).toMatchObject({ temperature: 0.3, top_p: 0.5, top_k: 3 });
    expect(warnings).toEqual([]);
  });

  it('enabled without budget or effort is the medium budget; budget -1 with an effort uses the effort', () => {
    expect(encode({ reasoning: { enabled: true } }).body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 8192 }, max_tokens: 8192 + 4096 });
    expect(encode({ reasoning: { budgetTokens: -1, effort: 'low' } }).body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(encode({ reasoning: { effort: 'minimal' } }).body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(encode({ reasoning: { effort: 'high' } }).body).toMatchObject({ thinking: { budget_tokens: 24576 }, max_tokens: 24576 + 4096 });
  });

  it('an explicit budget wins over the effort', () => {
    expect(encode({ reasoning: { budgetTokens: 3000, effort: 'high' } }).body.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
  });

  it('1024 passes as is; 1023 is raised to 1024 and reported', () => {
    const ok = encode({ reasoning: { budgetTokens: 1024 } });
    expect(ok.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(clamps(ok.warnings)).toEqual([]);
    const low = encode({ reasoning: { budgetTokens: 1023 } });
    expect(low.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(clamps(low.warnings)).toEqual([{ code: 'clamped', path: 'reasoning.budgetTokens', detail: '1024' }]);
  });

  it('a budget below the caller’s max_tokens is sent untouched; equal to it, it is halved', () => {
    const below = encode({ reasoning: { budgetTokens: 3000 }, maxOutputTokens: 3001 });
    expect(below.body).toMatchObject({ thinking: { budget_tokens: 3000 }, max_tokens: 3001 });
    expect(clamps(below.warnings)).toEqual([]);
    const equal = encode({ reasoning: { budgetTokens: 3000 }, maxOutputTokens: 3000 });
    expect(equal.body).toMatchObject({ thinking: { budget_tokens: 1500 }, max_tokens: 3000 });
    expect(clamps(equal.warnings)).toEqual([{ code: 'clamped', path: 'reasoning.budgetTokens', detail: '1500' }]);
  });

  it('a caller max_tokens of 2048 still holds a halved budget; 2047 has max_tokens raised instead', () => {
    const at = encode({ reasoning: { budgetTokens: 5000 }, maxOutputTokens: 2048 });
    expect(at.body).toMatchObject({ thinking: { budget_tokens: 1024 }, max_tokens: 2048 });
    expect(clamps(at.warnings)).toEqual([{ code: 'clamped', path: 'reasoning.budgetTokens', detail: '1024' }]);
    const under = encode({ reasoning: { budgetTokens: 5000 }, maxOutputTokens: 2047 });
    expect(under.body).toMatchObject({ thinking: { budget_tokens: 5000 }, max_tokens: 7047 });
    expect(clamps(under.warnings)).toEqual([{ code: 'clamped', path: 'maxOutputTokens', detail: '7047' }]);
  });

  it('without a caller max_tokens the route default is raised by the budget, silently', () => {
    const t: UpstreamTarget = { ...target, options: { defaultMaxTokens: 2000 } };
    const r = encode({ reasoning: { budgetTokens: 2000 } }, t);
    expect(r.body).toMatchObject({ thinking: { budget_tokens: 2000 }, max_tokens: 4000 });
    expect(clamps(r.warnings)).toEqual([]);
    expect(encode({ reasoning: { budgetTokens: 1999 } }, t).body.max_tokens).toBe(2000);
  });
});

/**
 * The built-in price table: US dollars per million tokens, standard (not batch, not priority)
 * rates of the vendors' own APIs, text tokens. Data only; the lookup is lookup.ts.
 *
 * Compiled 2026-12-01 from the vendors' pricing pages as seen in November 2026 — Anthropic:
 * https://platform.claude.com/docs/en/about-claude/pricing and each model's overview page;
 * OpenAI: https://developers.openai.com/api/docs/pricing (as read 2026-11-05) and its model
 * pages; Google: https://ai.google.dev/gemini-api/docs/pricing (as read 2026-10-07) — and checked
 * against LiteLLM's model_prices_and_context_window.json where it had the model. A rate a page did
 * not state is left out (the cost then takes the input rate for it, never zero). Long-context
 * tiers price every token of a request whose prompt (input, cache reads and writes) passes
 * `above`. Prices change: `prices` in the config overrides any of this (docs/team.md "Cost").
 */
import type { ModelPrice } from '../../config/load.ts';

/** A price that changes on a known date (a launch promotion ending): the last one `since` ≤ today applies. */
export type DatedPrice = ModelPrice & { since?: string };

export const PRICE_TABLE_DATE = '2026-12-01';

/** Anthropic: the 5-minute cache write is 1.25× input, the 1-hour one 2×, a read 0.1× unless stated. */
const anthropic = (input: number, output: number, cacheRead: number, cacheWrite: number, cacheWrite1h: number): ModelPrice => ({ input, output, cacheRead, cacheWrite, cacheWrite1h });

/** Anthropic's long-context rates for a prompt over 200K tokens: input (and cache) 2×, output 1.5×. */
const over200k = (p: ModelPrice): ModelPrice => ({
  ...p,
  tiers: [{ above: 200_000, input: p.input! * 2, output: p.output! * 1.5, cacheRead: p.cacheRead! * 2, cacheWrite: p.cacheWrite! * 2, cacheWrite1h: p.cacheWrite1h! * 2 }],
});

/** OpenAI's GPT-5.4 and GPT-6 families over 272K input tokens: input and cache 2×, output 1.5×. */
const over272k = (p: ModelPrice): ModelPrice => ({
  ...p,
  tiers: [{ above: 272_000, input: p.input! * 2, output: p.output! * 1.5, ...(p.cacheRead !== undefined && { cacheRead: p.cacheRead * 2 }), ...(p.cacheWrite !== undefined && { cacheWrite: p.cacheWrite * 2 }) }],
});

const opus45 = anthropic(5, 25, 0.5, 6.25, 10);
const opus4 = anthropic(15, 75, 1.5, 18.75, 30);
const sonnet46 = anthropic(3, 15, 0.3, 3.75, 6);
/** Sonnet 4 and 4.5 with the 1M-context beta: long-context rates over 200K (4.6 and later: one rate, as their pages say). */
const sonnet4 = over200k(sonnet46);
const fable = anthropic(10, 50, 1, 12.5, 20);
const fable51 = anthropic(10, 50, 0.25, 12.5, 20);

export const PRICE_TABLE: Record<string, ModelPrice | DatedPrice[]> = {
  // Anthropic (Claude API; Bedrock and Vertex AI ids are matched by their Claude name).
  'claude-fable-5-1': fable51,
  'claude-mythos-5-1': fable51,
  'claude-fable-5': fable,
  'claude-mythos-5': fable,
  'claude-opus-5-5': anthropic(4, 20, 0.2, 5, 8),
  'claude-opus-5': opus45,
  'claude-opus-4-8': opus45,
  'claude-opus-4-7': opus45,
  'claude-opus-4-6': opus45,
  'claude-opus-4-5': opus45,
  'claude-opus-4-1': opus4,
  'claude-opus-4-0': opus4,
  'claude-opus-4': opus4,
  // Sonnet 5.5's cache reads went from $0.20 to $0.10 on 2026-10-07.
  'claude-sonnet-5-5': anthropic(2, 10, 0.1, 2.5, 4),
  'claude-sonnet-5': anthropic(2, 10, 0.2, 2.5, 4),
  'claude-sonnet-4-6': sonnet46,
  'claude-sonnet-4-5': sonnet4,
  'claude-sonnet-4-0': sonnet4,
  'claude-sonnet-4': sonnet4,
  'claude-3-7-sonnet': anthropic(3, 15, 0.3, 3.75, 6),
  // Haiku 5.5 is priced by prompt length: 5× over 100,000 tokens, on every token of the request.
  'claude-haiku-5-5': {
    ...anthropic(0.1, 0.5, 0.01, 0.125, 0.2),
    tiers: [{ above: 100_000, input: 0.5, output: 2.5, cacheRead: 0.05, cacheWrite: 0.625, cacheWrite1h: 1 }],
  },
  'claude-haiku-4-5': anthropic(1, 5, 0.1, 1.25, 2),
  'claude-3-5-haiku': anthropic(0.8, 4, 0.08, 1, 1.6),
  'claude-3-haiku': anthropic(0.25, 1.25, 0.03, 0.3, 0.5),

  // OpenAI (standard tier; cached input as `cacheRead`, GPT-6's cache writes as `cacheWrite`).
  'gpt-6.2-astra': over272k({ input: 8, output: 40, cacheRead: 0.4 }),
  'gpt-6.2-sol': over272k({ input: 2, output: 10 }),
  'gpt-6.1-sol': over272k({ input: 2, output: 10, cacheRead: 0.1 }),
  'gpt-6-astra': over272k({ input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 }),
  'gpt-6-sol': over272k({ input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 }),
  'gpt-6-luna': over272k({ input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 }),
  // GPT-5.6 Sol at its promotional rate (from 2026-08-21, "at least through 2026-11-21"; $5/$30 before).
  'gpt-5.6-sol': over272k({ input: 4, output: 20, cacheRead: 0.4 }),
  'gpt-5.6-terra': over272k({ input: 2, output: 12, cacheRead: 0.2 }),
  'gpt-5.6-luna': over272k({ input: 0.2, output: 1.2, cacheRead: 0.02 }),
  'gpt-5.5-pro': { input: 30, output: 180 },
  'gpt-5.5': over272k({ input: 5, output: 30, cacheRead: 0.5 }),
  'gpt-5.4-pro': { input: 30, output: 180 },
  'gpt-5.4-mini': { input: 0.75, output: 4.5, cacheRead: 0.075 },
  'gpt-5.4-nano': { input: 0.2, output: 1.25, cacheRead: 0.02 },
  'gpt-5.4': over272k({ input: 2.5, output: 15, cacheRead: 0.25 }),
  'gpt-5.2-pro': { input: 21, output: 168 },
  'gpt-5.2': { input: 1.75, output: 14, cacheRead: 0.175 },
  'gpt-5.1': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5-pro': { input: 15, output: 120 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005 },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  o3: { input: 2, output: 8, cacheRead: 0.5 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },

  // Google (Gemini Developer API, paid tier, text/image/video input; context-cache reads as `cacheRead`).
  // Launch prices at half the standard rate, each until its stated end.
  'gemini-3.8-flash': [
    { input: 0.75, output: 3.75, cacheRead: 0.075 },
    { since: '2027-01-01', input: 1.5, output: 7.5, cacheRead: 0.15 },
  ],
  'gemini-3.7-flash': [
    { input: 0.75, output: 3.75, cacheRead: 0.075 },
    { since: '2028-01-01', input: 1.5, output: 7.5, cacheRead: 0.15 },
  ],
  'gemini-3.1-pro': { input: 2, output: 12, cacheRead: 0.2, tiers: [{ above: 200_000, input: 4, output: 18, cacheRead: 0.4 }] },
  'gemini-3.1-flash-lite': { input: 0.25, output: 1.5 },
  'gemini-3-pro': { input: 2, output: 12, cacheRead: 0.2, tiers: [{ above: 200_000, input: 4, output: 18, cacheRead: 0.4 }] },
  'gemini-3-flash': { input: 0.5, output: 3, cacheRead: 0.05 },
  'gemini-2.5-pro': { input: 1.25, output: 10, cacheRead: 0.125, tiers: [{ above: 200_000, input: 2.5, output: 15, cacheRead: 0.25 }] },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cacheRead: 0.01 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cacheRead: 0.03 },
  'gemini-2.0-flash-lite': { input: 0.075, output: 0.3 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4, cacheRead: 0.025 },
};

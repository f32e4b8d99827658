/**
 * Model prices as the config gives them: `prices` entries (US dollars per million tokens) over a
 * `pricesFile` in LiteLLM's `model_prices_and_context_window.json` format (US dollars per token,
 * https://github.com/BerriAI/litellm). The built-in table and the lookup by model name are
 * src/upstream/prices; this is only the reading of the two inputs.
 */
import type { PriceConfig } from './schema.ts';

/** Rates in US dollars per million tokens; a missing one is not known (never zero). */
export type PriceRates = PriceConfig;

/**
 * A model's prices: its base rates, and the rates of a request whose prompt (input tokens, cache
 * reads and writes included) is over `above` tokens (long context); a tier omits what stays.
 */
export interface ModelPrice extends PriceRates {
  tiers?: Array<PriceRates & { above: number }>;
}

/** LiteLLM's per-token fields → ours. */
const LITELLM_FIELDS: Array<[string, keyof PriceRates]> = [
  ['input_cost_per_token', 'input'],
  ['output_cost_per_token', 'output'],
  ['cache_read_input_token_cost', 'cacheRead'],
  ['cache_creation_input_token_cost_above_1hr', 'cacheWrite1h'],
  ['cache_creation_input_token_cost', 'cacheWrite'],
];

const TIER = /^(.+)_above_(\d+)k_tokens$/;

/** Per token → per million, without the float noise of `× 1e6` (`3e-6 × 1e6` is 2.9999999999999996). */
function perMillion(perToken: number): number {
  return Number((perToken * 1_000_000).toPrecision(12));
}

/** One LiteLLM row as our price; undefined when it prices neither input nor output. */
function liteLLMPrice(row: Record<string, unknown>): ModelPrice | undefined {
  const price: ModelPrice = {};
  const tiers = new Map<number, PriceRates & { above: number }>();
  for (const [field, value] of Object.entries(row)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) continue;
    const tier = TIER.exec(field);
    const base = tier ? tier[1]! : field;
    const ours = LITELLM_FIELDS.find(([f]) => f === base)?.[1];
    if (!ours) continue;
    if (!tier) {
      price[ours] = perMillion(value);
      continue;
    }
    const above = Number(tier[2]) * 1000;
    let t = tiers.get(above);
    if (!t) tiers.set(above, (t = { above }));
    t[ours] = perMillion(value);
  }
  if (price.input === undefined && price.output === undefined) return undefined;
  if (tiers.size) price.tiers = [...tiers.values()].sort((a, b) => a.above - b.above);
  return price;
}

/**
 * The chat model prices of a LiteLLM price document (parsed JSON), by its keys. A row named with a
 * provider (`vertex_ai/claude-…`, `gemini/gemini-…`) also prices its bare name, unless a row
 * claims that name itself or two providers' rows for it disagree (then the bare name stays
 * unpriced rather than priced by a guess). Returns a problem instead when it is no such document.
 */
export function pricesOfLiteLLM(doc: unknown): { prices: Record<string, ModelPrice> } | { problem: string } {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { problem: 'not a LiteLLM price document (a JSON object of models)' };
  const out: Record<string, ModelPrice> = {};
  const bare = new Map<string, ModelPrice | null>();
  for (const [name, row] of Object.entries(doc as Record<string, unknown>)) {
    if (name === 'sample_spec' || !row || typeof row !== 'object') continue;
    const price = liteLLMPrice(row as Record<string, unknown>);
    if (!price) continue;
    out[name] = price;
    const slash = name.lastIndexOf('/');
    if (slash < 0) continue;
    const short = name.slice(slash + 1);
    const seen = bare.get(short);
    if (seen === undefined) bare.set(short, price);
    else if (seen && JSON.stringify(seen) !== JSON.stringify(price)) bare.set(short, null);
  }
  for (const [short, price] of bare) if (price && !(short in out)) out[short] = price;
  if (Object.keys(out).length === 0) return { problem: 'no model in it has a price per token' };
  return { prices: out };
}

/** `pricesFile` entries with the config's own `prices` over them, field by field. */
export function mergedPrices(file: Record<string, ModelPrice>, inline: Record<string, PriceRates>): Record<string, ModelPrice> {
  const out: Record<string, ModelPrice> = { ...file };
  for (const [name, rates] of Object.entries(inline)) out[name] = { ...file[name], ...rates };
  return out;
}

/**
 * What one call cost, in US dollars, from its usage and its model's price (docs/team.md "Cost").
 * Canonical usage follows OpenAI: `inputTokens` holds the cache reads and writes, `outputTokens`
 * the reasoning ("thinking") tokens, which are priced as output.
 */
import type { Usage } from '../../canonical/index.ts';
import type { ModelPrice, PriceRates } from '../../config/load.ts';

/** The rates for a request with a prompt of `prompt` tokens: the highest tier it passes over the base. */
export function ratesFor(price: ModelPrice, prompt: number): PriceRates {
  let best: (PriceRates & { above: number }) | undefined;
  for (const t of price.tiers ?? []) if (prompt > t.above && (!best || t.above > best.above)) best = t;
  if (!best) return price;
  const { above: _above, ...rates } = best;
  return { ...price, ...rates };
}

/**
 * The cost of `usage` at `price`, rounded to 1e-10 dollars; undefined when the price does not say
 * what input or output costs (the model is then unpriced, never free). A rate the price omits is
 * its input rate (a cache read with no read rate costs what input does). Anthropic's cache writes
 * are at the 5-minute rate, but for what the upstream says was written for an hour, or all of them
 * when the request asked for the 1-hour TTL (`longCacheTtl`) and the upstream did not split them.
 */
export function costOf(price: ModelPrice, usage: Usage, o: { longCacheTtl?: boolean } = {}): number | undefined {
  const rates = ratesFor(price, usage.inputTokens);
  const { input, output } = rates;
  if (input === undefined || output === undefined) return undefined;
  const read = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const hour = Math.min(written, usage.cacheWrite1hTokens ?? (o.longCacheTtl ? written : 0));
  const plain = Math.max(0, usage.inputTokens - read - written);
  const write5m = rates.cacheWrite ?? input;
  const dollars =
    plain * input +
    read * (rates.cacheRead ?? input) +
    (written - hour) * write5m +
    hour * (rates.cacheWrite1h ?? write5m) +
    usage.outputTokens * output;
  return Math.round(dollars / 1e6 * 1e10) / 1e10;
}

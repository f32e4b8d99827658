/**
 * A model's price by the name sent upstream: the config's `prices` (and `pricesFile`) over the
 * built-in table, field by field — an entry that gives only `input` keeps the table's other rates.
 *
 * Each source answers for the longest name it knows that the model starts with, followed by
 * nothing or by a variant suffix: a date or build (`-20250929`, `-2024-08-06`, `@20250805`,
 * `-001`), `-latest`, `-preview…`, `-exp…` or a Bedrock `-v1:0`. So `claude-sonnet-4-5-20250929`
 * is `claude-sonnet-4-5`, but `claude-opus-4-8` is not `claude-opus-4` (`-8` is another version)
 * and `gemini-2.5-flash-lite` is not `gemini-2.5-flash`. A host's spelling is read as the vendor's:
 * `models/…` (Gemini), a region and vendor in front (Bedrock `us.anthropic.…`), a provider path
 * (`openai/gpt-4o`) when nothing knows the name with it.
 */
import type { ModelPrice } from '../../config/load.ts';
import { PRICE_TABLE, type DatedPrice } from './table.ts';

const VARIANT = /^[-@:_](?:\d{3,}|latest|preview|exp|v\d)/;

type Source = Record<string, ModelPrice | DatedPrice[]>;

/** The names a model is looked up by, most literal first. */
function spellings(model: string): string[] {
  const out = [model.toLowerCase().replace(/^models\//, '')];
  const bedrock = /^(?:[a-z]{2,6}\.)?anthropic\.(.+)$/.exec(out[0]!);
  if (bedrock) out.push(bedrock[1]!);
  const slash = out[0]!.lastIndexOf('/');
  if (slash >= 0) out.push(out[0]!.slice(slash + 1));
  return out;
}

/** The entry of `source` for `name`: its own, else the longest name it starts with before a variant suffix. */
function entryOf(source: Source, name: string): ModelPrice | DatedPrice[] | undefined {
  const own = source[name];
  if (own) return own;
  let best: string | undefined;
  for (const known of Object.keys(source)) {
    if (known.length >= name.length || (best && known.length <= best.length)) continue;
    if (name.startsWith(known) && VARIANT.test(name.slice(known.length))) best = known;
  }
  return best === undefined ? undefined : source[best];
}

/** The price in force on `day` (`YYYY-MM-DD`) of a dated list. */
function inForce(entry: ModelPrice | DatedPrice[], day: string): ModelPrice | undefined {
  if (!Array.isArray(entry)) return entry;
  let found: DatedPrice | undefined;
  for (const p of entry) if (!p.since || p.since <= day) found = p;
  if (!found) return undefined;
  const { since: _since, ...price } = found;
  return price;
}

function find(source: Source, model: string, day: string): ModelPrice | undefined {
  for (const name of spellings(model)) {
    const entry = entryOf(source, name);
    if (entry) return inForce(entry, day);
  }
  return undefined;
}

export interface PriceBook {
  /** The model's price on the day of `nowMs`, undefined when nothing prices it. */
  priceOf(model: string, nowMs: number): ModelPrice | undefined;
}

/** Lookups over `configured` (the config's `prices`, keys as written) and the built-in table. */
export function priceBook(configured: Record<string, ModelPrice>, table: Source = PRICE_TABLE): PriceBook {
  const own: Source = {};
  for (const [name, price] of Object.entries(configured)) own[name.toLowerCase()] = price;
  return {
    priceOf(model, nowMs) {
      const day = new Date(nowMs).toISOString().slice(0, 10);
      const base = find(table, model, day);
      const over = find(own, model, day);
      if (!over) return base;
      return base ? { ...base, ...over, tiers: over.tiers ?? base.tiers } : over;
    },
  };
}

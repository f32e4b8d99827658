/**
 * What each request spent and whether its key may spend more: the one place the edge asks before
 * an upstream is called (`admit`: a key over one of its limits gets a 429 in its own dialect) and
 * when the request is over (`settle`: the tokens of a cut stream estimated, the cost priced onto
 * the log line, both counted against the key's limits). docs/team.md says what each means.
 *
 * Limits fail open: when the counter store cannot be reached the request is served, the log
 * line says `not-counted:STORE` and `/metrics` counts it (availability first).
 */
import { ProxyError, type Usage } from '../canonical/index.ts';
import type { Config, InboundKey } from '../config/load.ts';
import type { LogEntry, RequestScope } from '../observe/scope.ts';
import type { CounterStore } from './limits/counters.ts';
import { admit, spend, type LimitedKey } from './limits/limits.ts';
import { costOf } from './prices/cost.ts';
import { priceBook } from './prices/lookup.ts';

/** A cut stream's tokens: about four characters of text, or of the request's JSON, per token. */
export const CHARS_PER_TOKEN = 4;

export interface Meter {
  /** Refuse a request past its key's limits (a 429 ProxyError), count it otherwise; undefined: nothing to wait for. */
  admit(scope: RequestScope, key: InboundKey | undefined): Promise<void> | undefined;
  /** Price the finished request onto its log line and count it; undefined when nothing is left to wait for. */
  settle(scope: RequestScope, entry: LogEntry, key: InboundKey | undefined): Promise<void> | undefined;
}

export interface MeterOptions {
  config: Config;
  /** Where limit counters live (memory, Redis, KV); none: no key has limits. */
  counters?: CounterStore;
  now: () => number;
}

const limited = (key: InboundKey | undefined): key is InboundKey & LimitedKey => !!key?.limits;

/**
 * The usage a stream cut short stands for (`tokensEstimated`): what the upstream said so far, or
 * at least a token per four characters it streamed; the input it did not say, a token per four
 * bytes of the caller's request (its JSON as sent, so an over-estimate).
 */
export function estimatedUsage(scope: RequestScope): Usage {
  const said = scope.reported;
  const inputTokens = said?.inputTokens || Math.ceil((scope.requestBytes ?? 0) / CHARS_PER_TOKEN);
  const outputTokens = Math.max(said?.outputTokens ?? 0, Math.ceil(scope.streamedChars / CHARS_PER_TOKEN));
  return { ...said, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, estimated: true };
}

export function createMeter(o: MeterOptions): Meter {
  const { counters, now } = o;
  const prices = priceBook(o.config.prices);

  /** The usage to count and price: the upstream's, or an estimate for a stream that never said it. */
  const usageOf = (scope: RequestScope, entry: LogEntry): Usage | undefined => {
    const cut = scope.streamCut || (!scope.reported && scope.streamedChars > 0);
    if (!cut) return scope.reported;
    const u = estimatedUsage(scope);
    entry.tokensIn = u.inputTokens;
    entry.tokensOut = u.outputTokens;
    entry.tokensEstimated = true;
    return u;
  };

  const price = (scope: RequestScope, entry: LogEntry, u: Usage | undefined) => {
    const model = scope.servedModel;
    if (!u || !model || entry.cost !== undefined) return;
    const p = prices.priceOf(model, now());
    const cost = p && costOf(p, u, { longCacheTtl: scope.longCacheTtl });
    if (cost === undefined) entry.unpriced = model;
    else entry.cost = cost;
  };

  return {
    admit(scope, key) {
      if (!limited(key) || !counters) return undefined;
      return admit(counters, key, now()).then(
        (refused) => {
          if (!refused) return;
          scope.log.limit = refused.limit;
          throw new ProxyError('rate-limit', refused.message, { status: 429, retryAfter: refused.retryAfter, code: 'key_limit_reached' });
        },
        () => scope.note(`not-counted:${counters.kind}`),
      );
    },
    settle(scope, entry, key) {
      const u = usageOf(scope, entry);
      price(scope, entry, u);
      // A refused request counts nothing; one that reached no upstream spent nothing.
      if (!limited(key) || !counters || entry.limit || !u) return undefined;
      // (The line is made: the failure goes onto it directly.)
      return spend(counters, key, { tokens: u.inputTokens + u.outputTokens, cost: entry.cost }, now()).catch(() => {
        const said = `not-counted:${counters.kind}`;
        if (!entry.warnings?.includes(said)) entry.warnings = [...(entry.warnings ?? []), said];
      });
    },
  };
}

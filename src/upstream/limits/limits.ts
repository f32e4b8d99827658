/**
 * A key's limits against its counters (docs/team.md "Limits"). A request is refused once a
 * counter has reached its limit; a refused request counts nothing. Requests are counted when
 * they are let in (atomically where the store is: two instances cannot both take the last
 * one); tokens and cost when the request is over, in the window it ended in — so the request
 * that crosses a token or cost budget is served, and the next one is refused.
 */
import type { KeyLimits } from '../../config/schema.ts';
import type { CounterStore } from './counters.ts';
import { secondsLeft, windowOf, type Window, type WindowKind } from './windows.ts';

type Metric = 'requests' | 'tokens' | 'cost';
type LimitName = keyof KeyLimits;

const LIMITS: ReadonlyArray<{ limit: LimitName; metric: Metric; window: WindowKind; says: (n: number) => string }> = [
  { limit: 'requestsPerMinute', metric: 'requests', window: 'minute', says: (n) => `${n} requests per minute` },
  { limit: 'tokensPerMinute', metric: 'tokens', window: 'minute', says: (n) => `${n} tokens per minute` },
  { limit: 'tokensPerDay', metric: 'tokens', window: 'day', says: (n) => `${n} tokens per day` },
  { limit: 'costPerDay', metric: 'cost', window: 'day', says: (n) => `$${n} per day` },
  { limit: 'costPerMonth', metric: 'cost', window: 'month', says: (n) => `$${n} per month` },
];

/** A limited key: the name its counters go by, and its limits. */
export interface LimitedKey {
  name: string;
  limits: KeyLimits;
}

export interface Refusal {
  /** The limit whose window ends last (the one `retry-after` waits for). */
  limit: LimitName;
  /** Seconds to that window's end. */
  retryAfter: number;
  message: string;
}

const counterKey = (name: string, metric: Metric, w: Window) => `limits:${name}:${metric}:${w.id}`;

function refusal(key: LimitedKey, over: ReadonlyArray<(typeof LIMITS)[number]>, nowMs: number): Refusal {
  let binding = over[0]!;
  for (const l of over) if (windowOf(l.window, nowMs).end > windowOf(binding.window, nowMs).end) binding = l;
  const retryAfter = secondsLeft(windowOf(binding.window, nowMs), nowMs);
  const what = over.map((l) => l.says(key.limits[l.limit]!)).join(' and ');
  return { limit: binding.limit, retryAfter, message: `The key "${key.name}" has reached its limit of ${what}; retry in ${retryAfter} s.` };
}

/** Refuse the request when a counter has reached its limit; else count it. */
export async function admit(store: CounterStore, key: LimitedKey, nowMs: number): Promise<Refusal | undefined> {
  const checks = LIMITS.filter((l) => key.limits[l.limit] !== undefined);
  const spent = checks.filter((l) => l.metric !== 'requests');
  if (spent.length) {
    const values = await store.read(spent.map((l) => counterKey(key.name, l.metric, windowOf(l.window, nowMs))));
    const over = spent.filter((l, i) => values[i]! >= key.limits[l.limit]!);
    if (over.length) return refusal(key, over, nowMs);
  }
  const rpm = checks.find((l) => l.metric === 'requests');
  if (!rpm) return undefined;
  const w = windowOf(rpm.window, nowMs);
  const change = { key: counterKey(key.name, 'requests', w), by: 1, expiresAt: w.end };
  const [n] = await store.add([change]);
  if (n! <= key.limits.requestsPerMinute!) return undefined;
  // Over: this one is not counted after all (each refused request takes its own one back).
  await store.add([{ ...change, by: -1 }]);
  return refusal(key, [rpm], nowMs);
}

/** Count what an admitted request spent: its tokens, and its cost in US dollars when known. */
export async function spend(store: CounterStore, key: LimitedKey, spent: { tokens: number; cost?: number }, nowMs: number): Promise<void> {
  const changes = [];
  for (const l of LIMITS) {
    if (key.limits[l.limit] === undefined || l.metric === 'requests') continue;
    const by = l.metric === 'tokens' ? spent.tokens : spent.cost;
    if (!by) continue;
    const w = windowOf(l.window, nowMs);
    changes.push({ key: counterKey(key.name, l.metric, w), by, expiresAt: w.end });
  }
  if (changes.length) await store.add(changes);
}

/**
 * Prometheus metrics, fed only from the one log entry each request already produces (no extra
 * per-request work when metrics are off: nothing is created). Exposed at `GET /metrics`.
 */
import type { LogEntry } from './scope.ts';

const BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 120000];

class Histogram {
  readonly counts = new Map<string, { buckets: number[]; sum: number; count: number }>();
  observe(labels: string, value: number): void {
    let h = this.counts.get(labels);
    if (!h) this.counts.set(labels, (h = { buckets: BUCKETS_MS.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < BUCKETS_MS.length; i++) if (value <= BUCKETS_MS[i]!) h.buckets[i]!++;
    h.sum += value;
    h.count++;
  }
  render(name: string, help: string): string {
    let out = `# HELP ${name} ${help}\n# TYPE ${name} histogram\n`;
    for (const [labels, h] of this.counts) {
      const sep = labels ? ',' : '';
      BUCKETS_MS.forEach((le, i) => (out += `${name}_bucket{${labels}${sep}le="${le}"} ${h.buckets[i]}\n`));
      out += `${name}_bucket{${labels}${sep}le="+Inf"} ${h.count}\n${name}_sum{${labels}} ${h.sum}\n${name}_count{${labels}} ${h.count}\n`;
    }
    return out;
  }
}

class Counter {
  readonly values = new Map<string, number>();
  add(labels: string, by = 1): void {
    this.values.set(labels, (this.values.get(labels) ?? 0) + by);
  }
  render(name: string, help: string): string {
    let out = `# HELP ${name} ${help}\n# TYPE ${name} counter\n`;
    for (const [labels, v] of this.values) out += `${name}{${labels}} ${v}\n`;
    return out;
  }
}

const NOT_STORED = 'not-stored:';
const NOT_COUNTED = 'not-counted:';

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export class Metrics {
  private readonly requests = new Counter();
  private readonly tokens = new Counter();
  private readonly retries = new Counter();
  private readonly fallbacks = new Counter();
  private readonly notStored = new Counter();
  private readonly keyRequests = new Counter();
  private readonly keyTokens = new Counter();
  private readonly keyCost = new Counter();
  private readonly keyLimited = new Counter();
  private readonly notCounted = new Counter();
  private readonly unpriced = new Counter();
  private readonly latency = new Histogram();
  private readonly ttfb = new Histogram();
  private readonly overhead = new Histogram();

  record(e: LogEntry): void {
    const up = esc(e.upstream ?? 'none');
    const who = `caller="${e.caller}",upstream="${up}"`;
    this.requests.add(`${who},status="${e.status}"`);
    this.latency.observe(who, e.durationMs);
    if (e.ttfbMs !== undefined) this.ttfb.observe(who, e.ttfbMs);
    if (e.upstreamMs !== undefined) this.overhead.observe(who, Math.max(0, e.durationMs - e.upstreamMs));
    if (e.tokensIn) this.tokens.add(`upstream="${up}",direction="in"`, e.tokensIn);
    if (e.tokensOut) this.tokens.add(`upstream="${up}",direction="out"`, e.tokensOut);
    if (e.attempts && e.attempts > 1) this.retries.add(`upstream="${up}"`, e.attempts - 1);
    if (e.fallback) this.fallbacks.add(`upstream="${up}"`);
    // An answer served that the state store failed to keep (`not-stored:KIND`).
    for (const w of e.warnings ?? []) {
      if (w.startsWith(NOT_STORED)) this.notStored.add(`caller="${e.caller}",store="${esc(w.slice(NOT_STORED.length))}"`);
      // A request let in without its key's limits checked or counted (the counter store failed).
      else if (w.startsWith(NOT_COUNTED)) this.notCounted.add(`store="${esc(w.slice(NOT_COUNTED.length))}"`);
    }
    if (e.unpriced) this.unpriced.add(`model="${esc(e.unpriced)}"`);
    if (e.keyName) this.recordKey(e, `key="${esc(e.keyName)}"`);
  }

  /** Who spent what: by the inbound key's name (never the key). */
  private recordKey(e: LogEntry, key: string): void {
    this.keyRequests.add(key);
    if (e.tokensIn) this.keyTokens.add(`${key},direction="in"`, e.tokensIn);
    if (e.tokensOut) this.keyTokens.add(`${key},direction="out"`, e.tokensOut);
    if (e.cost) this.keyCost.add(key, e.cost);
    if (e.limit) this.keyLimited.add(`${key},limit="${e.limit}"`);
  }

  render(): string {
    return [
      this.requests.render('interlingua_requests_total', 'Requests by caller dialect, upstream and status.'),
      this.latency.render('interlingua_request_duration_ms', 'Whole request duration (streams: until the stream ended).'),
      this.ttfb.render('interlingua_time_to_first_byte_ms', 'Time until the first response byte (first token for streams).'),
      this.overhead.render('interlingua_proxy_overhead_ms', 'Request duration minus time spent waiting on the upstream.'),
      this.tokens.render('interlingua_tokens_total', 'Tokens reported by upstreams.'),
      this.retries.render('interlingua_upstream_retries_total', 'Upstream attempts beyond the first.'),
      this.fallbacks.render('interlingua_fallbacks_total', 'Requests served by a fallback upstream.'),
      this.notStored.render('interlingua_state_write_failures_total', 'Answers served that the state store failed to keep (later references to them do not resolve).'),
      this.keyRequests.render('interlingua_key_requests_total', 'Requests by inbound key name.'),
      this.keyTokens.render('interlingua_key_tokens_total', 'Tokens by inbound key name, as upstreams reported them (estimated for streams cut short).'),
      this.keyCost.render('interlingua_key_cost_usd_total', 'US dollars spent by inbound key name (priced requests only).'),
      this.keyLimited.render('interlingua_key_limited_total', 'Requests refused with a 429 by a key limit, by key name and limit.'),
      this.notCounted.render('interlingua_limit_store_failures_total', 'Requests let in without their key limits counted: the counter store failed (limits fail open).'),
      this.unpriced.render('interlingua_unpriced_requests_total', 'Requests whose model has no price (their cost is not counted), by the model sent upstream.'),
    ].join('');
  }
}

/**
 * The Prometheus texts of several processes (`--workers`) as one: each series' samples added up
 * (every metric here is a counter or a histogram), each family's HELP and TYPE once, its samples
 * kept together as the format wants.
 */
export function mergeMetrics(texts: readonly string[]): string {
  const families = new Map<string, { head: string[]; series: Map<string, number> }>();
  for (const text of texts) {
    let current: { head: string[]; series: Map<string, number> } | undefined;
    for (const line of text.split('\n')) {
      if (!line) continue;
      const declared = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (declared) {
        const name = declared[2]!;
        current = families.get(name);
        if (!current) families.set(name, (current = { head: [], series: new Map() }));
        if (!current.head.includes(line)) current.head.push(line);
        continue;
      }
      if (line.startsWith('#') || !current) continue;
      const at = line.lastIndexOf(' ');
      const series = line.slice(0, at);
      current.series.set(series, (current.series.get(series) ?? 0) + Number(line.slice(at + 1)));
    }
  }
  let out = '';
  for (const f of families.values()) {
    out += f.head.join('\n') + '\n';
    for (const [series, v] of f.series) out += `${series} ${v}\n`;
  }
  return out;
}

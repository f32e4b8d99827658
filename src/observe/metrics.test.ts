import { describe, expect, it } from 'vitest';
import type { LogEntry } from './log-entry.ts';
import { Metrics, mergeMetrics } from './metrics.ts';

const entry = (e: Partial<LogEntry>): LogEntry => ({ time: '', requestId: 'r', route: 'messages', caller: 'anthropic', status: 200, durationMs: 5, ...e });
const line = (text: string, series: string) => text.split('\n').find((l) => l.startsWith(series + ' '));

describe('per-key metrics', () => {
  it('requests, tokens and US dollars by key name; refusals by limit; unpriced models; failed counting', () => {
    const m = new Metrics();
    m.record(entry({ keyName: 'team-a', tokensIn: 100, tokensOut: 20, cost: 0.25 }));
    m.record(entry({ keyName: 'team-a', tokensIn: 50, tokensOut: 5, cost: 0.5 }));
    m.record(entry({ keyName: 'team-a', status: 429, limit: 'tokensPerDay' }));
    m.record(entry({ keyName: 'team "b"', tokensIn: 1, unpriced: 'my-model', warnings: ['not-counted:redis'] }));
    m.record(entry({ tokensIn: 7 }));
    const text = m.render();
    expect(line(text, 'interlingua_key_requests_total{key="team-a"}')).toBe('interlingua_key_requests_total{key="team-a"} 3');
    expect(line(text, 'interlingua_key_tokens_total{key="team-a",direction="in"}')).toMatch(/ 150$/);
    expect(line(text, 'interlingua_key_tokens_total{key="team-a",direction="out"}')).toMatch(/ 25$/);
    expect(line(text, 'interlingua_key_cost_usd_total{key="team-a"}')).toMatch(/ 0\.75$/);
    expect(line(text, 'interlingua_key_limited_total{key="team-a",limit="tokensPerDay"}')).toMatch(/ 1$/);
    expect(line(text, 'interlingua_key_requests_total{key="team \\"b\\""}')).toMatch(/ 1$/);
    expect(line(text, 'interlingua_unpriced_requests_total{model="my-model"}')).toMatch(/ 1$/);
    expect(line(text, 'interlingua_limit_store_failures_total{store="redis"}')).toMatch(/ 1$/);
    // No key name, no per-key series.
    expect(text.match(/^interlingua_key_requests_total\{/gm)).toHaveLength(2);
    expect(text).toContain('# TYPE interlingua_key_cost_usd_total counter');
  });
});

describe('metrics of several processes as one', () => {
  it('adds up each series, keeps each family together with its HELP and TYPE once', () => {
    const a = new Metrics();
    const b = new Metrics();
    a.record(entry({ keyName: 'team-a', tokensIn: 10, cost: 0.5, durationMs: 7 }));
    b.record(entry({ keyName: 'team-a', tokensIn: 5, cost: 0.25, durationMs: 300 }));
    b.record(entry({ keyName: 'team-b', tokensIn: 1 }));
    const merged = mergeMetrics([a.render(), b.render()]);
    expect(line(merged, 'interlingua_key_requests_total{key="team-a"}')).toMatch(/ 2$/);
    expect(line(merged, 'interlingua_key_requests_total{key="team-b"}')).toMatch(/ 1$/);
    expect(line(merged, 'interlingua_key_tokens_total{key="team-a",direction="in"}')).toMatch(/ 15$/);
    expect(line(merged, 'interlingua_key_cost_usd_total{key="team-a"}')).toMatch(/ 0\.75$/);
    expect(line(merged, 'interlingua_request_duration_ms_count{caller="anthropic",upstream="none"}')).toMatch(/ 3$/);
    expect(line(merged, 'interlingua_request_duration_ms_bucket{caller="anthropic",upstream="none",le="10"}')).toMatch(/ 2$/);
    expect(merged.match(/^# TYPE interlingua_key_requests_total counter$/gm)).toHaveLength(1);
    // A family's samples follow its TYPE line, none of another family between them.
    const lines = merged.trim().split('\n');
    const start = lines.indexOf('# TYPE interlingua_key_requests_total counter');
    expect(lines.slice(start + 1, start + 3).every((l) => l.startsWith('interlingua_key_requests_total{'))).toBe(true);
    expect(mergeMetrics([a.render()])).toBe(a.render());
  });
});

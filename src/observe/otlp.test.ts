import { describe, expect, it } from 'vitest';
import { OtlpExporter, encodeAttrs, nanos, type SpanData } from './otlp.ts';
import { parseTraceparent, providerName } from './traces.ts';

const span = (i: number): SpanData => ({
  traceId: 'a'.repeat(32),
  spanId: i.toString(16).padStart(16, '0'),
  name: `s${i}`,
  kind: 3,
  startMs: 1_700_000_000_000 + i,
  endMs: 1_700_000_000_010 + i,
  attributes: { n: i },
  status: { code: 0 },
});

/** A fetch that records bodies and answers as told (`hold` keeps every call pending until released). */
function fakeFetch(answer: () => Promise<Response> = async () => new Response('{}')) {
  const bodies: any[] = [];
  const fetch = async (_url: string, init: RequestInit) => {
    bodies.push(JSON.parse(init.body as string));
    return answer();
  };
  return { bodies, fetch };
}

describe('OTLP exporter', () => {
  it('sends a full batch at once, in the OTLP/HTTP JSON shape', async () => {
    const f = fakeFetch();
    const ex = new OtlpExporter({ endpoint: 'http://c:4318/', serviceName: 'svc', maxBatch: 2, intervalMs: 60_000, fetch: f.fetch });
    ex.add(span(1));
    expect(f.bodies).toHaveLength(0);
    ex.add(span(2));
    await ex.flush();
    expect(f.bodies).toHaveLength(1);
    const rs = f.bodies[0].resourceSpans[0];
    expect(rs.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'svc' } });
    const [s] = rs.scopeSpans[0].spans;
    expect(s).toMatchObject({ traceId: 'a'.repeat(32), spanId: '0000000000000001', name: 's1', kind: 3, startTimeUnixNano: '1700000000001000000', endTimeUnixNano: '1700000000011000000' });
    expect(s.attributes).toEqual([{ key: 'n', value: { intValue: '1' } }]);
    expect(ex.stats).toEqual({ exported: 2, dropped: 0, failed: 0, queued: 0 });
  });

  it('the queue is bounded: spans past maxQueue are dropped and counted while an export hangs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const f = fakeFetch(async () => {
      await gate;
      return new Response('{}');
    });
    const ex = new OtlpExporter({ endpoint: 'http://c', serviceName: 's', maxBatch: 4, maxQueue: 8, intervalMs: 60_000, fetch: f.fetch });
    for (let i = 0; i < 4; i++) ex.add(span(i)); // a full batch: its export starts and hangs
    for (let i = 4; i < 30; i++) ex.add(span(i));
    expect(ex.stats.queued).toBe(8);
    expect(ex.stats.dropped).toBe(18);
    release();
    await ex.flush();
    expect(ex.stats).toEqual({ exported: 12, dropped: 18, failed: 0, queued: 0 });
  });

  it('failed exports (refused, non-2xx) are swallowed and counted; flush never rejects', async () => {
    let n = 0;
    const f = fakeFetch(async () => (n++ === 0 ? Promise.reject(new Error('ECONNREFUSED')) : new Response('no', { status: 503 })));
    const ex = new OtlpExporter({ endpoint: 'http://c', serviceName: 's', maxBatch: 1, intervalMs: 60_000, fetch: f.fetch });
    ex.add(span(1));
    ex.add(span(2));
    await expect(ex.flush()).resolves.toBeUndefined();
    expect(ex.stats).toMatchObject({ exported: 0, failed: 2 });
  });

  it('a timer sends what waits, after intervalMs', async () => {
    const f = fakeFetch();
    const ex = new OtlpExporter({ endpoint: 'http://c/v1/traces', serviceName: 's', intervalMs: 10, fetch: f.fetch });
    ex.add(span(1));
    await new Promise((r) => setTimeout(r, 60));
    expect(f.bodies).toHaveLength(1);
  });

  it('nanoseconds as decimal strings, attribute values by type', () => {
    expect(nanos(1_700_000_000_123.5)).toBe('1700000000123500000');
    expect(nanos(0)).toBe('0');
    expect(encodeAttrs({ a: 'x', b: 2, c: 0.5, d: true, e: ['p', 'q'], f: { double: 3 }, g: undefined })).toEqual([
      { key: 'a', value: { stringValue: 'x' } },
      { key: 'b', value: { intValue: '2' } },
      { key: 'c', value: { doubleValue: 0.5 } },
      { key: 'd', value: { boolValue: true } },
      { key: 'e', value: { arrayValue: { values: [{ stringValue: 'p' }, { stringValue: 'q' }] } } },
      { key: 'f', value: { doubleValue: 3 } },
    ]);
  });
});

describe('trace context', () => {
  it('parses W3C traceparent and refuses invalid ones', () => {
    const id = '4bf92f3577b34da6a3ce929d0e0e4736';
    expect(parseTraceparent(`00-${id}-00f067aa0ba902b7-01`)).toEqual({ traceId: id, spanId: '00f067aa0ba902b7', sampled: true });
    expect(parseTraceparent(`00-${id}-00f067aa0ba902b7-00`)?.sampled).toBe(false);
    expect(parseTraceparent(`01-${id}-00f067aa0ba902b7-01-later-fields`)?.traceId).toBe(id);
    for (const bad of [undefined, '', 'garbage', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, `00-${id}-${'0'.repeat(16)}-01`, `ff-${id}-00f067aa0ba902b7-01`, `00-${id}-00f067aa0ba902b7-01-x`]) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
  });

  it('provider names of the GenAI conventions', () => {
    expect(providerName('anthropic')).toBe('anthropic');
    expect(providerName('gemini')).toBe('gcp.gemini');
    expect(providerName('openai-responses')).toBe('openai');
    expect(providerName('gemini', 'vertex')).toBe('gcp.vertex_ai');
    expect(providerName('anthropic', 'bedrock')).toBe('aws.bedrock');
    expect(providerName('openai', 'azure')).toBe('azure.ai.openai');
    expect(providerName('openai', 'mistral')).toBe('mistral_ai');
    expect(providerName('openai', 'groq')).toBe('groq');
  });
});

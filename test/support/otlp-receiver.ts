/**
 * A stand-in OpenTelemetry collector on 127.0.0.1: accepts OTLP/HTTP JSON trace exports
 * (`POST /v1/traces`), keeps every request's headers and body, and flattens the spans so tests
 * can find them by trace and kind.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status: { code?: number };
  /** Attributes as plain values (`intValue` as a number, arrays as arrays). */
  attrs: Record<string, unknown>;
  /** The OTLP attribute list as received. */
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  url: string;
  posts: Array<{ path: string; headers: http.IncomingHttpHeaders; body: any }>;
  spans(): ReceivedSpan[];
  /** Wait until spans matching `pred` number at least `n` (polling; fails after `ms`). */
  waitFor(pred: (s: ReceivedSpan) => boolean, n: number, ms?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

function plain(v: Record<string, any>): unknown {
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('boolValue' in v) return v.boolValue;
  if ('arrayValue' in v) return (v.arrayValue.values ?? []).map(plain);
  return undefined;
}

const attrsOf = (list: Array<{ key: string; value: Record<string, unknown> }> = []) => Object.fromEntries(list.map((a) => [a.key, plain(a.value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const posts: OtlpReceiver['posts'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      posts.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const spans = (): ReceivedSpan[] =>
    posts.flatMap((p) =>
      (p.body?.resourceSpans ?? []).flatMap((rs: any) =>
        (rs.scopeSpans ?? []).flatMap((ss: any) => (ss.spans ?? []).map((s: any) => ({ ...s, attrs: attrsOf(s.attributes), resource: attrsOf(rs.resource?.attributes) }))),
      ),
    );
  return {
    url,
    posts,
    spans,
    async waitFor(pred, n, ms = 5000) {
      const until = Date.now() + ms;
      for (;;) {
        const found = spans().filter(pred);
        if (found.length >= n || Date.now() > until) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * Load (500 concurrent translated streams, every event in order, memory back to baseline) and
 * caller disconnects (the upstream connection closes within a bound, streaming or not).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureText } from '../support/fixtures.ts';
import { fixtureReply, splitSse, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';
import { requestFor, sseData } from './callers.ts';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

let mock: MockUpstream;
let proxy: RunningProxy;

beforeAll(async () => {
  mock = await startMockUpstream();
  proxy = await startProxy({ ...e2eConfig(mock.url), log: { requests: false } });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

/** The text an Anthropic stream fixture carries, in order. */
function expectedText(): string {
  return sseData(fixtureText('anthropic', 'stream-text-basic.sse'))
    .map((e) => JSON.parse(e.data))
    .filter((d) => d.type === 'content_block_delta' && d.delta.type === 'text_delta')
    .map((d) => d.delta.text)
    .join('');
}

async function oneStream(): Promise<{ text: string; done: boolean; chunks: number }> {
  const [url, init] = requestFor('openai-chat', proxy.url, 'to-anthropic', true);
  const res = await fetch(url, init);
  const body = await res.text();
  const events = sseData(body);
  let text = '';
  for (const e of events) if (e.data !== '[DONE]') text += JSON.parse(e.data).choices?.[0]?.delta?.content ?? '';
  return { text, done: events.at(-1)?.data === '[DONE]', chunks: events.length };
}

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

describe('load', () => {
  it('500 concurrent streams: every caller gets every event in order and a proper close', async () => {
    mock.reply({ ...fixtureReply('anthropic', 'stream-text-basic.sse'), delayMs: 2 });
    const want = expectedText();
    for (let i = 0; i < 20; i++) await oneStream(); // warm-up
    const baseline = heapMb();
    const results = await Promise.all(Array.from({ length: 500 }, oneStream));
    for (const r of results) {
      expect(r.done).toBe(true);
      expect(r.text).toBe(want);
    }
    await new Promise((r) => setTimeout(r, 200));
    const after = heapMb();
    // Back to the post-warm-up baseline, within a margin for allocator noise.
    expect(after - baseline).toBeLessThan(Math.max(15, baseline * 0.25));
  }, 60_000);
});

describe('caller disconnect', () => {
  it('mid-stream: the upstream connection closes promptly', async () => {
    const chunks = splitSse(fixtureText('anthropic', 'stream-text-basic.sse'));
    mock.reply({ headers: { 'content-type': 'text/event-stream' }, chunks: [...chunks, ...Array(200).fill(': keep-alive\n\n')], delayMs: 100 });
    mock.requests.length = 0;
    const ac = new AbortController();
    const [url, init] = requestFor('openai-chat', proxy.url, 'to-anthropic', true);
    const res = await fetch(url, { ...init, signal: ac.signal });
    const reader = res.body!.getReader();
    await reader.read();
    const abortedAt = Date.now();
    ac.abort();
    await mock.requests[0]!.closed;
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
  });

  it('before the first byte: the upstream request is aborted', async () => {
    mock.reply({ hang: true });
    mock.requests.length = 0;
    const ac = new AbortController();
    const [url, init] = requestFor('anthropic', proxy.url, 'to-openai', false);
    const pending = fetch(url, { ...init, signal: ac.signal }).catch(() => undefined);
    while (mock.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    const abortedAt = Date.now();
    ac.abort();
    await pending;
    await mock.requests[0]!.closed;
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(mock.requests).toHaveLength(1);
  });
});

/**
 * A fault-injecting upstream, per caller dialect: what the caller sees (status and shape), how
 * many upstream attempts were made, and that nothing hangs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureText } from '../support/fixtures.ts';
import { fixtureReply, splitSse, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';
import { CALLERS, call, errorMessage, streamClosedCleanly, streamEndedWithError } from './callers.ts';

let mock: MockUpstream;
let proxy: RunningProxy;

const fast = { firstByteMs: 400, idleMs: 400 };
const retry = { attempts: 3, baseDelayMs: 5, maxDelayMs: 1500, budgetMs: 5000 };

beforeAll(async () => {
  mock = await startMockUpstream();
  const cfg = e2eConfig(mock.url);
  for (const u of Object.values(cfg.upstreams)) Object.assign(u, { timeouts: fast, retry });
  proxy = await startProxy({
    ...cfg,
    upstreams: {
      ...cfg.upstreams,
      dead: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-dead-upstream-key', timeouts: fast, retry },
    },
    models: {
      ...cfg.models,
      'dead-model': { upstream: 'dead' },
      fallback: { upstream: ['openai', { upstream: 'anthropic', model: 'claude-x' }] },
    },
  });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});
beforeEach(() => {
  mock.requests.length = 0;
});

const openaiText = fixtureReply('openai-chat', 'text-basic.json');

describe.each(CALLERS)('faults, %s caller', (dialect) => {
  it('connection refused → 502 in the caller shape, after every attempt', async () => {
    const r = await call(dialect, proxy.url, 'dead-model');
    expect(r.status).toBe(502);
    expect(errorMessage(dialect, r.json)).toBe('Upstream unreachable (connection refused).');
    // The address and port are the operator's to know: in the log line, nowhere in the answer.
    expect(JSON.stringify(r.json)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|localhost/);
    const log = JSON.parse(proxy.logs.at(-1)!);
    expect(log.attempts).toBe(3);
    expect(log.error).toMatch(/^upstream: Upstream unreachable \(connection refused\)\. \(.*ECONNREFUSED 127\.0\.0\.1:\d+.*\)$/);
  });

  it('hang → 504 after the first-byte timeout on each attempt', async () => {
    mock.reply({ hang: true });
    const started = Date.now();
    const r = await call(dialect, proxy.url, 'to-openai');
    expect(r.status).toBe(504);
    expect(errorMessage(dialect, r.json)).toMatch(/within 400 ms/);
    expect(mock.requests).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('429 with retry-after is retried after the wait, then succeeds', async () => {
    mock.reply((_req, n) =>
      n === 1
        ? { ...fixtureReply('openai-chat', 'error-429-rate-limit-tpm.json'), headers: { 'content-type': 'application/json', 'retry-after': '1' } }
        : openaiText,
    );
    const started = Date.now();
    const r = await call(dialect, proxy.url, 'to-openai');
    expect(r.status).toBe(200);
    expect(mock.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('persistent 5xx → the upstream status in the caller shape, retried to the limit', async () => {
    mock.reply({ status: 500, body: '{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}' });
    const r = await call(dialect, proxy.url, 'to-openai');
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(errorMessage(dialect, r.json)).toContain('The server had an error');
    expect(mock.requests).toHaveLength(3);
  });

  it('a 400 caused by the request is never retried', async () => {
    mock.reply(fixtureReply('openai-chat', 'error-400-unsupported-parameter.json'));
    const r = await call(dialect, proxy.url, 'to-openai');
    expect(r.status).toBe(400);
    expect(errorMessage(dialect, r.json)).toBeTruthy();
    expect(mock.requests).toHaveLength(1);
  });

  it.each([
    ['non-JSON body', { body: '<html>oops</html>' }],
    ['truncated JSON', { body: fixtureText('openai-chat', 'text-basic.json').slice(0, 40) }],
    ['JSON of the wrong shape', { body: '{"hello":"world"}' }],
    ['a 200 with an error inside', { body: '{"error":{"message":"upstream broke","type":"server_error"}}' }],
  ])('upstream garbage (%s) → 502 in the caller shape', async (_name, reply) => {
    mock.reply({ status: 200, headers: { 'content-type': 'application/json' }, ...reply });
    const r = await call(dialect, proxy.url, 'to-openai');
    expect(r.status).toBe(502);
    expect(errorMessage(dialect, r.json)).toBeTruthy();
  });

  it('stream cut mid-frame → an error event, then a proper close', async () => {
    const chunks = splitSse(fixtureText('openai-chat', 'stream-text-basic.sse'));
    mock.reply({ headers: { 'content-type': 'text/event-stream' }, chunks: [...chunks.slice(0, 3), chunks[3]!.slice(0, 30)], destroy: true });
    const r = await call(dialect, proxy.url, 'to-openai', true);
    expect(r.status).toBe(200);
    expect(streamEndedWithError(dialect, r.text)).toBe(true);
  });

  it('stream that stops without its terminator ends with an error event and closes properly', async () => {
    const chunks = splitSse(fixtureText('anthropic', 'stream-text-basic.sse'));
    mock.reply({ headers: { 'content-type': 'text/event-stream' }, chunks: chunks.slice(0, 5) });
    const r = await call(dialect, proxy.url, 'to-anthropic', true);
    expect(r.status).toBe(200);
    expect(streamEndedWithError(dialect, r.text)).toBe(true);
  });

  it('an OpenAI stream with neither finish_reason nor [DONE] is an error, not a clean end', async () => {
    const chunks = splitSse(fixtureText('openai-chat', 'stream-text-basic.sse')).filter((c) => !/finish_reason":"|\[DONE\]/.test(c));
    mock.reply({ headers: { 'content-type': 'text/event-stream' }, chunks });
    const r = await call(dialect, proxy.url, 'to-openai', true);
    expect(r.status).toBe(200);
    expect(streamEndedWithError(dialect, r.text)).toBe(true);
    expect(r.text).toMatch(/ended before it was complete/);
  });

  it.each([
    ['vLLM', '{"object":"error","message":"worker crashed","type":"InternalServerError","param":null,"code":500}'],
    ['OpenAI-compatible', '{"error":{"message":"worker crashed","type":"server_error","code":null}}'],
  ])('an in-stream error object (%s) reaches the caller as its error event', async (name, frame) => {
    const chunks = splitSse(fixtureText('openai-chat', 'stream-text-basic.sse'));
    mock.reply({ headers: { 'content-type': 'text/event-stream' }, chunks: [chunks[0]!, `data: ${frame}\n\n`, 'data: [DONE]\n\n'] });
    const r = await call(dialect, proxy.url, 'to-openai', true);
    expect(r.text).toMatch(/worker crashed/);
    // Same dialect: the upstream's frames are forwarded byte for byte, vLLM's as it wrote it.
    if (dialect === 'openai-chat' && name === 'vLLM') return;
    expect(streamEndedWithError(dialect, r.text)).toBe(true);
  });

  it('slow drip within the idle timeout is delivered whole', async () => {
    mock.reply({ ...fixtureReply('openai-chat', 'stream-text-basic.sse'), delayMs: 50 });
    const r = await call(dialect, proxy.url, 'to-openai', true);
    expect(streamClosedCleanly(dialect, r.text)).toBe(true);
  });

  it('a stream idle past the timeout → error event and close', async () => {
    const chunks = splitSse(fixtureText('openai-chat', 'stream-text-basic.sse'));
    mock.reply({ headers: { 'content-type': 'text/event-stream' }, chunks: [chunks[0]!, chunks[1]!, ...chunks.slice(2)], delayMs: 900 });
    const started = Date.now();
    const r = await call(dialect, proxy.url, 'to-openai', true);
    expect(streamEndedWithError(dialect, r.text)).toBe(true);
    expect(r.text).toMatch(/idle/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('falls back to the next upstream (another dialect) and says which served it', async () => {
    mock.reply((req) =>
      req.url.startsWith('/v1/chat/completions')
        ? { status: 503, body: '{"error":{"message":"overloaded","type":"server_error"}}' }
        : fixtureReply('anthropic', 'text-basic.json'),
    );
    const r = await call(dialect, proxy.url, 'fallback');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-interlingua-upstream')).toBe('anthropic');
    const urls = mock.requests.map((q) => q.url);
    expect(urls.filter((u) => u === '/v1/chat/completions')).toHaveLength(3);
    expect(urls.at(-1)).toBe('/v1/messages');
    expect(mock.requests.at(-1)!.json.model).toBe('claude-x');
  });
});

describe('passthrough completes a last frame the upstream left open', () => {
  it('an Anthropic stream whose final event lacks its blank line still ends with message_stop', async () => {
    const text = fixtureText('anthropic', 'stream-text-basic.sse');
    expect(text.endsWith('\n\n')).toBe(false);
    mock.reply(fixtureReply('anthropic', 'stream-text-basic.sse'));
    const r = await call('anthropic', proxy.url, 'claude-sonnet-4-5', true);
    expect(streamClosedCleanly('anthropic', r.text)).toBe(true);
    expect(r.text.endsWith('\n\n')).toBe(true);
  });
});

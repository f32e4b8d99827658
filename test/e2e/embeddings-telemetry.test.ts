/**
 * Embeddings in OpenTelemetry: an `embeddings.create` through Interlingua (Node and workerd) with
 * `telemetry` on gives one SERVER span and one CLIENT span per upstream call, named and
 * attributed as the GenAI `embeddings` operation, with the tokens the upstream reported.
 */
import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.ts';
import { INBOUND_KEY, TARGETS, e2eConfig, useHarness } from '../support/proxy.ts';
import { openaiEmbeddingsReply } from './embeddings-helpers.ts';

describe.each(TARGETS)('%s: embeddings traces', (target) => {
  let otlp: OtlpReceiver;
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
  });
  afterAll(() => otlp?.close());
  const h = useHarness(target, (mockUrl) => ({
    ...e2eConfig(mockUrl),
    models: { 'text-embedding-3-small': { upstream: 'openai' } },
    telemetry: { otlp: { endpoint: otlp.url, intervalMs: 20 } },
  }));

  it('one server span and one client span, operation embeddings, the input tokens', async () => {
    h.mock.reply(openaiEmbeddingsReply);
    const traceId = randomBytes(16).toString('hex');
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] }, { headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } });
    const spans = await otlp.waitFor((s: ReceivedSpan) => s.traceId === traceId, 2);
    const server = spans.find((s) => s.kind === 2)!;
    const upstream = spans.find((s) => s.kind === 3)!;
    expect(server.name).toBe('embeddings text-embedding-3-small');
    expect(server.attrs).toMatchObject({ 'gen_ai.operation.name': 'embeddings', 'gen_ai.request.model': 'text-embedding-3-small', 'gen_ai.usage.input_tokens': 6 });
    expect(upstream.name).toBe('embeddings text-embedding-3-small');
    expect(upstream.attrs['gen_ai.operation.name']).toBe('embeddings');
  });
});

/**
 * The official `openai` SDK as the caller, through a real Interlingua server, against an
 * OpenAI-dialect mock upstream replaying captured fixtures.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson, fixtureText } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, e2eConfig, startProxy, useHarness } from '../support/proxy.ts';

const ask = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user' as const, content: 'Say hello' }],
  ...extra,
});

describe.each(TARGETS)('%s: openai SDK → Interlingua → OpenAI upstream', (target) => {
  const h = useHarness(target);
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });

  it('non-stream: the SDK gets the upstream completion, the upstream gets the upstream key', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
    const expected = fixtureJson('openai-chat', 'text-basic.json');
    const res = await client.chat.completions.create(ask());
    expect(res.choices[0]!.message.content).toBe(expected.choices[0].message.content);
    expect(res.usage?.total_tokens).toBe(expected.usage.total_tokens);
    expect(h.mock.requests).toHaveLength(1);
    expect(h.mock.requests[0]!.url).toBe('/v1/chat/completions');
    expect(h.mock.requests[0]!.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.openai}`);
    expect(h.mock.requests[0]!.json.messages).toEqual(ask().messages);
  });

  it('stream: every chunk arrives and the text reassembles', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'stream-text-basic.sse'));
    const stream = await client.chat.completions.create({ ...ask(), stream: true });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    const expectedText = fixtureText('openai-chat', 'stream-text-basic.sse')
      .split('\n')
      .filter((l) => l.startsWith('data: {'))
      .map((l) => JSON.parse(l.slice(6)).choices[0]?.delta?.content ?? '')
      .join('');
    expect(text).toBe(expectedText);
    expect(chunks).toBeGreaterThan(2);
  });

  it('.stream() helper: finalChatCompletion() assembles parallel tool calls', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'stream-parallel-tool-calls.sse'));
    const req = fixtureJson('openai-chat', 'parallel-tool-calls.request.json');
    const runner = client.chat.completions.stream({ ...req, model: 'gpt-4o' });
    const final = await runner.finalChatCompletion();
    const calls = final.choices[0]!.message.tool_calls!;
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const c of calls) {
      expect(c.type).toBe('function');
      if (c.type === 'function') expect(() => JSON.parse(c.function.arguments)).not.toThrow();
    }
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('non-stream parallel tool calls', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'parallel-tool-calls.json'));
    const req = fixtureJson('openai-chat', 'parallel-tool-calls.request.json');
    const res = await client.chat.completions.create({ ...req, model: 'gpt-4o' });
    const expected = fixtureJson('openai-chat', 'parallel-tool-calls.json');
    expect(res.choices[0]!.message.tool_calls).toEqual(expected.choices[0].message.tool_calls);
  });

  it('structured output: the json_schema response_format reaches upstream and the JSON comes back', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'structured-output-json-schema.json'));
    const req = fixtureJson('openai-chat', 'structured-output-json-schema.request.json');
    const res = await client.chat.completions.create({ ...req, model: 'gpt-4o' });
    expect(h.mock.requests[0]!.json.response_format).toEqual(req.response_format);
    expect(() => JSON.parse(res.choices[0]!.message.content!)).not.toThrow();
  });

  it('include_usage: the usage chunk with empty choices reaches the SDK', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'stream-text-basic.sse'));
    const stream = await client.chat.completions.create({ ...ask(), stream: true, stream_options: { include_usage: true } });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage?.total_tokens).toBeGreaterThan(0);
  });

  it('upstream 429: SDK RateLimitError with the status and retry-after kept', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'error-429-rate-limit-tpm.json', { headers: { 'content-type': 'application/json', 'retry-after': '2' } }));
    const err = await client.chat.completions.create(ask()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as InstanceType<typeof OpenAI.RateLimitError>).status).toBe(429);
    expect((err as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after')).toBe('2');
    expect((err as Error).message).toContain('Rate limit reached');
  });

  it('upstream 401 and 404 map to the SDK error classes', async () => {
    h.mock.reply(fixtureReply('openai-chat', 'error-401-invalid-api-key.json'));
    expect(await client.chat.completions.create(ask()).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.AuthenticationError);
    h.mock.reply(fixtureReply('openai-chat', 'error-404-model-not-found.json'));
    expect(await client.chat.completions.create(ask()).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('wrong inbound key: 401 before anything is sent upstream', async () => {
    const bad = new OpenAI({ apiKey: 'wrong', baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    const err = await bad.chat.completions.create(ask()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(h.mock.requests).toHaveLength(0);
  });

  it('bad input: invalid JSON and out-of-range parameters are 400s naming the problem', async () => {
    const res = await fetch(`${h.proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('invalid_request_error');
    const err = await client.chat.completions.create({ ...ask(), temperature: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('temperature');
    expect(h.mock.requests).toHaveLength(0);
  });

  it('unknown model and unknown route are 404s in OpenAI shape', async () => {
    const err = await client.chat.completions.create({ ...ask(), model: 'mistral-large' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    const res = await fetch(`${h.proxy.url}/v1/nothing-here`, { headers: { authorization: `Bearer ${INBOUND_KEY}` } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('/v1/nothing-here');
  });

  it('upstream unreachable → 502 in OpenAI shape', async () => {
    const dead = await startProxy(e2eConfig('http://127.0.0.1:9'), {}, target);
    try {
      const c = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${dead.url}/v1`, maxRetries: 0 });
      const err = await c.chat.completions.create(ask()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    } finally {
      await dead.close();
    }
  });

  it('models.list shows the configured models; responses carry x-request-id; logs hold no key', async () => {
    const page = await client.models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids).toContain('to-anthropic');
    const { response } = await client.models.list().withResponse();
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const line = JSON.parse(h.proxy.logs.at(-1)!);
    expect(line).toMatchObject({ route: 'models', status: 200 });
    for (const l of h.proxy.logs) for (const k of Object.values(UPSTREAM_KEYS)) expect(l).not.toContain(k);
  });
});

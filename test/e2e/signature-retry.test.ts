/**
 * A replayed reasoning signature the upstream refuses (a conversation moved to another model):
 * the proxy retries once on the same upstream without the signed reasoning and says so in the
 * loss report, instead of failing the turn. The official Anthropic SDK is the caller.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { fixtureReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';

const refusal = {
  status: 400,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'messages.1.content.0: Invalid `signature` in `thinking` block' } }),
};

const history = [
  { role: 'user' as const, content: 'What is 2+2?' },
  {
    role: 'assistant' as const,
    content: [
      { type: 'thinking' as const, thinking: 'Simple arithmetic.', signature: 'EqQBCkgIARABGAIiQL-old-model-signature' },
      { type: 'text' as const, text: '4', citations: null },
    ],
  },
  { role: 'user' as const, content: 'And 3+3?' },
];

describe.each(TARGETS)('%s: a refused reasoning signature', (target) => {
  const h = useHarness(target);

  it('is retried once without the signed reasoning, and the loss is reported', async () => {
    h.mock.reply((_req, n) => (n === 1 ? refusal : fixtureReply('anthropic', 'text-basic.json')));
    const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
    const { data, response } = await client.messages
      .create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: history })
      .withResponse();
    expect(data.content[0]).toMatchObject({ type: 'text' });
    expect(h.mock.requests).toHaveLength(2);
    expect(JSON.stringify(h.mock.requests[0]!.json.messages)).toContain('old-model-signature');
    const retried = h.mock.requests[1]!.json.messages as Array<{ content: Array<{ type: string }> }>;
    expect(retried[1]!.content.map((c) => c.type)).toEqual(['text']);
    expect(JSON.stringify(retried)).not.toContain('signature');
    expect(response.headers.get('x-interlingua-warnings')).toContain('dropped:messages[1].reasoning=signature-refused');
  });

  it('any other 400 is the caller’s answer, with no retry', async () => {
    h.mock.reply(fixtureReply('anthropic', 'error-400-invalid-request.json'));
    const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
    await expect(client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: history })).rejects.toMatchObject({ status: 400 });
    expect(h.mock.requests).toHaveLength(1);
  });

  it('a refusal with no signed reasoning in the request is not retried', async () => {
    h.mock.reply(refusal);
    const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
    await expect(client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 400 });
    expect(h.mock.requests).toHaveLength(1);
  });
});

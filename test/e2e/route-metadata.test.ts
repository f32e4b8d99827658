/**
 * Route metadata (docs/configuration.md "Route metadata"): a `models` entry's `contextWindow`,
 * `maxOutputTokens` and forced `reasoning`, advertised by the model lists in each caller's shape
 * (OpenAI's `data[]`, Codex's `models[]` catalogue, Anthropic's `max_input_tokens`/`max_tokens`,
 * Gemini's token limits) and the forced reasoning applied to the requests on that route, a
 * same-dialect one included (it is then translated, not forwarded as the caller's bytes).
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { responsesReply, startMockUpstream, type MockUpstream } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, responsesE2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';

const anthropicText = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } }),
};

function config(mockUrl: string) {
  const base = responsesE2eConfig(mockUrl);
  return {
    ...base,
    models: {
      ...base.models,
      'big-claude': { upstream: 'anthropic', model: 'claude-sonnet-4-5', contextWindow: 1_000_000, maxOutputTokens: 64_000, reasoning: { budgetTokens: 4096 } },
      'deep-gpt': { upstream: 'responses', model: 'gpt-5', contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: { effort: 'high' } },
      'quick-gpt': { upstream: 'responses', model: 'gpt-5', reasoning: { effort: 'none' } },
      'gemini-long': { upstream: 'gemini', model: 'gemini-2.5-pro', contextWindow: 1_048_576, maxOutputTokens: 65_536 },
    },
  };
}

describe.each(TARGETS)('%s: route metadata', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  let mock: MockUpstream;
  let proxy: RunningProxy;
  beforeAll(async () => {
    mock = await startMockUpstream();
    proxy = await startProxy(config(mock.url), {}, target);
  });
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
    mock.reply({ status: 404, body: '{}' });
  });

  it('OpenAI list and Codex catalogue: token limits, and a forced effort as the only level', async () => {
    const res = await fetch(`${proxy.url}/v1/models?client_version=0.171.0`, { headers: { authorization: `Bearer ${INBOUND_KEY}` } });
    const list = (await res.json()) as { data: any[]; models: any[] };
    expect(list.data.find((m) => m.id === 'deep-gpt')).toEqual({ id: 'deep-gpt', object: 'model', created: 0, owned_by: 'responses', context_window: 400_000, max_output_tokens: 128_000 });
    expect(list.data.find((m) => m.id === 'to-openai')).toEqual({ id: 'to-openai', object: 'model', created: 0, owned_by: 'openai' });
    const codex = list.models.find((m) => m.slug === 'deep-gpt');
    expect(codex).toMatchObject({ context_window: 400_000, default_reasoning_level: 'high', supported_reasoning_levels: [{ effort: 'high' }] });
    expect(list.models.find((m) => m.slug === 'big-claude')).toMatchObject({ context_window: 1_000_000, default_reasoning_level: 'medium' });
    expect(list.models.find((m) => m.slug === 'to-openai')).not.toHaveProperty('context_window');
    // Through the SDK as well.
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    expect(await client.models.retrieve('big-claude')).toMatchObject({ id: 'big-claude', context_window: 1_000_000, max_output_tokens: 64_000 });
  });

  it('Anthropic list: max_input_tokens and max_tokens', async () => {
    const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: proxy.url, maxRetries: 0 });
    const all: Anthropic.ModelInfo[] = [];
    for await (const m of client.models.list()) all.push(m);
    expect(all.find((m) => m.id === 'big-claude')).toMatchObject({ max_input_tokens: 1_000_000, max_tokens: 64_000 });
    expect(all.find((m) => m.id === 'to-anthropic')).toMatchObject({ max_input_tokens: null, max_tokens: null });
  });

  it('Gemini list: inputTokenLimit and outputTokenLimit', async () => {
    const ai = new GoogleGenAI({ apiKey: INBOUND_KEY, httpOptions: { baseUrl: proxy.url } });
    const all = [];
    for await (const m of await ai.models.list()) all.push(m);
    expect(all.find((m) => m.name === 'models/gemini-long')).toMatchObject({ inputTokenLimit: 1_048_576, outputTokenLimit: 65_536 });
  });

  it('a forced thinking budget reaches Anthropic whatever the caller asked, and is reported', async () => {
    mock.reply(anthropicText);
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: 'big-claude', messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'low' }).withResponse();
    expect(mock.requests[0]!.json.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(response.headers.get('x-interlingua-warnings')).toContain('approximated:reasoning=route');
  });

  it('a forced effort reaches a Responses upstream of the caller’s own dialect (translated, not forwarded)', async () => {
    const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    mock.reply(responsesReply({ id: 'resp_up1', items: [{ type: 'message', text: 'ok' }] }, false));
    // Big enough to take the forwarding path on a route without forced reasoning (flows/forward/).
    const input = `${'context '.repeat(2000)}\nhi`;
    await client.responses.create({ model: 'deep-gpt', input, reasoning: { effort: 'low' } });
    expect(mock.requests[0]!.json).toMatchObject({ model: 'gpt-5', reasoning: { effort: 'high' } });
    mock.requests.length = 0;
    await client.responses.create({ model: 'quick-gpt', input: 'hi' });
    expect(mock.requests[0]!.json.reasoning).toMatchObject({ effort: 'none' });
  });
});

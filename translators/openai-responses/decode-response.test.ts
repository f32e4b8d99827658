import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest, type WebSearchPart } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';

const req: ChatRequest = { model: 'caller', system: [], messages: [], stream: false };
const decode = (name: string) => decodeResponse(fixtureJson('openai-responses', name), req, testContext());

describe('decodeResponse', () => {
  it('reasoning (summary + encrypted content as an OpenAI signature), then the answer; usage with reasoning tokens', () => {
    const res = decode('reasoning-encrypted-function-call.json');
    const body = fixtureJson('openai-responses', 'reasoning-encrypted-function-call.json');
    expect(res.id).toBe(body.id);
    expect(res.model).toBe('gpt-5-mini-2025-08-07');
    expect(res.created).toBe(body.created_at);
    const [reasoning, text] = res.choices[0]!.content;
    expect(reasoning).toEqual({ type: 'reasoning', text: body.output[0].summary[0].text, signature: { origin: 'openai', value: body.output[0].encrypted_content } });
    expect(text).toMatchObject({ type: 'text' });
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'stop', raw: 'completed' });
    expect(res.usage).toEqual({ inputTokens: 865, outputTokens: 163, totalTokens: 1028, cachedInputTokens: 0, reasoningTokens: 128 });
  });

  it('a freeform tool call keeps its raw input and ends as tool calls', () => {
    const res = decode('custom-tool-call.json');
    expect(res.choices[0]!.content).toEqual([{ type: 'tool-call', id: 'call_custom_sql_001', name: 'write_sql', arguments: 'SELECT * FROM users WHERE age > 25', custom: true }]);
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
  });

  it('the Codex turn: two summaries joined, text, freeform patch', () => {
    const res = decode('codex-reasoning-summaries-apply-patch.json');
    expect(res.choices[0]!.content.map((p) => p.type)).toEqual(['reasoning', 'text', 'tool-call']);
    expect((res.choices[0]!.content[0] as { text: string }).text).toBe('**Locating the greeting**\n\nThe function lives in src/greet.ts.\n\n**Editing it**\n\nA one-line patch is enough.');
    expect(res.usage).toMatchObject({ cachedInputTokens: 4864, reasoningTokens: 192 });
  });

  it('web searches are parts in their place (the item kept for a Responses caller); annotations as citations', () => {
    const res = decode('web-search-hosted-tool-annotations.json');
    const choice = res.choices[0]!;
    expect(choice.extras).toBeUndefined();
    expect(choice.content.map((p) => (p.type === 'web-search' ? p.kind : p.type))).toEqual(['reasoning', 'search', 'reasoning', 'fetch', 'reasoning', 'fetch', 'reasoning', 'text']);
    const search = choice.content[1] as WebSearchPart;
    const item = fixtureJson('openai-responses', 'web-search-hosted-tool-annotations.json').output[1];
    expect(search).toMatchObject({ id: item.id, kind: 'search', queries: [item.action.query], raw: { dialect: 'openai-responses', value: item } });
    expect(search.results.map((r) => r.url)).toEqual(item.action.sources.map((s: { url: string }) => s.url));
    const text = choice.content.find((p) => p.type === 'text')!;
    expect(text.citations?.length).toBeGreaterThan(0);
    const first = text.citations![0]!;
    expect(first).toMatchObject({ url: expect.any(String), span: { start: expect.any(Number), end: expect.any(Number) }, raw: { dialect: 'openai-responses', value: { type: 'url_citation' } } });
    expect(first.url).toBe((first.raw!.value as { url: string }).url);
  });

  it('incomplete answers and refusals', () => {
    expect(decode('incomplete-max-output-tokens.json').choices[0]!.finishReason).toEqual({ unified: 'length', raw: 'max_output_tokens' });
    const refusal = decode('refusal.json').choices[0]!;
    expect(refusal.content).toEqual([{ type: 'refusal', text: "I'm sorry, but I can't help with that." }]);
    expect(refusal.finishReason).toEqual({ unified: 'refusal', raw: 'completed' });
  });

  it('a failed Response is its error; a body of another shape is an upstream error', () => {
    const failed = { object: 'response', id: 'r', status: 'failed', output: [], error: { code: 'rate_limit_exceeded', message: 'Slow down. Please try again in 20ms.' } };
    expect(() => decodeResponse(failed, req, testContext())).toThrow(ProxyError);
    try {
      decodeResponse(failed, req, testContext());
    } catch (e) {
      expect(e).toMatchObject({ kind: 'rate-limit', code: 'rate_limit_exceeded', retryAfter: 0.02 });
    }
    for (const bad of [{ object: 'chat.completion', choices: [] }, { object: 'response' }, [], null]) {
      expect(() => decodeResponse(bad, req, testContext())).toThrow(expect.objectContaining({ kind: 'upstream' }));
    }
  });

  it('phased messages (commentary, final answer) are both kept as text', () => {
    const res = decode('message-phases.json');
    expect(res.choices[0]!.content.filter((p) => p.type === 'text')).toHaveLength(2);
  });

  it('a sparse Response: ids, names, texts and time filled in; the error keeps the bytes of a body of another shape', () => {
    const res = decodeResponse(
      {
        object: 'response',
        status: 'completed',
        output: [
          { type: 'message', role: 'assistant', content: [{ type: 'output_text' }, { type: 'refusal' }, { type: 'output_audio' }] },
          { type: 'function_call', id: 'fc_1' },
          { type: 'reasoning', summary: [] },
        ],
      },
      req,
      testContext(),
    );
    expect(res).toMatchObject({ id: 'resp_test0001', model: 'caller', created: 1_700_000_000 });
    expect(res.choices[0]!.content).toEqual([
      { type: 'text', text: '' },
      { type: 'refusal', text: '' },
      { type: 'tool-call', id: 'fc_1', name: '', arguments: '' },
      { type: 'reasoning', text: '' },
    ]);
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
    try {
      decodeResponse({ object: 'chat.completion', choices: [] }, req, testContext());
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ message: 'The upstream returned a body that is not a Response.', raw: '{"object":"chat.completion","choices":[]}' });
    }
  });
});

describe('decodeResponse: logprobs, odd items, usage', () => {
  const lp = (token: string) => [{ token, logprob: -1, top_logprobs: [] }];
  const body = (output: unknown[], over: Record<string, unknown> = {}) => ({ object: 'response', id: 'resp_1', model: 'm', created_at: 3, status: 'completed', output, ...over });

  it('log probabilities of every output text, in order; none is no logprobs at all', () => {
    const res = decodeResponse(
      body([
        { type: 'message', content: [{ type: 'output_text', text: 'A', logprobs: lp('A') }, { type: 'refusal', refusal: 'r' }] },
        { type: 'message', content: [{ type: 'output_text', text: 'B', logprobs: lp('B') }, { type: 'output_text', text: 'C', logprobs: [] }] },
      ]),
      req,
      testContext(),
    );
    expect(res.choices[0]!.logprobs).toEqual({ content: [{ token: 'A', logprob: -1, top: [] }, { token: 'B', logprob: -1, top: [] }] });
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'stop', raw: 'completed' });
    expect(decodeResponse(body([{ type: 'message', content: [{ type: 'output_text', text: 'A' }] }]), req, testContext()).choices[0]).not.toHaveProperty('logprobs');
  });

  it('an item this dialect cannot read is kept like a built-in, at its place; citations only when there are some', () => {
    const odd = { type: 'message', content: 'not a list' };
    const res = decodeResponse(body([{ type: 'message', content: [{ type: 'output_text', text: 'A', annotations: [] }] }, odd, { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }]), req, testContext());
    expect(res.choices[0]!.content).toEqual([{ type: 'text', text: 'A' }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }]);
    expect(res.choices[0]!.extras).toEqual({ dialect: 'openai-responses', fields: { hosted: [{ at: 1, item: odd }] } });
    expect(decodeResponse(body([]), req, testContext()).choices[0]).not.toHaveProperty('extras');
  });

  it('usage only when given; an incomplete Response without a reason', () => {
    const res = decodeResponse(body([], { usage: { input_tokens: 4, output_tokens: 1, total_tokens: 5, input_tokens_details: { cached_tokens: 2, cache_write_tokens: 1 } } }), req, testContext());
    expect(res).toEqual({ id: 'resp_1', model: 'm', created: 3, choices: [{ index: 0, content: [], finishReason: { unified: 'stop', raw: 'completed' } }], usage: { inputTokens: 4, outputTokens: 1, totalTokens: 5, cachedInputTokens: 2, cacheWriteTokens: 1 } });
    expect(decodeResponse(body([]), req, testContext())).not.toHaveProperty('usage');
    expect(decodeResponse(body([], { status: 'incomplete', incomplete_details: null }), req, testContext()).choices[0]!.finishReason).toEqual({ unified: 'other', raw: 'incomplete' });
  });

  it('a failed Response without an error object is still its error', () => {
    expect(() => decodeResponse(body([], { status: 'failed' }), req, testContext())).toThrow(expect.objectContaining({ kind: 'upstream', message: 'The upstream response failed.', raw: JSON.stringify(body([], { status: 'failed' })) }));
  });
});

import { describe, expect, test } from 'vitest';
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';

const req: ChatRequest = { model: 'asked', system: [], messages: [], stream: false };
const decode = (body: unknown, r = req) => decodeResponse(body, r, testContext());

describe('decodeResponse: fixtures', () => {
  test('text-basic', () => {
    expect(decode(fixtureJson('openai-chat', 'text-basic.json'))).toEqual({
      id: 'chatcmpl-ABfvaueLEMLNYbT8YzpJxsmiQ6HSY',
      model: 'gpt-4o-2024-08-06',
      created: 1727346142,
      choices: [
        {
          index: 0,
          content: [
            {
              type: 'text',
              text: "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or app like the Weather Channel or a local news station.",
            },
          ],
          finishReason: { unified: 'stop', raw: 'stop' },
        },
      ],
      usage: { inputTokens: 14, outputTokens: 37, totalTokens: 51, reasoningTokens: 0 },
      extras: { dialect: 'openai-chat', fields: { system_fingerprint: 'fp_b40fb1c6fb' } },
    });
  });

  test('text-modern-usage: details, service_tier, empty annotations', () => {
    const res = decode(fixtureJson('openai-chat', 'text-modern-usage.json'));
    expect(res.usage).toEqual({ inputTokens: 16, outputTokens: 363, totalTokens: 379, cachedInputTokens: 0, reasoningTokens: 0 });
    expect(res.extras?.fields).toEqual({ system_fingerprint: 'fp_de604bd877', service_tier: 'default' });
    expect(res.choices[0]!.content[0]).not.toHaveProperty('citations');
  });

  test('usage-cached-and-reasoning-tokens', () => {
    const usage = fixtureJson('openai-chat', 'usage-cached-and-reasoning-tokens.json');
    const res = decode({ id: 'x', choices: [], usage });
    expect(res.usage).toEqual({ inputTokens: 6226, outputTokens: 1411, totalTokens: 7637, cachedInputTokens: 1152, reasoningTokens: 768 });
  });

  test('finish-length', () => {
    const res = decode(fixtureJson('openai-chat', 'finish-length.json'));
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'length', raw: 'length' });
    expect(res.choices[0]!.content).toEqual([{ type: 'text', text: '{"' }]);
  });

  test('structured-output-json-schema', () => {
    const res = decode(fixtureJson('openai-chat', 'structured-output-json-schema.json'));
    expect(JSON.parse((res.choices[0]!.content[0] as { text: string }).text)).toEqual({ city: 'San Francisco', temperature: 65, units: 'f' });
  });

  test('n3-multiple-choices', () => {
    const res = decode(fixtureJson('openai-chat', 'n3-multiple-choices.json'));
    expect(res.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(res.choices[2]!.content).toEqual([{ type: 'text', text: '{"city":"San Francisco","temperature":63.0,"units":"f"}' }]);
  });

  test('refusal → refusal part, unified refusal', () => {
    const res = decode(fixtureJson('openai-chat', 'refusal.json'));
    expect(res.choices[0]!.content).toEqual([{ type: 'refusal', text: "I'm very sorry, but I can't assist with that." }]);
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'refusal', raw: 'stop' });
  });

  test('tool-call-single and parallel-tool-calls', () => {
    const one = decode(fixtureJson('openai-chat', 'tool-call-single.json'));
    expect(one.choices[0]!.content).toEqual([
      { type: 'tool-call', id: 'call_Y6qJ7ofLgOrBnMD5WbVAeiRV', name: 'GetWeatherArgs', arguments: '{"city":"Edinburgh","country":"UK","units":"c"}' },
    ]);
    expect(one.choices[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
    const two = decode(fixtureJson('openai-chat', 'parallel-tool-calls.json'));
    expect(two.choices[0]!.content.map((p) => (p as { id: string }).id)).toEqual(['call_fdNz3vOBKYgOIpMdWotB9MjY', 'call_h1DWI1POMJLb0KwIyQHWXD4p']);
  });

  test('azure-content-filter: null content, filter results kept', () => {
    const res = decode(fixtureJson('openai-chat', 'azure-content-filter.json'));
    expect(res.choices[0]!.content).toEqual([]);
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'content-filter', raw: 'content_filter' });
    expect(res.choices[0]!.extras?.fields['content_filter_results']).toMatchObject({ violence: { filtered: true, severity: 'medium' } });
    expect(res.extras?.fields['prompt_filter_results']).toHaveLength(1);
    expect(res.usage).toEqual({ inputTokens: 82, outputTokens: 34, totalTokens: 116 });
  });
});

describe('decodeResponse: other shapes', () => {
  test('reasoning_content (DeepSeek), annotations, logprobs, audio, legacy function_call, Gemini signature', () => {
    const res = decode(
      {
        id: 'r1',
        created: 5,
        model: 'deepseek-reasoner',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              reasoning_content: 'thinking',
              content: 'See docs.',
              annotations: [{ type: 'url_citation', url_citation: { start_index: 0, end_index: 3, url: 'https://d', title: 'D' } }],
              audio: { id: 'audio_1', data: 'UklG', transcript: 'See docs.', expires_at: 9 },
              tool_calls: [
                { id: 'call_g', type: 'function', function: { name: 'f', arguments: '{}' }, extra_content: { google: { thought_signature: 'sig' } } },
              ],
            },
            logprobs: { content: [{ token: 'See', logprob: -0.1, bytes: [83], top_logprobs: [] }], refusal: null },
            finish_reason: 'tool_calls',
          },
          { index: 1, message: { role: 'assistant', content: null, function_call: { name: 'old', arguments: '{}' } }, finish_reason: 'function_call' },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_cache_hit_tokens: 4 },
      },
      { ...req, extras: { dialect: 'openai-chat', fields: { audio: { format: 'wav', voice: 'alloy' } } } },
    );
    expect(res.choices[0]!.content).toEqual([
      { type: 'reasoning', text: 'thinking' },
      {
        type: 'text',
        text: 'See docs.',
        citations: [
          {
            url: 'https://d',
            title: 'D',
            span: { start: 0, end: 3 },
            raw: { dialect: 'openai-chat', value: { type: 'url_citation', url_citation: { start_index: 0, end_index: 3, url: 'https://d', title: 'D' } } },
          },
        ],
      },
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' }, format: 'wav' },
      { type: 'tool-call', id: 'call_g', name: 'f', arguments: '{}', signature: { origin: 'gemini', value: 'sig' } },
    ]);
    expect(res.choices[0]!.logprobs).toMatchObject({ content: [{ token: 'See' }] });
    expect(res.choices[0]!.extras?.fields['audio']).toMatchObject({ id: 'audio_1', transcript: 'See docs.' });
    expect(res.choices[1]!.content).toEqual([{ type: 'tool-call', id: 'call_test0001', name: 'old', arguments: '{}' }]);
    expect(res.choices[1]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'function_call' });
    expect(res.usage?.cachedInputTokens).toBe(4);
  });

  test('audio output: its format is the one the caller asked for, wav when it named none', () => {
    const audioReply = { id: 'r', created: 1, model: 'gpt-4o-audio-preview', choices: [{ index: 0, message: { role: 'assistant', content: null, audio: { id: 'audio_1', data: 'SUQz', transcript: 'hi', expires_at: 9 } }, finish_reason: 'stop' }] };
    const asking = (audio: unknown): ChatRequest => ({ ...req, extras: { dialect: 'openai-chat', fields: { audio } } });
    const audioPart = (r: ChatRequest) => decode(audioReply, r).choices[0]!.content.find((p) => p.type === 'audio');
    expect(audioPart(asking({ format: 'mp3', voice: 'alloy' }))).toEqual({ type: 'audio', source: { type: 'base64', mediaType: 'audio/mpeg', data: 'SUQz' }, format: 'mp3' });
    // A format without a known media type keeps its name in the media type.
    expect(audioPart(asking({ format: 'pcm16', voice: 'alloy' }))).toEqual({ type: 'audio', source: { type: 'base64', mediaType: 'audio/pcm16', data: 'SUQz' }, format: 'pcm16' });
    for (const r of [req, asking('mp3'), asking({ voice: 'alloy' }), asking({ format: 3 }), { ...req, extras: { dialect: 'anthropic', fields: { audio: { format: 'mp3' } } } } as ChatRequest]) {
      expect(audioPart(r)).toMatchObject({ source: { mediaType: 'audio/wav' }, format: 'wav' });
    }
  });

  test('a body that is not a chat completion keeps its bytes on the error', () => {
    try {
      decode({ choices: 'no' });
      expect.unreachable();
    } catch (e) {
      expect((e as ProxyError).message).toBe('The upstream returned a body that is not a chat completion.');
      expect((e as ProxyError).raw).toBe('{"choices":"no"}');
    }
  });

  test('content as an array of parts (Mistral thinking)', () => {
    const res = decode({
      id: 'm1',
      choices: [
        {
          message: { role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }, { type: 'text', text: 'Yes.' }] },
          finish_reason: 'stop',
        },
      ],
    });
    expect(res.choices[0]!.content).toEqual([
      { type: 'reasoning', text: 'hmm' },
      { type: 'text', text: 'Yes.' },
    ]);
  });

  test('missing id/model/created are synthesized', () => {
    const res = decode({ choices: [{ message: { content: 'x' }, finish_reason: 'stop' }] });
    expect(res).toMatchObject({ id: 'chatcmpl-test0001', model: 'asked', created: 1_700_000_000 });
    expect(res.usage).toBeUndefined();
  });

  test.each([null, 'x', 1, [], {}, { choices: 'no' }, { choices: [{ message: 5 }] }])('garbage %j → upstream ProxyError', (body) => {
    expect(() => decode(body)).toThrow(ProxyError);
    try {
      decode(body);
    } catch (e) {
      expect((e as ProxyError).kind).toBe('upstream');
    }
  });
});

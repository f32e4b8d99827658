import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { encodeRequest } from './encode-request.ts';
import { encodePassthrough } from './passthrough.ts';

const requestFixtures = readdirSync(fileURLToPath(new URL('./__fixtures__/', import.meta.url))).filter((f) =>
  f.endsWith('.request.json'),
);

const target = (model = 'gpt-4o-2024-08-06'): UpstreamTarget => ({
  name: 'openai',
  model,
  apiKey: 'sk-test',
  options: { headers: { 'x-extra': '1' } },
});

const decode = (body: unknown) => decodeRequest({ body, headers: {}, params: {}, query: {} }, testContext()).value;

function encode(req: ChatRequest, t = target()) {
  const { value, warnings } = encodeRequest(req, t);
  return { http: value, body: JSON.parse(value.body as string) as Record<string, any>, warnings };
}

const baseReq: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

describe('round trip of every request fixture: decodeRequest → encodeRequest', () => {
  test.each(requestFixtures)('%s', (name) => {
    const wire = fixtureJson('openai-chat', name);
    const { body, http, warnings } = encode(decode(wire), target(wire.model));
    const expected = { ...wire };
    if (expected.max_tokens !== undefined) {
      expected.max_completion_tokens = expected.max_tokens;
      delete expected.max_tokens;
    }
    if (expected.stream) expected.stream_options = { include_usage: true };
    expect(body).toEqual(expected);
    expect(warnings).toEqual([]);
    expect(http).toMatchObject({
      method: 'POST',
      path: '/chat/completions',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', 'x-extra': '1' },
      stream: wire.stream === true,
    });
  });
});

describe('encodeRequest', () => {
  test('canonical → wire → canonical keeps everything the dialect carries', () => {
    const req: ChatRequest = {
      model: 'gpt-4o-2024-08-06',
      system: [{ type: 'text', text: 'be brief' }, { type: 'text', text: 'be kind' }],
      messages: [
        {
          role: 'user',
          name: 'bob',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', source: { type: 'url', url: 'https://x/a.png' }, detail: 'high' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBOR' } },
            { type: 'audio', source: { type: 'base64', mediaType: 'audio/mpeg', data: 'SUQz' }, format: 'mp3' },
            { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, filename: 'a.pdf' },
            { type: 'file', source: { type: 'file-id', id: 'file-1' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'calling' },
            { type: 'refusal', text: 'partly no' },
            { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"a":1}' },
            { type: 'tool-call', id: 'call_2', name: 'g', arguments: '{}' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'one' }] },
            { type: 'tool-result', callId: 'call_2', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
      ],
      tools: [{ name: 'f', description: 'F', parameters: { type: 'object' }, strict: true }, { name: 'g' }],
      toolChoice: { type: 'tool', name: 'f' },
      parallelToolCalls: false,
      maxOutputTokens: 100,
      temperature: 0.2,
      topP: 0.5,
      stop: ['x'],
      seed: 3,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      candidateCount: 2,
      logprobs: true,
      topLogprobs: 2,
      responseFormat: { type: 'json-schema', name: 's', description: 'd', schema: { type: 'object' }, strict: true },
      reasoning: { effort: 'low' },
      modalities: ['text'],
      stream: true,
      streamUsage: true,
      user: 'u',
      metadata: { a: 'b' },
      extras: { dialect: 'openai-chat', fields: { logit_bias: { '1': 2 }, service_tier: 'flex' } },
    };
    const { body, warnings } = encode(req);
    expect(warnings).toEqual([]);
    expect(body.messages[0]).toEqual({ role: 'system', content: [{ type: 'text', text: 'be brief' }, { type: 'text', text: 'be kind' }] });
    expect(body.messages[1].content[2]).toEqual({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } });
    expect(body.messages[1].content[3]).toEqual({ type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } });
    expect(body.messages[1].content[4]).toEqual({ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBER', filename: 'a.pdf' } });
    expect(body.messages[2]).toEqual({
      role: 'assistant',
      content: 'calling',
      refusal: 'partly no',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
        { id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } },
      ],
    });
    expect(body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'one' });
    expect(body.messages[4]).toEqual({ role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] });
    expect(body).toMatchObject({
      max_completion_tokens: 100,
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
      n: 2,
      reasoning_effort: 'low',
      stream: true,
      stream_options: { include_usage: true },
      logit_bias: { '1': 2 },
      service_tier: 'flex',
    });
    const back = decode(body);
    expect(back).toEqual({ ...req, model: 'gpt-4o-2024-08-06' });
  });

  test('stream_options.include_usage is always sent for streams', () => {
    expect(encode({ ...baseReq, stream: true }).body.stream_options).toEqual({ include_usage: true });
    expect(encode({ ...baseReq, stream: false }).body.stream_options).toBeUndefined();
  });

  test('foreign signatures and reasoning are dropped with warnings', () => {
    const { body, warnings } = encode({
      ...baseReq,
      messages: [
        baseReq.messages[0]!,
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'think', signature: { origin: 'anthropic', value: 's' } },
            { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'r' } },
            { type: 'reasoning', text: 'plain' },
            { type: 'text', text: 'hi', signature: { origin: 'gemini', value: 'g' } },
            { type: 'tool-call', id: 'c', name: 'f', arguments: '{}', signature: { origin: 'gemini', value: 'g' } },
          ],
        },
      ],
    });
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: 'hi',
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
    expect(warnings.map((w) => `${w.code}:${w.path}`)).toEqual([
      'signature-not-replayed:messages[1].content[0]',
      'signature-not-replayed:messages[1].content[1]',
      'signature-not-replayed:messages[1].content[3]',
      'signature-not-replayed:messages[1].content[4]',
    ]);
  });

  test('tool result with an image: the image follows in a user message', () => {
    const { body, warnings } = encode({
      ...baseReq,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'tool-result',
              callId: 'c1',
              isError: true,
              content: [
                { type: 'text', text: 'see' },
                { type: 'image', source: { type: 'url', url: 'https://x/i.png' } },
              ],
            },
            { type: 'text', text: 'and?' },
          ],
        },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'see' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://x/i.png' } },
          { type: 'text', text: 'and?' },
        ],
      },
    ]);
    expect(warnings.map((w) => w.code)).toEqual(['approximated', 'dropped']);
  });

  test('unsupported media throws with the part named', () => {
    const withPart = (part: any): ChatRequest => ({ ...baseReq, messages: [{ role: 'user', content: [part] }] });
    const cases = [
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/ogg', data: 'x' } },
      { type: 'audio', source: { type: 'url', url: 'https://x/a.wav' }, format: 'wav' },
      { type: 'image', source: { type: 'file-id', id: 'f' } },
      { type: 'file', source: { type: 'url', url: 'https://x/a.pdf' } },
    ];
    for (const part of cases) {
      try {
        encode(withPart(part));
        throw new Error('expected unsupported');
      } catch (e) {
        expect(e).toBeInstanceOf(ProxyError);
        expect((e as ProxyError).kind).toBe('unsupported');
        expect((e as ProxyError).param).toBe('messages[0].content[0]');
      }
    }
  });

  test('approximations: allowed tools, topK, budget-only reasoning, foreign extras, native tools', () => {
    const { body, warnings } = encode({
      ...baseReq,
      tools: [{ name: 'a' }, { name: 'b' }],
      toolChoice: { type: 'allowed', names: ['a', 'b'], mode: 'required' },
      topK: 40,
      reasoning: { budgetTokens: 8000, includeThoughts: true },
      nativeTools: [{ dialect: 'gemini', definition: { googleSearch: {} } }],
      modalities: ['text', 'image'],
      topLogprobs: 30,
      logprobs: true,
      stop: ['1', '2', '3', '4', '5'],
      extras: { dialect: 'anthropic', fields: { top_k: 3 } },
    });
    expect(body).toMatchObject({ tool_choice: 'required', reasoning_effort: 'medium', modalities: ['text'], top_logprobs: 20, stop: ['1', '2', '3', '4'] });
    expect(body.top_k).toBeUndefined();
    expect(body.topK).toBeUndefined();
    expect(warnings.map((w) => `${w.code}:${w.path}`).sort()).toEqual(
      [
        'dropped:top_k',
        'approximated:toolChoice',
        'dropped:nativeTools[0]',
        'dropped:topK',
        'dropped:stop',
        'clamped:topLogprobs',
        'dropped:reasoning.includeThoughts',
        'approximated:reasoning.budgetTokens',
        'dropped:modalities',
      ].sort(),
    );
    expect(encode({ ...baseReq, tools: [{ name: 'a' }], toolChoice: { type: 'allowed', names: ['a'], mode: 'required' } }).body.tool_choice).toEqual({
      type: 'function',
      function: { name: 'a' },
    });
  });

  test('what strict mode reads: each dropped meaning is lossy, each approximation says what it became', () => {
    const { warnings } = encode({
      ...baseReq,
      tools: [{ name: 'a' }, { name: 'b' }],
      toolChoice: { type: 'allowed', names: ['a', 'b'], mode: 'auto' },
      topK: 40,
      reasoning: { budgetTokens: 20000 },
      nativeTools: [{ dialect: 'gemini', definition: { googleSearch: {} } }, { dialect: 'anthropic', definition: { type: 'web_search_20250305', name: 'web_search' }, path: 'tools[2]' }],
      modalities: ['text', 'image'],
      topLogprobs: 21,
      stop: ['1', '2', '3', '4', '5'],
    });
    expect(warnings).toEqual([
      { code: 'approximated', path: 'toolChoice', detail: 'allowed→auto' },
      { code: 'dropped', path: 'nativeTools[0]', detail: 'googleSearch', lossy: true },
      { code: 'dropped', path: 'tools[2]', detail: 'web_search', lossy: true },
      { code: 'dropped', path: 'topK', lossy: true },
      { code: 'dropped', path: 'stop', detail: 'more than 4 sequences', lossy: true },
      { code: 'clamped', path: 'topLogprobs', detail: '20' },
      { code: 'approximated', path: 'reasoning.budgetTokens', detail: 'reasoning_effort=high' },
      { code: 'dropped', path: 'modalities', detail: 'image', lossy: true },
    ]);
    // At the limits nothing is lost.
    const limits = encode({ ...baseReq, topLogprobs: 20, stop: ['1', '2', '3', '4'] });
    expect(limits.warnings).toEqual([]);
    expect(limits.body).toMatchObject({ top_logprobs: 20, stop: ['1', '2', '3', '4'] });
  });

  test('tool_choice without tools: a forced choice is dropped and reported, none and auto are simply left out', () => {
    for (const tools of [undefined, []]) {
      const forced = encode({ ...baseReq, tools, toolChoice: { type: 'required' } });
      expect(forced.body.tool_choice).toBeUndefined();
      expect(forced.body.tools).toBeUndefined();
      expect(forced.warnings).toEqual([{ code: 'dropped', path: 'toolChoice', detail: 'no tools', lossy: true }]);
      expect(encode({ ...baseReq, tools, toolChoice: { type: 'tool', name: 'a' } }).warnings).toHaveLength(1);
      for (const type of ['none', 'auto'] as const) expect(encode({ ...baseReq, tools, toolChoice: { type } }).warnings).toEqual([]);
    }
    expect(encode({ ...baseReq, tools: [{ name: 'a' }], toolChoice: { type: 'none' } }).body.tool_choice).toBe('none');
  });

  test('response_format: text, json_object, json_schema named "response" when unnamed', () => {
    expect(encode({ ...baseReq, responseFormat: { type: 'text' } }).body.response_format).toEqual({ type: 'text' });
    expect(encode({ ...baseReq, responseFormat: { type: 'json' } }).body.response_format).toEqual({ type: 'json_object' });
    expect(encode({ ...baseReq, responseFormat: { type: 'json-schema', schema: { type: 'object' } } }).body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: { type: 'object' } },
    });
  });

  test('Anthropic cache_control markers are not sent, and reported once', () => {
    const eph = { ttl: '5m' as const };
    const { body, warnings } = encode({
      ...baseReq,
      system: [{ type: 'text', text: 'cached system', cache: eph }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache: eph }] }],
      tools: [{ name: 'a', cache: eph }],
    });
    expect(JSON.stringify(body)).not.toMatch(/cache_?control/i);
    expect(warnings.filter((w) => w.path === 'cache_control')).toEqual([{ code: 'dropped', path: 'cache_control' }]);
  });

  test.each([
    [{ enabled: false }, 'none'],
    [{ budgetTokens: 0 }, 'none'],
    [{ budgetTokens: 1024 }, 'low'],
    [{ budgetTokens: 4095 }, 'low'],
    [{ budgetTokens: 4096 }, 'medium'],
    [{ budgetTokens: 16383 }, 'medium'],
    [{ budgetTokens: 16384 }, 'high'],
    [{ budgetTokens: 32000 }, 'high'],
    [{ budgetTokens: -1 }, undefined],
    [{ effort: 'minimal' }, 'minimal'],
  ] as const)('reasoning %j → reasoning_effort %s', (reasoning, effort) => {
    expect(encode({ ...baseReq, reasoning }).body.reasoning_effort).toBe(effort);
  });

  test('parallel_tool_calls only with tools; assistant audio id; names kept', () => {
    const { body } = encode({
      ...baseReq,
      parallelToolCalls: true,
      messages: [
        { role: 'user', name: 'u', content: [{ type: 'text', text: 'x' }] },
        { role: 'assistant', name: 'a', content: [{ type: 'audio', source: { type: 'file-id', id: 'audio_9' } }] },
      ],
    });
    expect(body.parallel_tool_calls).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'user', content: 'x', name: 'u' },
      { role: 'assistant', content: null, name: 'a', audio: { id: 'audio_9' } },
    ]);
  });

  test('extras of this dialect are replayed, stream_options merged', () => {
    const { body } = encode({
      ...baseReq,
      stream: true,
      extras: { dialect: 'openai-chat', fields: { store: true, stream_options: { include_obfuscation: false } } },
    });
    expect(body.store).toBe(true);
    expect(body.stream_options).toEqual({ include_obfuscation: false, include_usage: true });
  });
});

describe('encodePassthrough', () => {
  const input = (body: any) => ({ body, headers: { 'openai-organization': 'org-1', authorization: 'Bearer caller' }, params: {}, query: {} });
  test('same model: raw bytes forwarded unchanged', () => {
    const raw = '{"model": "gpt-4o",  "messages": [], "stream": true}';
    const out = encodePassthrough(input(JSON.parse(raw)), raw, target('gpt-4o'));
    expect(out.body).toBe(raw);
    expect(out.stream).toBe(true);
    expect(out.path).toBe('/chat/completions');
    expect(out.headers).toMatchObject({ authorization: 'Bearer sk-test', 'openai-organization': 'org-1' });
  });
  test("the caller's OpenAI headers are forwarded unless the upstream sets its own", () => {
    const t = { ...target('gpt-4o'), options: { headers: { 'openai-organization': 'org-upstream' } } };
    const req = { body: { model: 'gpt-4o', messages: [] }, headers: { 'openai-organization': 'org-caller', 'openai-project': 'proj-1', 'openai-beta': 'assistants=v2', 'x-other': 'no' }, params: {}, query: {} };
    const out = encodePassthrough(req, '{"model":"gpt-4o","messages":[]}', t);
    expect(out.headers).toMatchObject({ 'openai-organization': 'org-upstream', 'openai-project': 'proj-1', 'openai-beta': 'assistants=v2' });
    expect(out.headers['x-other']).toBeUndefined();
  });
  test('a body that is not an object goes out as its bytes, for the upstream to refuse', () => {
    for (const [body, raw] of [[[1, 2], '[1,2]'], [null, 'null'], ['x', '"x"']] as const) {
      for (const options of [{}, { maxTokensField: 'max_tokens' as const }]) {
        const out = encodePassthrough({ body, headers: {}, params: {}, query: {} }, raw, { ...target('gpt-4o'), options });
        expect(out.body).toBe(raw);
        expect(out.stream).toBe(false);
      }
    }
  });
  test('renamed model: re-serialized with the new model', () => {
    const raw = '{"model":"alias","messages":[{"role":"user","content":"x"}]}';
    const out = encodePassthrough(input(JSON.parse(raw)), raw, target('gpt-4o'));
    expect(JSON.parse(out.body as string)).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    expect(out.stream).toBe(false);
  });
});

describe("a session's prompt_cache_key (options.promptCacheKey)", () => {
  const keyed = (): UpstreamTarget => ({ ...target(), options: { promptCacheKey: 'feedc0de' } });

  test('is sent when the request has none, and never over the caller’s own', () => {
    expect(encode(baseReq, keyed()).body['prompt_cache_key']).toBe('feedc0de');
    expect(encode(baseReq).body).not.toHaveProperty('prompt_cache_key');
    const own = decode({ model: 'm', messages: [{ role: 'user', content: 'hi' }], prompt_cache_key: 'mine' });
    expect(encode(own, keyed()).body['prompt_cache_key']).toBe('mine');
  });

  test('is added on the passthrough path too, the body otherwise as it was', () => {
    const raw = '{"model":"gpt-4o-2024-08-06","messages":[{"role":"user","content":"hi"}]}';
    const input = (body: unknown) => ({ body, headers: {}, params: {}, query: {} });
    expect(JSON.parse(encodePassthrough(input(JSON.parse(raw)), raw, keyed()).body as string)).toEqual({ ...JSON.parse(raw), prompt_cache_key: 'feedc0de' });
    expect(encodePassthrough(input(JSON.parse(raw)), raw, target()).body).toBe(raw);
    const mine = '{"model":"gpt-4o-2024-08-06","messages":[],"prompt_cache_key":"mine"}';
    expect(encodePassthrough(input(JSON.parse(mine)), mine, keyed()).body).toBe(mine);
  });
});

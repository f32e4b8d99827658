import { describe, expect, test } from 'vitest';
import { decodeSignature, decodeToolCallId, type ChatRequest, type ChatResponse, type Citation, encodeSignature, type Choice } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeResponse } from './encode-response.ts';
import { encodeModelList } from './model-list.ts';
import type { OpenAIChatExtras } from './legacy.ts';
import { decodeAnnotation } from './citations.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [], stream: false };

const encode = (res: ChatResponse, r = req) => encodeResponse(res, r, testContext()) as any;

describe('encodeResponse', () => {
  test.each([
    'text-basic.json',
    'text-modern-usage.json',
    'finish-length.json',
    'n3-multiple-choices.json',
    'refusal.json',
    'tool-call-single.json',
    'parallel-tool-calls.json',
    'structured-output-json-schema.json',
  ])('%s: decode → encode reproduces the real body', (name) => {
    const wire = fixtureJson('openai-chat', name);
    const out = encode(decodeResponse(wire, req, testContext()));
    // Fields the proxy always writes in today's shape (2024 fixtures predate them).
    for (const c of wire.choices) {
      c.message.annotations ??= [];
      c.message.refusal ??= null;
      c.message.content ??= null;
    }
    wire.usage = {
      ...wire.usage,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    };
    expect(out).toEqual(wire);
  });

  test('Azure: content and prompt filter results and the fingerprint pass through from the same dialect only', () => {
    const wire = fixtureJson('openai-chat', 'azure-content-filter.json');
    const decoded = decodeResponse(wire, req, testContext());
    const out = encode(decoded);
    expect(out.choices[0].content_filter_results).toEqual(wire.choices[0].content_filter_results);
    expect(out.choices[0].finish_reason).toBe('content_filter');
    expect(out.prompt_filter_results).toEqual(wire.prompt_filter_results);
    expect(out.system_fingerprint).toBe('fp_2f57f81c11');
    // The same fields under another dialect's extras are not Chat fields.
    const foreign = encode({
      ...decoded,
      extras: { dialect: 'anthropic', fields: { ...decoded.extras!.fields } },
      choices: decoded.choices.map((c) => ({ ...c, extras: { dialect: 'anthropic', fields: { ...c.extras?.fields } } })),
    } as ChatResponse);
    expect(Object.keys(foreign)).not.toContain('prompt_filter_results');
    expect(Object.keys(foreign)).not.toContain('system_fingerprint');
    expect(Object.keys(foreign.choices[0])).not.toContain('content_filter_results');
  });

  test('audio from another vendor becomes message.audio with an id and an expiry an hour on; a file reference does not', () => {
    const res = (source: unknown): ChatResponse => ({
      id: 'r',
      model: 'gemini-x',
      created: 1,
      choices: [{ index: 0, content: [{ type: 'text', text: 'Hi.' }, { type: 'audio', source, format: 'wav' } as never], finishReason: { unified: 'stop' } }],
    });
    const msg = encode(res({ type: 'base64', mediaType: 'audio/wav', data: 'UklG' })).choices[0].message;
    expect(msg).toMatchObject({ content: 'Hi.', audio: { id: 'audio_test0001', data: 'UklG', expires_at: 1_700_000_000 + 3600, transcript: '' } });
    expect(Object.keys(encode(res({ type: 'file-id', id: 'audio_1' })).choices[0].message)).not.toContain('audio');
  });

  test('only the citations Chat Completions wrote become annotations, as written', () => {
    const chat = { type: 'url_citation', url_citation: { start_index: 0, end_index: 2, url: 'https://a', title: 'A' } };
    const citations: Citation[] = [
      decodeAnnotation(chat),
      { url: 'https://flat', span: { start: 0, end: 1 }, raw: { dialect: 'openai-responses', value: { type: 'url_citation', url: 'https://flat', start_index: 0, end_index: 1 } } },
      { url: 'https://b', raw: { dialect: 'anthropic', value: { type: 'web_search_result_location', url: 'https://b' } } },
      { url: 'https://c' },
    ];
    const out = encode({ id: 'r', model: 'm', created: 1, choices: [{ index: 0, content: [{ type: 'text', text: 'Hi', citations } as never], finishReason: { unified: 'stop' } }] });
    expect(out.choices[0].message.annotations).toEqual([chat]);
  });

  test('reasoning from another vendor: reasoning_content + reasoning_details carrier, round trip through a request', () => {
    const sig = { origin: 'anthropic' as const, value: 'EqQBsig' };
    const redacted = { origin: 'anthropic' as const, value: 'opaque' };
    const res: ChatResponse = {
      id: 'msg_01abc',
      model: 'claude-x',
      created: 10,
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: 'Let me think.', signature: sig },
            { type: 'reasoning', text: '', redacted },
            { type: 'text', text: 'Answer' },
            { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '{}', signature: { origin: 'gemini', value: 'g' } },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        },
      ],
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 3, reasoningTokens: 2 },
    };
    const out = encode(res);
    expect(out.id).toBe('chatcmpl-msg_01abc');
    const message = out.choices[0].message;
    expect(message.reasoning_content).toBe('Let me think.');
    expect(message.reasoning_details.map((d: any) => d.type)).toEqual(['reasoning.text', 'reasoning.encrypted']);
    expect(decodeSignature(message.reasoning_details[0].signature)).toEqual(sig);
    expect(decodeSignature(message.reasoning_details[1].data)).toEqual(redacted);
    expect(decodeToolCallId(message.tool_calls[0].id)).toEqual({ id: 'toolu_1', signature: { origin: 'gemini', value: 'g' } });
    expect(out.choices[0].finish_reason).toBe('tool_calls');
    expect(out.usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 3, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 2, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
    // The caller echoes the message back: the next request restores the exact blocks.
    const next = decodeRequest(
      { body: { model: 'm', messages: [{ role: 'user', content: 'q' }, message] }, headers: {}, params: {}, query: {} },
      testContext(),
    ).value;
    expect(next.messages[1]!.content).toEqual(res.choices[0]!.content);
  });

  test('refusal unified → stop with message.refusal; promptBlocked → content_filter choice', () => {
    const out = encode({
      id: 'chatcmpl-1',
      model: 'm',
      created: 1,
      choices: [{ index: 0, content: [{ type: 'refusal', text: 'No.' }], finishReason: { unified: 'refusal', raw: 'refusal' } }],
    });
    expect(out.choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: null, refusal: 'No.', annotations: [] },
      logprobs: null,
      finish_reason: 'stop',
    });
    const blocked = encode({ id: 'x', model: 'm', created: 1, choices: [], promptBlocked: { reason: 'SAFETY' } });
    expect(blocked.choices[0].finish_reason).toBe('content_filter');
  });

  test('legacy functions caller gets function_call', () => {
    const legacy: ChatRequest = { ...req, extras: { dialect: 'openai-chat', fields: {}, legacyFunctions: true } as OpenAIChatExtras };
    const out = encode(
      {
        id: 'chatcmpl-1',
        model: 'm',
        created: 1,
        choices: [{ index: 0, content: [{ type: 'tool-call', id: 'c', name: 'f', arguments: '{"x":1}' }], finishReason: { unified: 'tool-calls' } }],
      },
      legacy,
    );
    expect(out.choices[0].message.function_call).toEqual({ name: 'f', arguments: '{"x":1}' });
    expect(out.choices[0].message.tool_calls).toBeUndefined();
    expect(out.choices[0].finish_reason).toBe('function_call');
  });

  test('annotations: only url_citation shapes; logprobs; extras audio', () => {
    const out = encode({
      id: 'chatcmpl-1',
      model: 'm',
      created: 1,
      choices: [
        {
          index: 0,
          content: [{ type: 'text', text: 'hi', citations: [decodeAnnotation({ type: 'url_citation', url_citation: { url: 'u' } }), { raw: { dialect: 'anthropic', value: { type: 'char_location' } } }] }],
          finishReason: { unified: 'stop', raw: 'stop' },
          logprobs: { content: [{ token: 'hi', logprob: -0.2, bytes: [104, 105], top: [] }] },
          extras: { dialect: 'openai-chat', fields: { audio: { id: 'audio_1', data: 'x', transcript: 'hi', expires_at: 1 } } },
        },
      ],
    });
    expect(out.choices[0].message.annotations).toEqual([{ type: 'url_citation', url_citation: { url: 'u' } }]);
    expect(out.choices[0].logprobs).toEqual({ content: [{ token: 'hi', logprob: -0.2, bytes: [104, 105], top_logprobs: [] }], refusal: null });
    expect(out.choices[0].message.audio).toEqual({ id: 'audio_1', data: 'x', transcript: 'hi', expires_at: 1 });
  });
});

test('encodeModelList', () => {
  expect(encodeModelList([{ id: 'gpt-4o', ownedBy: 'openai', created: 5 }])).toEqual({
    object: 'list',
    data: [{ id: 'gpt-4o', object: 'model', created: 5, owned_by: 'openai' }],
  });
});

describe('encodeResponse: the exact shapes', () => {
  const req: ChatRequest = { model: 'm', system: [], messages: [], stream: false };

  const encode = (res: ChatResponse) => encodeResponse(res, req, testContext()) as any;

  const res = (choices: Choice[], extra: Partial<ChatResponse> = {}): ChatResponse => ({ id: 'chatcmpl-1', model: 'm', created: 1, choices, ...extra });

  const choice = (content: Choice['content']): Choice => ({ index: 0, content, finishReason: { unified: 'stop' } });

  test('a response without an id gets a fresh chatcmpl- id; a foreign id gets the prefix', () => {
    expect(encode(res([], { id: '' })).id).toBe('chatcmpl-test0001');
    expect(encode(res([], { id: 'msg_1' })).id).toBe('chatcmpl-msg_1');
  });

  test("a Gemini signature on the answer text rides as an empty signed reasoning detail", () => {
    const gem = { origin: 'gemini' as const, value: 'G' };
    expect(encode(res([choice([{ type: 'text', text: 'Hi', signature: gem }])])).choices[0].message).toEqual({
      role: 'assistant',
      content: 'Hi',
      refusal: null,
      reasoning_details: [{ type: 'reasoning.text', text: '', signature: encodeSignature(gem) }],
      annotations: [],
    });
  });

  test('several refusals are one string; images and files in an answer are left out', () => {
    const message = encode(
      res([
        choice([
          { type: 'refusal', text: 'No, ' },
          { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
          { type: 'refusal', text: 'sorry.' },
          { type: 'file', source: { type: 'file-id', id: 'file_1' } },
        ]),
      ]),
    ).choices[0].message;
    expect(message).toEqual({ role: 'assistant', content: null, refusal: 'No, sorry.', annotations: [] });
  });

  test('a blocked prompt that still has choices keeps them; no choices and no block is an empty list', () => {
    const blocked = encode(res([choice([{ type: 'text', text: 'partial' }])], { promptBlocked: { reason: 'SAFETY' } }));
    expect(blocked.choices).toHaveLength(1);
    expect(blocked.choices[0].message.content).toBe('partial');
    expect(encode(res([])).choices).toEqual([]);
  });

  test('a caller whose request carried other Chat extras, but not legacy functions, gets tool_calls', () => {
    const withExtras: ChatRequest = { ...req, extras: { dialect: 'openai-chat', fields: { store: true } } };
    const out = encodeResponse(res([{ index: 0, content: [{ type: 'tool-call', id: 'call_a', name: 'f', arguments: '{}' }], finishReason: { unified: 'tool-calls' } }]), withExtras, testContext()) as any;
    expect(out.choices[0].message.tool_calls).toEqual([{ id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } }]);
    expect(out.choices[0].message.function_call).toBeUndefined();
    expect(out.choices[0].finish_reason).toBe('tool_calls');
  });

  test('another dialect\'s citation is no annotation even shaped as one; audio extras must be an object', () => {
    const chat = { type: 'url_citation', url_citation: { start_index: 0, end_index: 2, url: 'https://a', title: 'A' } };
    const other = { raw: { dialect: 'anthropic' as const, value: { type: 'url_citation', url_citation: { url: 'https://b' } } } };
    const out = encode(res([{ ...choice([{ type: 'text', text: 'Hi', citations: [other, decodeAnnotation(chat)] }]), extras: { dialect: 'openai-chat', fields: { audio: 'x' } } }]));
    expect(out.choices[0].message.annotations).toEqual([chat]);
    expect(Object.keys(out.choices[0].message)).not.toContain('audio');
  });
});

describe('encodeResponse: an answer around a web search', () => {
  const res = (content: Choice['content']): ChatResponse => ({ id: 'chatcmpl-1', model: 'm', created: 1, choices: [{ index: 0, content, finishReason: { unified: 'stop' } }] });
  const search = { type: 'web-search' as const, id: 'ws_1', kind: 'search' as const, results: [] };
  const message = (content: Choice['content']) => (encodeResponse(res(content), req, testContext()) as any).choices[0].message;

  test('the text before and after a search are two paragraphs; an empty text part between does not end the break', () => {
    expect(message([{ type: 'text', text: 'Before' }, search, { type: 'text', text: '' }, { type: 'text', text: 'After' }, { type: 'text', text: ' more' }]).content).toBe('Before\n\nAfter more');
  });

  test('text parts without a search in between are one text; a search before any text adds no break', () => {
    expect(message([{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }]).content).toBe('AB');
    expect(message([search, { type: 'text', text: 'A' }]).content).toBe('A');
  });

  test("another vendor's citations become url_citations at the text's place in the message, past the break", () => {
    const cite = (url: string, start: number, end: number): Citation => ({ url, title: url, span: { start, end } });
    const out = message([{ type: 'text', text: 'Hello', citations: [cite('a', 0, 5)] }, search, { type: 'text', text: 'World', citations: [cite('b', 1, 3)] }]);
    expect(out.content).toBe('Hello\n\nWorld');
    expect(out.annotations).toEqual([
      { type: 'url_citation', url_citation: { start_index: 0, end_index: 5, url: 'a', title: 'a' } },
      { type: 'url_citation', url_citation: { start_index: 8, end_index: 10, url: 'b', title: 'b' } },
    ]);
  });

  test('no service_tier member when the extras have none', () => {
    const out = encodeResponse({ ...res([{ type: 'text', text: 'x' }]), extras: { dialect: 'openai-chat', fields: { system_fingerprint: 'fp' } } }, req, testContext()) as Record<string, unknown>;
    expect(Object.keys(out)).not.toContain('service_tier');
    expect(out['system_fingerprint']).toBe('fp');
  });
});

import { describe, expect, it } from 'vitest';
import { decodeSignature, decodeToolCallId, type ChatResponse, type FinishReason, type Citation, type ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeResponse, encodeBlocks, inputOf } from './encode-response.ts';
import { encodeCountTokensResponse } from './count-tokens.ts';
import { encodeModelList } from './model-list.ts';
import { decodeStopReason, encodeStopReason } from './finish-reason.ts';
import { decodeCitation } from './citations.ts';

const REQ = { model: 'claude-x', system: [], messages: [], stream: false };

const res = (over: Partial<ChatResponse> = {}): ChatResponse => ({
  id: 'chatcmpl-1',
  model: 'gpt-4o',
  created: 1,
  choices: [{ index: 0, content: [{ type: 'text', text: 'hi' }], finishReason: { unified: 'stop', raw: 'stop' } }],
  ...over,
});

describe('anthropic encodeResponse', () => {
  it('fixtures round-trip: decodeResponse → encodeResponse gives the same message', () => {
    for (const name of ['text-basic.json', 'tool-use-single.json', 'text-then-tool-use.json', 'thinking-signature.json', 'tool-result-followup.json', 'refusal-stop-details.json', 'structured-output-json-schema.json']) {
      const wire = fixtureJson('anthropic', name);
      const out = encodeResponse(decodeResponse(wire, REQ, testContext()), REQ, testContext());
      expect(out.id).toBe(wire.id);
      expect(out.model).toBe(wire.model);
      expect(out.stop_reason).toBe(wire.stop_reason);
      expect(out.stop_sequence).toBe(wire.stop_sequence);
      // The service omits a text block's null `citations`, which the OpenAPI document requires.
      expect(out.content).toEqual(wire.content.map((b: Record<string, unknown>) => (b.type === 'text' ? { citations: null, ...b } : b)));
      expect(out.stop_details).toEqual(wire.stop_details ?? null);
      expect(out.usage).toMatchObject({
        input_tokens: wire.usage.input_tokens,
        output_tokens: wire.usage.output_tokens,
        cache_creation_input_tokens: wire.usage.cache_creation_input_tokens,
        cache_read_input_tokens: wire.usage.cache_read_input_tokens,
        cache_creation: wire.usage.cache_creation,
      });
    }
  });

  it('OpenAI-semantics usage → Anthropic usage (input excludes cache)', () => {
    const out = encodeResponse(
      res({ usage: { inputTokens: 1000, outputTokens: 50, totalTokens: 1050, cachedInputTokens: 600, cacheWriteTokens: 100 } }),
      REQ,
      testContext(),
    );
    expect(out.usage).toEqual({
      input_tokens: 300,
      cache_read_input_tokens: 600,
      cache_creation_input_tokens: 100,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 0 },
      output_tokens: 50,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: null,
      inference_geo: null,
      speed: null,
    });
    expect(out).toMatchObject({ stop_details: null, container: null, diagnostics: null });
    expect(out.id).toBe('msg_test0001');
    expect(out.type).toBe('message');
    expect(out.role).toBe('assistant');
    expect(encodeResponse(res(), REQ, testContext()).usage).toMatchObject({ input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    const thinking = encodeResponse(res({ usage: { inputTokens: 10, outputTokens: 40, totalTokens: 50, reasoningTokens: 30 } }), REQ, testContext());
    expect(thinking.usage.output_tokens_details).toEqual({ thinking_tokens: 30 });
  });

  it('parts: carriers for foreign signatures, tool input objects, refusal as text', () => {
    const gem = { origin: 'gemini' as const, value: 'gsig' };
    const out = encodeResponse(
      res({
        choices: [
          {
            index: 0,
            content: [
              { type: 'reasoning', text: 'r', signature: gem },
              { type: 'reasoning', text: '', redacted: { origin: 'openai', value: 'enc' } },
              { type: 'text', text: 'answer', signature: gem },
              { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"a":1}', signature: gem },
              { type: 'tool-call', id: 'call_2', name: 'g', arguments: '' },
              { type: 'tool-call', id: 'call_3', name: 'h', arguments: '{"trunc' },
              { type: 'refusal', text: 'I cannot' },
            ],
            finishReason: { unified: 'stop', raw: 'STOP' },
          },
        ],
      }),
      REQ,
      testContext(),
    );
    const [r, red, text, sigBlock, t1, t2, t3, refusal] = out.content as Array<Record<string, any>>;
    expect(decodeSignature(r!.signature)).toEqual(gem);
    expect(decodeSignature(red!.data)).toEqual({ origin: 'openai', value: 'enc' });
    expect(text).toEqual({ type: 'text', text: 'answer', citations: null });
    expect(sigBlock).toMatchObject({ type: 'thinking', thinking: '' });
    expect(decodeSignature(sigBlock!.signature)).toEqual(gem);
    expect(decodeToolCallId(t1!.id)).toEqual({ id: 'call_1', signature: gem });
    expect(t1!.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(t1!.input).toEqual({ a: 1 });
    for (const t of [t1, t2, t3]) expect(t!.caller).toEqual({ type: 'direct' });
    expect(t2!.input).toEqual({});
    expect(t3!.input).toEqual({});
    expect(refusal).toEqual({ type: 'text', text: 'I cannot', citations: null });
    // Gemini reports STOP for function calls: the caller sees tool_use.
    expect(out.stop_reason).toBe('tool_use');
  });

  it('citations: the ones Anthropic wrote kept as written, another dialect\'s as a web_search_result_location, none → null', () => {
    const anthropicCitation = { type: 'web_search_result_location', cited_text: 'x', url: 'https://a', title: 'A', encrypted_index: 'e' };
    const openaiCitation = { url: 'https://b', title: 'B', span: { start: 0, end: 1 }, raw: { dialect: 'openai-chat' as const, value: { type: 'url_citation', url_citation: { start_index: 0, end_index: 1, url: 'https://b', title: 'B' } } } };
    const text = (citations: Citation[]) =>
      encodeResponse(res({ choices: [{ index: 0, content: [{ type: 'text', text: 't', citations }], finishReason: { unified: 'stop' } }] }), REQ, testContext()).content[0];
    expect(text([decodeCitation(anthropicCitation), openaiCitation])).toEqual({ type: 'text', text: 't', citations: [anthropicCitation] });
    expect(text([])).toEqual({ type: 'text', text: 't', citations: null });
    const foreign = text([openaiCitation]) as { citations: Array<Record<string, unknown>> };
    expect(foreign).toMatchObject({ type: 'text', text: 't' });
    expect(foreign.citations).toEqual([{ type: 'web_search_result_location', url: 'https://b', title: 'B', cited_text: 't', encrypted_index: expect.any(String) }]);
    // Never Anthropic's own index: our origin-tagged carrier of the page.
    expect(decodeSignature(foreign.citations[0]!.encrypted_index as string)).toEqual({ origin: 'openai', value: 'https://b' });
  });

  it('prompt blocked → refusal with no content', () => {
    const out = encodeResponse(res({ choices: [], promptBlocked: { reason: 'SAFETY' } }), REQ, testContext());
    expect(out).toMatchObject({ content: [], stop_reason: 'refusal', stop_sequence: null });
  });

  it('model list and count_tokens', () => {
    const unknown = { capabilities: null, max_input_tokens: null, max_tokens: null, lifecycle: 'active', deprecated_at: null, retires_at: null, line: null };
    expect(encodeModelList([{ id: 'claude-a', ownedBy: 'x', created: 1_739_923_200 }, { id: 'gpt-b', ownedBy: 'y', created: 0 }])).toEqual({
      data: [
        { type: 'model', id: 'claude-a', display_name: 'claude-a', created_at: '2025-02-19T00:00:00Z', ...unknown },
        { type: 'model', id: 'gpt-b', display_name: 'gpt-b', created_at: '1970-01-01T00:00:00Z', ...unknown },
      ],
      has_more: false,
      first_id: 'claude-a',
      last_id: 'gpt-b',
    });
    expect(encodeModelList([])).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
    expect(encodeCountTokensResponse(42)).toEqual({ input_tokens: 42 });
  });
});

describe('anthropic stop reasons', () => {
  const table: Array<[FinishReason, boolean, string]> = [
    [{ unified: 'stop' }, false, 'end_turn'],
    [{ unified: 'length' }, false, 'max_tokens'],
    [{ unified: 'length', raw: 'model_context_window_exceeded' }, false, 'model_context_window_exceeded'],
    [{ unified: 'tool-calls' }, true, 'tool_use'],
    [{ unified: 'content-filter', raw: 'content_filter' }, false, 'refusal'],
    [{ unified: 'refusal' }, false, 'refusal'],
    [{ unified: 'pause' }, false, 'pause_turn'],
    [{ unified: 'error' }, false, 'end_turn'],
    [{ unified: 'other', raw: 'FINISH_REASON_UNSPECIFIED' }, false, 'end_turn'],
  ];
  it.each(table)('%j → %s', (reason, tools, wire) => {
    expect(encodeStopReason(reason, tools).stop_reason).toBe(wire);
  });
  it('stop_sequence both ways', () => {
    const r = decodeStopReason('stop_sequence', 'STOP');
    expect(r).toEqual({ unified: 'stop-sequence', raw: 'stop_sequence', stopSequence: 'STOP' });
    expect(encodeStopReason(r, false)).toEqual({ stop_reason: 'stop_sequence', stop_sequence: 'STOP' });
    for (const raw of ['end_turn', 'max_tokens', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded']) {
      expect(encodeStopReason(decodeStopReason(raw), raw === 'tool_use').stop_reason).toBe(raw);
    }
    expect(decodeStopReason('brand_new')).toEqual({ unified: 'other', raw: 'brand_new' });
  });
});

describe('canonical answer → anthropic Message', () => {
  const req: ChatRequest = { model: 'asked-model', system: [], messages: [], stream: false };

  const res = (over: Partial<ChatResponse> = {}): ChatResponse => ({
    id: 'msg_r',
    model: 'claude-x',
    created: 1,
    choices: [{ index: 0, content: [{ type: 'text', text: 'hi' }], finishReason: { unified: 'stop' } }],
    ...over,
  });

  it('the caller’s model when the upstream names none; an id that is not msg_ is replaced', () => {
    const m = encodeResponse(res({ model: '', id: 'chatcmpl-1' }), req, testContext());
    expect(m.model).toBe('asked-model');
    expect(m.id).toMatch(/^msg_/);
    expect(m.id).not.toBe('chatcmpl-1');
    expect(encodeResponse(res(), req, testContext()).id).toBe('msg_r');
  });

  it('server blocks go back at their index (or at the end when the content is shorter)', () => {
    const block = (n: number) => ({ type: 'web_search_tool_result', tool_use_id: `s${n}`, content: [] });
    const m = encodeResponse(
      res({
        choices: [
          {
            index: 0,
            content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }],
            finishReason: { unified: 'stop' },
            extras: { dialect: 'anthropic', fields: { serverBlocks: [{ index: 1, block: block(1) }, { index: 9, block: block(9) }], stop_details: { type: 'refusal' } } },
          },
        ],
      }),
      req,
      testContext(),
    );
    expect(m.content.map((b: any) => b.text ?? b.tool_use_id)).toEqual(['a', 's1', 'b', 's9']);
    expect(m.stop_details).toEqual({ type: 'refusal' });
    expect(encodeResponse(res(), req, testContext()).stop_details).toBeNull();
  });

  it('stop_reason: tool_use when the answer holds a call (Gemini says STOP); refusal when the prompt was blocked', () => {
    const call = res({ choices: [{ index: 0, content: [{ type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }], finishReason: { unified: 'stop' } }] });
    expect(encodeResponse(call, req, testContext()).stop_reason).toBe('tool_use');
    expect(encodeResponse(res(), req, testContext()).stop_reason).toBe('end_turn');
    const blocked = encodeResponse(res({ choices: [], promptBlocked: { reason: 'SAFETY' } } as Partial<ChatResponse>), req, testContext());
    expect(blocked).toMatchObject({ stop_reason: 'refusal', content: [] });
  });

  it('blocks: empty text is skipped; unsigned thinking has an empty signature; parts with no response block are left out', () => {
    expect(
      encodeBlocks([
        { type: 'text', text: '' },
        { type: 'refusal', text: '' },
        { type: 'reasoning', text: 'hm' },
        { type: 'image', source: { type: 'url', url: 'https://x' } },
      ]),
    ).toEqual([{ type: 'thinking', thinking: 'hm', signature: '' }]);
  });

  it('tool input: an object as is; empty, invalid, an array or a scalar → {}', () => {
    expect(inputOf('{"a":[1]}')).toEqual({ a: [1] });
    for (const s of ['', '  ', '{', '[1]', '3', 'null']) expect(inputOf(s)).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import { encodeReasoning, type ChatRequest, type ChatResponse, type Part, type Citation } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { encryptedOf, outputOf, outputOptions, reasoningItem } from './encode-output.ts';
import { encodeResponse } from './encode-response.ts';
import { encodeAnnotations, decodeAnnotation } from './citations.ts';

type Data = Record<string, any>;

const plain: ChatRequest = { model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
/** A caller that asked for summaries and encrypted reasoning (what Codex asks). */
const codexLike: ChatRequest = { ...plain, reasoning: { effort: 'low', includeThoughts: true }, extras: { dialect: 'openai-responses', fields: {}, encryptedReasoning: true } as never };
const all = { summaries: true, encrypted: true, logprobs: false };
const none = { summaries: false, encrypted: false, logprobs: false };

describe('output items of a choice', () => {
  it('options come from the request: summaries from includeThoughts, encrypted from include, logprobs', () => {
    expect(outputOptions(plain)).toEqual(none);
    expect(outputOptions(codexLike)).toEqual({ summaries: true, encrypted: true, logprobs: false });
    expect(outputOptions({ ...plain, logprobs: true, reasoning: { includeThoughts: false } })).toEqual({ summaries: false, encrypted: false, logprobs: true });
    expect(outputOptions({ ...plain, extras: { dialect: 'anthropic', fields: {}, encryptedReasoning: true } as never })).toEqual(none);
  });

  it('text and refusals gather in one message; reasoning and calls split it; images and results are left out', () => {
    const parts: Part[] = [
      { type: 'text', text: 'a' },
      { type: 'refusal', text: 'no' },
      { type: 'image', source: { type: 'url', url: 'https://x/a.png' } },
      { type: 'reasoning', text: 'r', signature: { origin: 'openai', value: 'gAAA' } },
      { type: 'text', text: 'b' },
      { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{}' },
      { type: 'tool-call', id: 'call_2', name: 'p', arguments: 'raw', custom: true },
      { type: 'tool-result', callId: 'call_1', content: [] },
    ];
    expect(outputOf(parts, [], 'completed', all, testContext())).toEqual([
      { id: 'msg_test0001', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'a' }, { type: 'refusal', refusal: 'no' }] },
      { id: 'rs_test0002', type: 'reasoning', summary: [{ type: 'summary_text', text: 'r' }], encrypted_content: 'gAAA' },
      { id: 'msg_test0003', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'b' }] },
      { id: 'fc_test0004', type: 'function_call', status: 'completed', arguments: '{}', call_id: 'call_1', name: 'f' },
      { id: 'ctc_test0005', type: 'custom_tool_call', status: 'completed', call_id: 'call_2', name: 'p', input: 'raw' },
    ]);
    expect(outputOf([{ type: 'image', source: { type: 'url', url: 'https://x/a.png' } }], [], 'completed', all, testContext())).toEqual([]);
  });

  it('a signed text part: an empty reasoning item after its message carries the signature, only when encrypted content was asked', () => {
    const signature = { origin: 'gemini' as const, value: 'SIG' };
    const parts: Part[] = [{ type: 'text', text: 'a', signature }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }];
    expect(outputOf(parts, [], 'incomplete', all, testContext()).map((i) => [i['type'], i['status'], i['encrypted_content']])).toEqual([
      ['message', 'incomplete', undefined],
      ['reasoning', undefined, encodeReasoning({ text: '', signature })],
      ['function_call', 'completed', undefined],
    ]);
    expect(outputOf(parts, [], 'completed', none, testContext()).map((i) => i['type'])).toEqual(['message', 'function_call']);
    // An unsigned text after the signed one in the same message keeps the signature pending.
    expect(outputOf([{ type: 'text', text: 'a', signature }, { type: 'text', text: 'b' }], [], 'completed', all, testContext()).map((i) => i['type'])).toEqual(['message', 'reasoning']);
    // Once written, the signature is not written again by a later message.
    expect(outputOf([...parts, { type: 'text', text: 'b' }], [], 'completed', all, testContext()).map((i) => i['type'])).toEqual(['message', 'reasoning', 'function_call', 'message']);
  });

  it('kept built-in tool items go back before the part they preceded, the rest at the end', () => {
    const hosted = [
      { at: 0, item: { type: 'web_search_call', id: 'ws_0' } },
      { at: 1, item: { type: 'web_search_call', id: 'ws_1' } },
      { at: 1, item: { type: 'file_search_call', id: 'fs_1' } },
      { at: 5, item: { type: 'image_generation_call', id: 'ig_5' } },
    ];
    const out = outputOf([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], hosted, 'completed', none, testContext());
    expect(out.map((i) => i['id'])).toEqual(['ws_0', 'msg_test0001', 'ws_1', 'fs_1', 'msg_test0002', 'ig_5']);
    expect(outputOf([], hosted.slice(0, 1), 'completed', none, testContext())).toEqual([{ type: 'web_search_call', id: 'ws_0' }]);
  });

  it('annotations: the citations the Responses API wrote, as written; another dialect\'s are not annotations', () => {
    const kept = [
      { type: 'url_citation', url: 'https://x', start_index: 0, end_index: 1, title: 't' },
      { type: 'file_citation', file_id: 'f', index: 0 },
      { type: 'container_file_citation', container_id: 'c', file_id: 'f' },
      { type: 'file_path', file_id: 'f', index: 0 },
    ];
    const others: Citation[] = [
      { url: 'https://x', raw: { dialect: 'openai-chat', value: { type: 'url_citation', url_citation: { url: 'https://x' } } } },
      { url: 'https://x', raw: { dialect: 'anthropic', value: { type: 'web_search_result_location', url: 'https://x' } } },
      { url: 'https://x' },
    ];
    expect(encodeAnnotations([others[0]!, ...kept.map(decodeAnnotation), ...others.slice(1)])).toEqual(kept);
    expect(encodeAnnotations(undefined)).toEqual([]);
    const [item] = outputOf([{ type: 'text', text: 'a', citations: [decodeAnnotation(kept[0]), others[0]!] }], [], 'completed', none, testContext());
    expect((item!['content'] as Data[])[0]!['annotations']).toEqual([kept[0]]);
  });

  it('reasoning: OpenAI content raw, another vendor’s wrapped whole, a redaction wrapped with its text; summaries only when asked, empty ones left out', () => {
    expect(encryptedOf({ text: 't', signature: { origin: 'openai', value: 'gAAA' } })).toBe('gAAA');
    expect(encryptedOf({ text: 't', signature: { origin: 'anthropic', value: 'EqQB' } })).toBe(encodeReasoning({ text: 't', signature: { origin: 'anthropic', value: 'EqQB' } }));
    expect(encryptedOf({ text: 'h', redacted: { origin: 'anthropic', value: 'RED' } })).toBe(encodeReasoning({ text: 'h', redacted: { origin: 'anthropic', value: 'RED' } }));
    expect(encryptedOf({ text: 't' })).toBeUndefined();
    expect(reasoningItem('rs_1', ['a', '', 'b'], { text: 't' }, all)).toEqual({ id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'a' }, { type: 'summary_text', text: 'b' }] });
    expect(reasoningItem('rs_1', ['a'], { text: 't', signature: { origin: 'openai', value: 'gAAA' } }, none)).toEqual({ id: 'rs_1', type: 'reasoning', summary: [] });
    expect(reasoningItem('rs_1', ['a'], undefined, all)).toEqual({ id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'a' }] });
  });
});

describe('encodeResponse: log probabilities', () => {
  const res = (content: Part[]): ChatResponse => ({
    id: 'resp_1',
    model: 'm',
    created: 1,
    choices: [{ index: 0, content, finishReason: { unified: 'stop' }, logprobs: { content: [{ token: 'A', logprob: -0.5, top: [] }] } }],
  });
  const lp = [{ token: 'A', logprob: -0.5, bytes: [65], top_logprobs: [] }];

  it('go on the first output text, past reasoning and a refusal-only message, only when asked', () => {
    const content: Part[] = [{ type: 'reasoning', text: 'r' }, { type: 'refusal', text: 'no' }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }, { type: 'text', text: 'A' }, { type: 'tool-call', id: 'd', name: 'f', arguments: '{}' }, { type: 'text', text: 'B' }];
    const out = (encodeResponse(res(content), { ...plain, logprobs: true }, testContext()) as Data)['output'] as Data[];
    expect(out.filter((i) => i['type'] === 'message').map((i) => i['content'].map((c: Data) => c['logprobs']))).toEqual([[undefined], [lp], [[]]]);
    const without = (encodeResponse(res(content), plain, testContext()) as Data)['output'] as Data[];
    expect(without.filter((i) => i['type'] === 'message').map((i) => i['content'].map((c: Data) => c['logprobs']))).toEqual([[undefined], [[]], [[]]]);
  });

  it('no choice: completed and empty unless the prompt was blocked; a choice with extras but no built-in items', () => {
    const none = encodeResponse({ ...res([]), choices: [] }, plain, testContext()) as Data;
    expect(none).toMatchObject({ status: 'completed', incomplete_details: null, output: [] });
    const blockedWithChoice = encodeResponse({ ...res([{ type: 'text', text: 'A' }]), promptBlocked: { reason: 'SAFETY' } }, plain, testContext()) as Data;
    expect(blockedWithChoice).toMatchObject({ status: 'completed', output: [{ type: 'message' }] });
    const choice = { index: 0, content: [{ type: 'text', text: 'A' }] as Part[], finishReason: { unified: 'stop' as const }, extras: { dialect: 'openai-responses' as const, fields: {} } };
    expect(((encodeResponse({ ...res([]), choices: [choice] }, plain, testContext()) as Data)['output'] as Data[]).map((i) => i['type'])).toEqual(['message']);
  });

  it('an id already a Response id is kept; none gets a new one', () => {
    expect((encodeResponse(res([]), plain, testContext()) as Data)['id']).toBe('resp_1');
    expect((encodeResponse({ ...res([]), id: '' }, plain, testContext()) as Data)['id']).toBe('resp_test0001');
  });
});

/** The Anthropic caller's stream with hosted searches, held cited text, a proxy compaction and applied context edits. */
import { describe, expect, it } from 'vitest';
import { decodeCompaction, decodeSignature, type ChatRequest, type StreamEvent, type WebSearchPart } from '../../src/canonical/index.ts';
import { encodeAnthropicStream, shortFrames } from '../../test/support/anthropic-stream.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { createStreamEncoder } from './stream-encoder.ts';

const plain: ChatRequest = { model: 'claude-x', system: [], messages: [], stream: true };
const withWeb: ChatRequest = { ...plain, nativeTools: [{ dialect: 'openai-responses', definition: { type: 'web_search' }, web: { kind: 'search' } }] };

const run = encodeAnthropicStream;
const short = shortFrames;

const search: WebSearchPart = { type: 'web-search', id: 'ws_1', kind: 'search', queries: ['q'], results: [{ url: 'https://a', title: 'A' }], raw: { dialect: 'openai-responses', value: {} } };
const cite = (url: string, start: number, end: number): StreamEvent => ({ type: 'citation', citation: { url, span: { start, end }, raw: { dialect: 'openai-responses', value: {} } } });

describe('anthropic stream encoder: hosted searches', () => {
  it('a search: the tool use with its input as one delta, the result whole; counted in message_delta', () => {
    const data = run(plain, [{ type: 'web-search', part: search }, { type: 'finish', reason: { unified: 'stop' } }]);
    expect(short(data)).toEqual(['message_start', 'start0:server_tool_use', 'delta0:input_json_delta:{"query":"q"}', 'stop0', 'start1:web_search_tool_result', 'stop1', 'message_delta', 'message_stop']);
    expect(data[1]!.content_block).toEqual({ type: 'server_tool_use', id: 'srvtoolu_ws_1', name: 'web_search', input: {}, caller: { type: 'direct' } });
    expect(data[4]!.content_block).toMatchObject({ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_ws_1', content: [{ type: 'web_search_result', url: 'https://a', title: 'A' }] });
    expect(data.at(-2)!.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
  });

  it('no search, no server_tool_use count', () => {
    const data = run(plain, [{ type: 'text-delta', text: 'hi' }]);
    expect(data.at(-2)!.usage.server_tool_use).toBeNull();
  });

  it('a search during a streaming tool call waits for its end; during text, the text closes first', () => {
    const data = run(plain, [
      { type: 'text-delta', text: 'x' },
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' },
      { type: 'web-search', part: search },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'web-search', part: { ...search, id: 'ws_2' } },
      { type: 'text-delta', text: 'y' },
    ]);
    expect(short(data)).toEqual([
      'message_start',
      'start0:text',
      'delta0:text_delta:x',
      'stop0',
      'start1:tool_use',
      'delta1:input_json_delta:{}',
      'stop1',
      'start2:server_tool_use',
      'delta2:input_json_delta:{"query":"q"}',
      'stop2',
      'start3:web_search_tool_result',
      'stop3',
      'start4:server_tool_use',
      'delta4:input_json_delta:{"query":"q"}',
      'stop4',
      'start5:web_search_tool_result',
      'stop5',
      'start6:text',
      'delta6:text_delta:y',
      'stop6',
      'message_delta',
      'message_stop',
    ]);
    expect(data.at(-2)!.usage.server_tool_use).toEqual({ web_search_requests: 2, web_fetch_requests: 0 });
  });

  it('a search still waiting when the call never ends is written at finish', () => {
    const data = run(plain, [{ type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' }, { type: 'web-search', part: search }]);
    expect(short(data)).toEqual(['message_start', 'start0:tool_use', 'stop0', 'start1:server_tool_use', 'delta1:input_json_delta:{"query":"q"}', 'stop1', 'start2:web_search_tool_result', 'stop2', 'message_delta', 'message_stop']);
  });

  it('an overlapping call ended first does not let the search out while the open call streams', () => {
    const data = run(plain, [
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
      { type: 'web-search', part: search },
      { type: 'tool-call-end', index: 1 },
    ]);
    expect(short(data).slice(0, 2)).toEqual(['message_start', 'start0:tool_use']);
    expect(short(data)[2]).toBe('stop0');
  });

  it('Anthropic’s own search blocks, replayed, stream with their input as the delta', () => {
    const use = { type: 'server_tool_use', id: 'srvtoolu_9', name: 'web_search', input: { query: 'z' } };
    const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_9', content: [] };
    const data = run(plain, [{ type: 'web-search', part: { type: 'web-search', id: 'srvtoolu_9', kind: 'search', results: [], raw: { dialect: 'anthropic', value: [use, result] } } }]);
    expect(data[1]!.content_block).toEqual({ type: 'server_tool_use', id: 'srvtoolu_9', name: 'web_search', input: {} });
    expect(data[2]!.delta).toEqual({ type: 'input_json_delta', partial_json: '{"query":"z"}' });
    expect(data[4]!.content_block).toEqual(result);
    const noInput = run(plain, [{ type: 'web-search', part: { type: 'web-search', id: 'srvtoolu_9', kind: 'search', results: [], raw: { dialect: 'anthropic', value: [{ type: 'server_tool_use', id: 'srvtoolu_9', name: 'web_search' }] } } }]);
    expect(noInput[2]!.delta).toEqual({ type: 'input_json_delta', partial_json: '{}' });
  });
});

describe('anthropic stream encoder: cited text held with a hosted web tool', () => {
  it('the text is held until its citations are known, then one block per cited stretch, citations first', () => {
    const data = run(withWeb, [
      { type: 'text-start' },
      { type: 'text-delta', text: 'One. ' },
      { type: 'text-delta', text: 'Two.' },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
      { type: 'text-end' },
      cite('https://a', 5, 9),
      { type: 'finish', reason: { unified: 'stop' } },
    ]);
    expect(short(data)).toEqual(['message_start', 'start0:text', 'delta0:text_delta:One. ', 'stop0', 'start1:text', 'delta1:citations_delta:https://a', 'delta1:text_delta:Two.', 'stop1', 'message_delta', 'message_stop']);
    expect(data[1]!.content_block).toEqual({ type: 'text', text: '', citations: null });
    expect(data[4]!.content_block).toEqual({ type: 'text', text: '', citations: [] });
    expect(data[5]!.delta.citation).toMatchObject({ type: 'web_search_result_location', url: 'https://a', cited_text: 'Two.' });
    expect(decodeSignature(data[5]!.delta.citation.encrypted_index)).toEqual({ origin: 'openai', value: 'https://a' });
  });

  it('another block starting writes the held text first', () => {
    const data = run(withWeb, [{ type: 'text-delta', text: 'a' }, { type: 'tool-call-start', index: 0, id: 'c', name: 'f' }]);
    expect(short(data).slice(0, 5)).toEqual(['message_start', 'start0:text', 'delta0:text_delta:a', 'stop0', 'start1:tool_use']);
  });

  it('a text-end with a signature writes the held text, then the empty thinking block carrying it', () => {
    const data = run(withWeb, [{ type: 'text-delta', text: 'a' }, { type: 'text-end', signature: { origin: 'gemini', value: 'sig' } }]);
    expect(short(data)).toEqual(['message_start', 'start0:text', 'delta0:text_delta:a', 'stop0', 'start1:thinking', 'delta1:signature_delta:', 'stop1', 'message_delta', 'message_stop']);
  });

  it('a citation with nothing held, outside a text block, is dropped; Anthropic’s own on an open text block is passed on', () => {
    const own = { type: 'web_search_result_location', url: 'https://o', cited_text: 'c', encrypted_index: 'E', title: null };
    const data = run(plain, [
      cite('https://x', 0, 1),
      { type: 'text-delta', text: 'hi' },
      { type: 'citation', citation: { url: 'https://o', raw: { dialect: 'anthropic', value: own } } },
      cite('https://y', 0, 1),
    ]);
    expect(short(data)).toEqual(['message_start', 'start0:text', 'delta0:text_delta:hi', 'delta0:citations_delta:https://o', 'stop0', 'message_delta', 'message_stop']);
    expect(data[3]!.delta.citation).toEqual(own);
    const thinking = run(plain, [{ type: 'reasoning-delta', text: 't' }, { type: 'citation', citation: { url: 'https://o', raw: { dialect: 'anthropic', value: own } } }]);
    expect(short(thinking)).not.toContain('delta0:citations_delta:https://o');
  });

  it('without a hosted web tool text streams as it comes', () => {
    const enc = createStreamEncoder(plain, testContext());
    expect(enc.push({ type: 'text-delta', text: 'a' }).map((f) => f.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    const held = createStreamEncoder(withWeb, testContext());
    expect(held.push({ type: 'text-delta', text: 'a' })).toEqual([]);
    expect(held.push({ type: 'message-start', id: 'msg_1', model: 'm', created: 0 })).toEqual([]);
  });
});

describe('anthropic stream encoder: what the proxy did to the context', () => {
  it('a compaction made before the turn is the first block, its summary in one delta', () => {
    const data = run({ ...plain, compacted: { summary: 'S', origin: 'openai', model: 'gpt', created: 0 } }, [{ type: 'text-delta', text: 'hi' }]);
    expect(short(data)).toEqual(['message_start', 'start0:compaction', 'delta0:compaction_delta:', 'stop0', 'start1:text', 'delta1:text_delta:hi', 'stop1', 'message_delta', 'message_stop']);
    expect(data[1]!.content_block).toEqual({ type: 'compaction', content: null, encrypted_content: null });
    expect(data[2]!.delta).toMatchObject({ type: 'compaction_delta', content: 'S' });
    expect(decodeCompaction(data[2]!.delta.encrypted_content)).toMatchObject({ summary: 'S', origin: 'openai' });
  });

  it('applied edits go in message_delta; none, no context_management', () => {
    const data = run({ ...plain, appliedEdits: [{ type: 'clear-tool-uses', cleared: 2, clearedInputTokens: 100 }] }, []);
    expect(data.at(-2)!.context_management).toEqual({ applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 2, cleared_input_tokens: 100 }] });
    expect(run(plain, []).at(-2)).not.toHaveProperty('context_management');
  });
});

/**
 * Citations in streams, through the real translators: each upstream that streams what its text
 * cites (Anthropic `citations_delta`, Responses `response.output_text.annotation.added`, Gemini
 * grounding supports on the last chunk, Chat `delta.annotations`) → each caller's streamed form,
 * the cited stretches where the caller's JSON answer has them (offsets in UTF-16 units or UTF-8
 * bytes, as the caller counts).
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent } from '../../src/canonical/index.ts';
import { utf8Offset } from '../../src/kit/index.ts';
import { registry } from '../../translators/index.ts';
import { fixtureSse, parseSse, testContext } from '../support/fixtures.ts';

type Json = Record<string, any>;
const req: ChatRequest = {
  model: 'm',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'news?' }] }],
  stream: true,
  nativeTools: [{ dialect: 'openai-responses', definition: { type: 'web_search' }, path: 'tools[0]', web: { kind: 'search' } }],
};

const decode = (dialect: 'anthropic' | 'openai-responses' | 'gemini' | 'openai-chat', sse: string | SseEvent[]): StreamEvent[] => {
  const dec = registry.chatUpstreams[dialect === 'openai-chat' ? 'openai' : dialect].createStreamDecoder(req, testContext());
  return [...(typeof sse === 'string' ? parseSse(sse) : sse).flatMap((e) => dec.push(e)), ...dec.finish()];
};
const encode = (dialect: 'anthropic' | 'openai-responses' | 'gemini' | 'openai-chat', events: StreamEvent[]): Json[] => {
  const enc = registry.chatCallers[dialect].createStreamEncoder(req, testContext());
  return [...events.flatMap((e) => enc.push(e)), ...enc.finish()].filter((f) => f.data !== '[DONE]').map((f) => JSON.parse(f.data));
};

const text = 'Café prices rose 5% in 2026. Tea held steady.';
const cited = 'Café prices rose 5% in 2026.';
const sse = (events: Json[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

/** A Gemini stream: the answer in two chunks, the grounding (byte segments) with the last. */
const geminiStream = sse([
  { candidates: [{ content: { role: 'model', parts: [{ text: text.slice(0, 12) }] }, index: 0 }] },
  {
    candidates: [{
      content: { role: 'model', parts: [{ text: text.slice(12) }] },
      finishReason: 'STOP',
      index: 0,
      groundingMetadata: {
        webSearchQueries: ['cafe prices 2026'],
        groundingChunks: [{ web: { uri: 'https://news.example/cafe', title: 'news.example' } }],
        groundingSupports: [{ segment: { startIndex: 0, endIndex: utf8Offset(text, cited.length), text: cited }, groundingChunkIndices: [0] }],
      },
    }],
  },
]);

describe('Gemini upstream stream (grounding on the last chunk) → each caller', () => {
  const events = decode('gemini', geminiStream);

  it('decodes the support as a citation of the open text block, in UTF-16 units, before its end', () => {
    const at = events.findIndex((e) => e.type === 'citation');
    expect(events[at]).toMatchObject({ citation: { url: 'https://news.example/cafe', span: { start: 0, end: cited.length }, quote: cited } });
    expect(events.findIndex((e) => e.type === 'text-end')).toBeGreaterThan(at);
  });

  it('Anthropic: the cited sentence a text block of its own, its citations_delta before its text', () => {
    const out = encode('anthropic', events);
    const starts = out.filter((f) => f.type === 'content_block_start').map((f) => f.content_block.type);
    expect(starts).toEqual(['text', 'text', 'server_tool_use', 'web_search_tool_result']);
    const deltas = out.filter((f) => f.type === 'content_block_delta' && f.index < 2).map((f) => [f.index, f.delta.type]);
    expect(deltas).toEqual([[0, 'citations_delta'], [0, 'text_delta'], [1, 'text_delta']]);
    const d = out.filter((f) => f.type === 'content_block_delta');
    expect(d[0]!.delta.citation).toMatchObject({ type: 'web_search_result_location', url: 'https://news.example/cafe', cited_text: cited });
    expect(d[1]!.delta.text).toBe(cited);
    expect(d[2]!.delta.text).toBe(text.slice(cited.length));
  });

  it('Responses: an annotation.added at UTF-16 offsets, and the annotation in the done part and the completed response', () => {
    const out = encode('openai-responses', events);
    const added = out.find((f) => f.type === 'response.output_text.annotation.added');
    expect(added).toMatchObject({ content_index: 0, annotation_index: 0, annotation: { type: 'url_citation', start_index: 0, end_index: cited.length, url: 'https://news.example/cafe' } });
    expect(out.findIndex((f) => f.type === 'response.output_text.done')).toBeGreaterThan(out.indexOf(added!));
    const message = out.at(-1)!.response.output.find((i: Json) => i.type === 'message');
    expect(message.content[0].annotations).toEqual([added!.annotation]);
  });

  it('Chat: delta.annotations at the message text\'s UTF-16 offsets', () => {
    const out = encode('openai-chat', events);
    const annotations = out.flatMap((f) => f.choices?.[0]?.delta?.annotations ?? []);
    expect(annotations).toEqual([{ type: 'url_citation', url_citation: { start_index: 0, end_index: cited.length, url: 'https://news.example/cafe', title: 'news.example' } }]);
  });
});

describe('Responses upstream stream (annotations as they come) → Gemini and Anthropic callers', () => {
  const events = decode('openai-responses', fixtureSse('openai-responses', 'stream-web-search-hosted-tool-annotations.sse'));
  const said = events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join('');
  const cites = events.filter((e) => e.type === 'citation').map((e) => (e as Extract<StreamEvent, { type: 'citation' }>).citation);

  it('each annotation.added is a citation of the open text block at its offsets', () => {
    expect(cites.length).toBeGreaterThan(3);
    for (const c of cites) expect(c.span!.end).toBeLessThanOrEqual(said.length);
  });

  it('Gemini: groundingSupports on the last chunk, segments in UTF-8 bytes of the whole text', () => {
    const out = encode('gemini', events);
    const meta = out.at(-1)!.candidates[0].groundingMetadata;
    expect(meta.groundingSupports).toHaveLength(cites.length);
    const first = meta.groundingSupports[0];
    expect(first.segment).toEqual({ startIndex: utf8Offset(said, cites[0]!.span!.start), endIndex: utf8Offset(said, cites[0]!.span!.end), text: said.slice(cites[0]!.span!.start, cites[0]!.span!.end) });
    expect(meta.groundingChunks[first.groundingChunkIndices[0]].web.uri).toBe(cites[0]!.url);
  });

  it('Anthropic: the text written in stretches, each cited one with its citations_delta; nothing lost', () => {
    const out = encode('anthropic', events);
    const texts = out.filter((f) => f.type === 'content_block_delta' && f.delta.type === 'text_delta').map((f) => f.delta.text);
    expect(texts.join('')).toBe(said);
    const citedBlocks = new Set(out.filter((f) => f.type === 'content_block_delta' && f.delta.type === 'citations_delta').map((f) => f.index));
    expect(citedBlocks.size).toBeGreaterThan(1);
  });
});

describe('Anthropic upstream stream (citations_delta) → Responses and Chat callers', () => {
  const frames = (events: Array<[string, unknown]>) => events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  const location = { type: 'web_search_result_location', url: 'https://a.org/x', title: 'A', cited_text: 'Rust 2026 is out', encrypted_index: 'Eo8' };
  const claude = frames([
    ['message_start', { type: 'message_start', message: { id: 'msg_1', model: 'claude-x', content: [], usage: { input_tokens: 5, output_tokens: 0 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Sure. ' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: [] } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: location } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Rust 2026 is out.' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 1 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
  const events = decode('anthropic', claude);

  it('a citation without a span (the whole block) comes before the block\'s text', () => {
    expect(events.filter((e) => e.type === 'citation')).toEqual([{ type: 'citation', citation: expect.objectContaining({ url: 'https://a.org/x', quote: 'Rust 2026 is out' }) }]);
  });

  it('Responses: the whole block\'s part annotated once its length is known', () => {
    const out = encode('openai-responses', events);
    const added = out.filter((f) => f.type === 'response.output_text.annotation.added');
    expect(added).toMatchObject([{ content_index: 1, annotation: { type: 'url_citation', start_index: 0, end_index: 17, url: 'https://a.org/x' } }]);
    expect(JSON.stringify(out)).not.toContain('Eo8');
  });

  it('Chat: the annotation at the block\'s place in the message', () => {
    const out = encode('openai-chat', events);
    const content = out.map((f) => f.choices?.[0]?.delta?.content ?? '').join('');
    const [a] = out.flatMap((f) => f.choices?.[0]?.delta?.annotations ?? []);
    expect(content.slice(a.url_citation.start_index, a.url_citation.end_index)).toBe('Rust 2026 is out.');
  });
});

describe('Chat upstream stream (delta.annotations, as search models and OpenRouter send them) → an Anthropic caller', () => {
  // (the request offers a hosted web search: the cited pages are its results)
  const chat = sse([
    { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-search-preview', choices: [{ index: 0, delta: { role: 'assistant', content: 'Rust 2026 ' } }] },
    { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-search-preview', choices: [{ index: 0, delta: { content: 'is out. More soon.' } }] },
    { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-search-preview', choices: [{ index: 0, delta: { annotations: [{ type: 'url_citation', url_citation: { start_index: 0, end_index: 17, url: 'https://a.org/x', title: 'A' } }] } }] },
    { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-search-preview', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ]) + 'data: [DONE]\n\n';

  it('the cited stretch a block of its own with its citation', () => {
    const events = decode('openai-chat', chat);
    expect(events.find((e) => e.type === 'citation')).toMatchObject({ citation: { url: 'https://a.org/x', span: { start: 0, end: 17 } } });
    const out = encode('anthropic', events);
    const deltas = out.filter((f) => f.type === 'content_block_delta' && f.delta.type !== 'input_json_delta').map((f) => [f.index, f.delta.type, f.delta.text ?? f.delta.citation.url]);
    expect(deltas).toEqual([[0, 'citations_delta', 'https://a.org/x'], [0, 'text_delta', 'Rust 2026 is out.'], [1, 'text_delta', ' More soon.']]);
    // Chat has no search item: the pages the text cites are the search the request asked for.
    const result = out.find((f) => f.type === 'content_block_start' && f.content_block.type === 'web_search_tool_result');
    expect(result!.content_block.content.map((r: Json) => [r.url, r.title])).toEqual([['https://a.org/x', 'A']]);
  });
});
